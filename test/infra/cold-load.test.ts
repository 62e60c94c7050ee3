import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FunctionName } from '../../lib/app-function';
import { PROJECT_ROOT } from '../../lib/app-function';
import { FUNCTION_GROUPS, type FunctionGroup } from '../../shared/routes/types';

/**
 * Packages that most requests of an API function do not need, so no function loads one when its
 * handler module loads: each is loaded on first use (an SDK client package costs about 100 ms of
 * CPU at a cold start, the logger and the file-format libraries up to tens of ms; bench/bundles.bench.ts
 * measures the load). The logger is needed by the requests that write a line, which most do not.
 */
const LOADED_ON_FIRST_USE = [
  '@aws-sdk/client-api-gateway', '@aws-sdk/client-cognito-identity-provider', '@aws-sdk/client-dynamodb', '@aws-sdk/client-kms',
  '@aws-sdk/client-s3', '@aws-sdk/client-sqs', '@aws-sdk/lib-dynamodb', '@aws-sdk/s3-request-presigner',
  '@aws-lambda-powertools/logger', '@aws-lambda-powertools/tracer', 'aws-xray-sdk-core',
  '@mapbox/shp-write', '@neaps/tide-predictor', '@resvg/resvg-wasm', 'exceljs', 'fflate', 'geotiff', 'ipaddr.js', 'lerc', 'pdfkit',
  'proj4', 'shapefile', 'sql.js', 'zstddec',
];

/** Node's own modules that only some requests need (a COG read, a webhook URL resolved): about 10 ms at load. */
const BUILTINS_LOADED_ON_FIRST_USE = ['http', 'https', 'dns', 'dns/promises', '_http_client', 'tls'];

const CHECKED: FunctionName[] = [...FUNCTION_GROUPS, 'authorizer', 'bearer-authorizer'];

interface Loaded {
  packages: string[];
  /** Node's own modules (`process.moduleLoadList`). */
  builtins: string[];
  /** Zod schemas constructed (counted by zod's global post-processor hook). */
  schemas: number;
}

/**
 * The packages and Node modules a fresh Node process has loaded once the function's handler module
 * has loaded, as the bundle runs it: without the OpenAPI extension (`OPENAPI_METADATA` is compiled
 * to 'off' in every function but docs, see lib/app-function.ts).
 */
async function loadedBy(name: FunctionName): Promise<Loaded> {
  return load(path.join(PROJECT_ROOT, 'functions', name, 'handler.ts'), name === 'docs' ? 'on' : 'off');
}

async function load(file: string, openApiMetadata: 'on' | 'off'): Promise<Loaded> {
  const script = `
    let schemas = 0;
    globalThis.__zod_globalConfig = { postProcessor: () => { schemas += 1; } };
    const before = new Set(Object.keys(require.cache));
    const builtinsBefore = new Set(process.moduleLoadList);
    require(${JSON.stringify(file)});
    const loaded = Object.keys(require.cache).filter((file) => !before.has(file))
      .map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file)?.[1]).filter(Boolean);
    const builtins = process.moduleLoadList.filter((entry) => !builtinsBefore.has(entry) && entry.startsWith('NativeModule '))
      .map((entry) => entry.slice('NativeModule '.length));
    process.stdout.write(JSON.stringify({ packages: [...new Set(loaded)], builtins, schemas }));`;
  const env = { ...process.env, NODE_OPTIONS: '', OPENAPI_METADATA: openApiMetadata };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { cwd: PROJECT_ROOT, env, encoding: 'utf8' });
  return JSON.parse(stdout) as Loaded;
}

describe('what a function loads at a cold start, before its first request', () => {
  const loaded = new Map<FunctionName, Loaded>();

  beforeAll(async () => {
    // Two at a time: each load compiles the function's TypeScript.
    for (let i = 0; i < CHECKED.length; i += 2) {
      const pair = CHECKED.slice(i, i + 2);
      const lists = await Promise.all(pair.map(loadedBy));
      pair.forEach((name, j) => loaded.set(name, lists[j]!));
    }
  }, 300_000);

  it.each(CHECKED)('%s loads no package that it needs only on some requests', (name) => {
    expect({ name, loaded: loaded.get(name)!.packages.filter((pkg) => LOADED_ON_FIRST_USE.includes(pkg)) }).toEqual({ name, loaded: [] });
  });

  // The bearer authorizer is left out: every first request it verifies fetches the pool's keys over https.
  it.each([...FUNCTION_GROUPS])('%s loads no Node network module before a request needs one', (name) => {
    expect({ name, loaded: loaded.get(name)!.builtins.filter((id) => BUILTINS_LOADED_ON_FIRST_USE.includes(id)) }).toEqual({ name, loaded: [] });
  });

  // The check sees what it claims to: a handler module does load packages (the schemas' zod at least).
  it.each(CHECKED)('%s is seen loading its packages', (name) => {
    expect(loaded.get(name)!.packages).toContain('zod');
    expect(loaded.get(name)!.builtins.length).toBeGreaterThan(0);
  });

  /**
   * A request validates against its own route's schemas, built with its first request: at load a
   * function builds only the schemas of its settings (and grants, the check of its ranking rubric's
   * data), each counted here by loading its module alone.
   */
  it('no API function builds its routes\' schemas at load', async () => {
    const alone = async (module: string) => (await load(path.join(PROJECT_ROOT, module), 'off')).schemas;
    const [settings, signerSettings, rubricCheck] = await Promise.all(['shared/config.ts', 'shared/adapters/credential-signer.ts', 'shared/domain/grants/ranking-rubric.ts'].map(alone));
    expect(settings).toBeGreaterThan(0);
    const expected = (name: FunctionGroup) => settings! + (name === 'grants' ? rubricCheck! : 0) + (name === 'v1-training' ? signerSettings! : 0);
    expect(FUNCTION_GROUPS.map((name) => [name, loaded.get(name)!.schemas])).toEqual(FUNCTION_GROUPS.map((name) => [name, expected(name)]));
  }, 60_000);
});
