import type { FunctionName } from '../../lib/app-function';
import { FUNCTION_GROUPS } from '../../shared/routes/types';
import { buildFunctionBundle, type FunctionBundle } from './bundle-build';

const KB = 1024;

/** The budgets: every API function under 700 KB, except hazards and assets (1 MB) and the background importer (2.5 MB). */
const TARGET: Partial<Record<FunctionName, number>> = { hazards: 1024 * KB, assets: 1024 * KB, 'asset-import-worker': 2560 * KB };
const DEFAULT_TARGET = 700 * KB;

/**
 * Functions still over their target, each with a ceiling just above its measured size so it cannot
 * grow unnoticed. An entry must go once its function meets the target (the test says so). None is
 * over its target now.
 */
const OVER_TARGET_CEILING: Partial<Record<FunctionName, number>> = {};

/** Only the functions that read uploaded files may carry the file-format libraries. */
const FILE_IMPORTERS: ReadonlySet<FunctionName> = new Set(['assets', 'asset-import-worker']);
const FILE_FORMAT_PACKAGES = ['exceljs', 'shapefile', 'proj4'];

const CHECKED: FunctionName[] = [...FUNCTION_GROUPS, 'authorizer', 'bearer-authorizer', 'asset-import-worker'];

describe('function bundles, built as the stack builds them', () => {
  const bundles = new Map<FunctionName, FunctionBundle | Error>();

  beforeAll(async () => {
    // One at a time: the machine is shared and esbuild already uses every core.
    for (const name of CHECKED) bundles.set(name, await buildFunctionBundle(name).catch((error: Error) => error));
  }, 120_000);

  const built = (name: FunctionName): FunctionBundle => {
    const bundle = bundles.get(name);
    if (!(bundle && 'bytes' in bundle)) throw new Error(`${name} does not build: ${String(bundle)}`);
    return bundle;
  };

  it.each(CHECKED)('%s stays within its budget', (name) => {
    const { bytes } = built(name);
    const target = TARGET[name] ?? DEFAULT_TARGET;
    const ceiling = OVER_TARGET_CEILING[name];
    if (ceiling === undefined) {
      expect(bytes).toBeLessThan(target);
    } else {
      expect({ name, meetsTargetNow: bytes < target }).toEqual({ name, meetsTargetNow: false });
      expect(bytes).toBeLessThan(ceiling);
    }
  });

  it.each(CHECKED.filter((name) => !FILE_IMPORTERS.has(name)))('%s carries no file-format library', (name) => {
    const present = FILE_FORMAT_PACKAGES.filter((pkg) => built(name).packages.has(pkg));
    expect(present).toEqual([]);
  });

  // sql.js finds its WebAssembly beside its own script: bundled, it looks beside the bundle, where
  // there is none, and a GeoPackage cannot be opened. Functions that read one install it (nodeModules).
  it.each(CHECKED)('%s bundles no package that reads its own files at run time', (name) => {
    expect(built(name).packages.has('sql.js')).toBe(false);
  });

  // The API functions read the bearer authorizer's verdict; only the authorizer verifies tokens.
  it.each(CHECKED)('%s carries the token verifier only if it verifies tokens', (name) => {
    expect(built(name).packages.has('aws-jwt-verify')).toBe(name === 'bearer-authorizer');
  });

  // Only docs builds the OpenAPI document; elsewhere `.openapi()` is a no-op (shared/schemas/zod.ts).
  it.each(CHECKED)('%s carries the OpenAPI extension only if it documents the API', (name) => {
    expect(built(name).packages.has('@asteasolutions/zod-to-openapi')).toBe(name === 'docs');
  });
});
