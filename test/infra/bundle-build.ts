import { build, type Metafile } from 'esbuild';
import { GROUP_SETTINGS } from '../../lib/api-functions';
import { BUNDLE_ALIASES, BUNDLE_SETTINGS, bundleDefinesOf, handlerEntry, PROJECT_ROOT, RUNTIME_PROVIDED_MODULES, type FunctionName } from '../../lib/app-function';
import type { FunctionGroup } from '../../shared/routes/types';

export interface FunctionBundle {
  name: FunctionName;
  bytes: number;
  /** Package name → bytes it contributes to the bundle. */
  packages: Map<string, number>;
}

/** The externals as the stack sets them: the runtime's AWS SDK plus the packages installed beside the bundle. */
export function externalsOf(name: FunctionName): string[] {
  const nodeModules = name in GROUP_SETTINGS ? GROUP_SETTINGS[name as FunctionGroup].nodeModules ?? [] : [];
  return [...RUNTIME_PROVIDED_MODULES, ...nodeModules];
}

function packageOf(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match ? match[1]! : '(project)';
}

/**
 * Builds one function as the stack does: in memory, or into `outfile` with its source map beside
 * it (the deployed form, for load-time measurements).
 */
export async function buildFunctionBundle(name: FunctionName, outfile?: string): Promise<FunctionBundle> {
  const result = await build({
    entryPoints: [handlerEntry(name)],
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: 'node',
    minify: BUNDLE_SETTINGS.minify,
    target: BUNDLE_SETTINGS.target,
    format: BUNDLE_SETTINGS.format,
    define: bundleDefinesOf(name),
    alias: { ...BUNDLE_ALIASES },
    external: externalsOf(name),
    metafile: true,
    ...(outfile ? { outfile, sourcemap: true, write: true } : { write: false }),
    logLevel: 'silent',
  });
  const [output] = Object.entries((result.metafile as Metafile).outputs).filter(([file]) => !file.endsWith('.map')).map(([, value]) => value);
  const packages = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output!.inputs)) {
    const key = packageOf(input);
    packages.set(key, (packages.get(key) ?? 0) + bytesInOutput);
  }
  return { name, bytes: output!.bytes, packages };
}
