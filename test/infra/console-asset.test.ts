import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { consoleBundlingCommands, GROUP_SETTINGS } from '../../lib/api-functions';
import { AppFunction, PROJECT_ROOT, handlerEntry } from '../../lib/app-function';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';
import { CONSOLE_ASSET_FILES } from '../../shared/routes/docs';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

interface LambdaAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Runs the bundled handler as Lambda would, in a Node process of its own: what the runtime and the
 * Powertools layer provide in AWS (the SDK, Powertools) comes from the project's node_modules here.
 */
function invokeBundledHandler(assetDir: string, file: string | null): LambdaAnswer {
  const event = {
    httpMethod: 'GET', resource: file ? '/console/{file}' : '/console', path: file ? `/console/${file}` : '/console',
    headers: { Host: 'example.test' }, pathParameters: file ? { file } : null, queryStringParameters: null, body: null, isBase64Encoded: false,
    requestContext: { requestId: 'req-console', stage: 'api' },
  };
  const script = `require(${JSON.stringify(path.join(assetDir, 'index.js'))}).handler(${JSON.stringify(event)}, { awsRequestId: 'req-console' })`
    + '.then((answer) => process.stdout.write(JSON.stringify(answer)))';
  const env = { ...process.env, NODE_PATH: path.join(PROJECT_ROOT, 'node_modules'), APP_MODE: 'aws', POWERTOOLS_LOG_LEVEL: 'ERROR' };
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', cwd: assetDir })) as LambdaAnswer;
}

describe('the console in AWS', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'vac-console-asset-'));
  let assetDir: string;

  beforeAll(() => {
    // The docs function as the stack bundles it, for real (esbuild on this machine), with the console's
    // bundling step; Swagger UI's install is left out, since it would fetch from the registry.
    const app = new App({ outdir });
    const stack = new Stack(app, 'ConsoleAsset');
    new AppFunction(stack, 'Docs', {
      name: 'docs', description: GROUP_SETTINGS.docs.description, memorySize: GROUP_SETTINGS.docs.memorySize,
      timeout: Duration.seconds(GROUP_SETTINGS.docs.timeoutSeconds), config: STAGES.dev, entry: handlerEntry, afterBundling: consoleBundlingCommands,
    });
    app.synth();
    const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.')).map((name) => path.join(outdir, name));
    expect(assets).toHaveLength(1);
    assetDir = assets[0]!;
  }, 180_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('is built by the docs function\'s bundling step, after Swagger UI is trimmed', () => {
    const commands = GROUP_SETTINGS.docs.afterBundling!('/bundle');
    expect(commands.slice(-consoleBundlingCommands('/bundle').length)).toEqual(consoleBundlingCommands('/bundle'));
  });

  it('lies beside the handler in the function\'s asset: the page, the bundle, the styles and the jurisdictions', () => {
    expect(readdirSync(path.join(assetDir, 'console')).sort()).toEqual(['index.html', ...CONSOLE_ASSET_FILES].sort());
    expect(readFileSync(path.join(assetDir, 'console', 'index.html'), 'utf8')).toBe(readFileSync(path.join(PROJECT_ROOT, 'console', 'index.html'), 'utf8'));
    const choices = JSON.parse(readFileSync(path.join(assetDir, 'console', 'jurisdictions.json'), 'utf8')) as { counties: unknown[] };
    expect(choices.counties).toHaveLength(67);
  });

  it('is served by the bundled handler with its content type, the console\'s policy and no caching without asking', () => {
    const page = invokeBundledHandler(assetDir, null);
    expect(page.statusCode).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers['Content-Security-Policy']).toContain("connect-src 'self'");
    expect(page.headers['Cache-Control']).toBe('no-cache');
    expect(page.body).toBe(readFileSync(path.join(assetDir, 'console', 'index.html'), 'utf8'));

    const script = invokeBundledHandler(assetDir, 'main.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(readFileSync(path.join(assetDir, 'console', 'main.js'), 'utf8'));
    expect(invokeBundledHandler(assetDir, 'main.css').headers['Content-Type']).toBe('text/css; charset=utf-8');
  });

  it('has its routes on the API, keyless and integrated with the docs function', () => {
    const stack = new ComplianceApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test', { config: STAGES.dev });
    const template = Template.fromStack(stack);
    const docsFunction = stack.getLogicalId(stack.functions.byGroup.docs.node.defaultChild as never);
    for (const operation of ['getConsole', 'getConsoleFile']) {
      const [method] = Object.values(template.findResources('AWS::ApiGateway::Method', { Properties: { OperationName: operation } }));
      expect(method?.Properties).toMatchObject({ HttpMethod: 'GET', AuthorizationType: 'NONE' });
      expect(JSON.stringify(method!.Properties.Integration.Uri)).toContain(`"${docsFunction}"`);
    }
    const resources = Object.values(template.findResources('AWS::ApiGateway::Resource')).map((resource) => resource.Properties.PathPart as string);
    expect(resources).toEqual(expect.arrayContaining(['console', '{file}']));
  });
});
