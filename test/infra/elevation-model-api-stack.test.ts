import { existsSync } from 'node:fs';
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { handlerEntry, type AppFunction, type EntryResolver } from '../../lib/app-function';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

/** Bundling skipped; a function whose handler is not written yet points at an existing one. */
const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

type Statement = { Action: string | string[]; Resource: unknown };

let stack: ComplianceApiStack;
let template: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new ComplianceApiStack(app, 'Test', { config: STAGES.dev, entry });
  template = Template.fromStack(stack);
});

/** The object actions a function may take, by key prefix of the data bucket. */
function objectActionsByPrefix(fn: AppFunction): Map<string, Set<string>> {
  const roleId = Stack.of(fn).getLogicalId(fn.role!.node.defaultChild as CfnElement);
  const byPrefix = new Map<string, Set<string>>();
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;
  for (const policy of Object.values(resources)) {
    if (policy.Type !== 'AWS::IAM::Policy' || !policy.Properties.Roles.some((role: any) => role.Ref === roleId)) continue;
    for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
      if (![statement.Action].flat().every((action) => action.startsWith('s3:'))) continue;
      for (const resource of [statement.Resource].flat()) {
        const joined = (resource as any)?.['Fn::Join']?.[1] as unknown[] | undefined;
        const suffix = joined?.at(-1);
        if (typeof suffix !== 'string' || !suffix.startsWith('/')) continue;
        const prefix = suffix.slice(1).replace(/\*$/, '');
        const actions = byPrefix.get(prefix) ?? new Set<string>();
        for (const action of [statement.Action].flat()) actions.add(action);
        byPrefix.set(prefix, actions);
      }
    }
  }
  return byPrefix;
}

describe('elevation models in the stack', () => {
  test('the worker runs long enough for a large DEM, with memory to resample it', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('POST /hazards/elevation-models'),
      Timeout: 900,
      MemorySize: 3008,
    });
  });

  test('the worker reaches only the uploads and the account models; the hazard functions read the models', () => {
    const worker = objectActionsByPrefix(stack.jobs.elevationModelWorker);
    expect([...worker.keys()].sort()).toEqual(['elevation-models/', 'elevation-uploads/']);
    expect([...worker.get('elevation-uploads/')!].sort()).toEqual(['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    const jobs = objectActionsByPrefix(stack.jobs.hazardJobWorker);
    expect([...jobs.get('elevation-models/')!]).toEqual(['s3:GetObject']);
    const api = objectActionsByPrefix(stack.functions.byGroup.hazards);
    expect(api.get('elevation-models/')).toContain('s3:GetObject');
    expect(api.get('elevation-uploads/')).toContain('s3:PutObject');
    // No other function touches them.
    for (const other of [stack.jobs.assetImportWorker, stack.jobs.deliverablesWorker, stack.functions.byGroup.assets]) {
      const prefixes = [...objectActionsByPrefix(other).keys()];
      expect(prefixes.filter((p) => p.startsWith('elevation-'))).toEqual([]);
    }
  });

  test('uploads left unprocessed expire', () => {
    const bucket = Object.values(template.findResources('AWS::S3::Bucket')).find((b: any) => b.Properties.LifecycleConfiguration?.Rules?.some((r: any) => r.Prefix === 'uploads/')) as any;
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: 'elevation-uploads/', Status: 'Enabled' })]));
  });
});
