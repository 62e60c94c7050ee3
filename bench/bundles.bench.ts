/**
 * Function bundle sizes and module load times as deployed: each function built with the stack's
 * esbuild settings and loaded in a fresh Node process with the NODE_OPTIONS the stack gives it
 * (the API functions run without `--enable-source-maps`, see `nodeOptionsOf`). Load time is
 * reported minus the load of a 1 KB baseline module measured in the same run, in total and with
 * the runtime-provided packages the bundle requires already loaded (the AWS SDK from the runtime,
 * Powertools and the X-Ray SDK from the layer): what remains is the project's own code. Each
 * figure is the median of RUNS processes, as wall-clock and as CPU time of the loading process
 * (user + system); on a machine shared with other work the CPU time moves much less than the
 * wall-clock, so the verdict is on CPU time: of the whole load, AWS SDK and layer included, as a
 * cold start pays it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FunctionName } from '../lib/app-function';
import { nodeOptionsOf, PROJECT_ROOT, RUNTIME_PROVIDED_MODULES } from '../lib/app-function';
import { FUNCTION_GROUPS } from '../shared/routes/types';
import { buildFunctionBundle } from '../test/infra/bundle-build';
import { medianOf } from './lib/report';

const RUNS = 7;
const LOAD_BUDGET_MS = 80;
// Inside the project so the bundles resolve the AWS SDK from node_modules, as the runtime provides it.
const OUT_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'bundle-bench');
const FUNCTIONS: FunctionName[] = [...FUNCTION_GROUPS, 'authorizer', 'bearer-authorizer', 'asset-import-worker', 'hazard-job-worker', 'webhook-dispatcher'];

interface LoadTime {
  wallMs: number;
  cpuMs: number;
}

/** Time to `require` the file in a fresh process (process start-up and `preload` excluded). */
function loadMs(file: string, nodeOptions: string | undefined, preload: string[] = []): LoadTime {
  const script = `${preload.map((name) => `require(${JSON.stringify(name)});`).join('')}const c=process.cpuUsage(),t=process.hrtime.bigint();require(${JSON.stringify(file)});const w=Number(process.hrtime.bigint()-t)/1e6,u=process.cpuUsage(c);process.stdout.write(w+' '+(u.user+u.system)/1e3)`;
  const args = [...(nodeOptions ? nodeOptions.split(' ') : []), '-e', script];
  const runs = Array.from({ length: RUNS }, () => execFileSync(process.execPath, args, { cwd: OUT_DIR, env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' }).split(' ').map(Number));
  return { wallMs: medianOf(runs.map(([wall]) => wall!)), cpuMs: medianOf(runs.map(([, cpu]) => cpu!)) };
}

const minus = (a: LoadTime, b: LoadTime): LoadTime => ({ wallMs: a.wallMs - b.wallMs, cpuMs: a.cpuMs - b.cpuMs });
const shown = ({ wallMs, cpuMs }: LoadTime) => `${wallMs.toFixed(1)} (${cpuMs.toFixed(1)})`;

/** The runtime-provided packages a bundle requires (externals matching RUNTIME_PROVIDED_MODULES). */
function runtimePackagesOf(file: string): string[] {
  const provided = (name: string) => RUNTIME_PROVIDED_MODULES.some((pattern) => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
  return [...new Set([...readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!).filter(provided))];
}

async function main(): Promise<void> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const baselineFile = path.join(OUT_DIR, 'baseline.js');
  writeFileSync(baselineFile, `"use strict";module.exports.handler=async()=>(${JSON.stringify('x'.repeat(1000))});\n`);
  const baseline = { plain: loadMs(baselineFile, undefined), maps: loadMs(baselineFile, '--enable-source-maps') };
  console.log(`baseline 1 KB module, ms wall (CPU): ${shown(baseline.plain)}; with source maps ${shown(baseline.maps)}`);
  console.log(`${'function'.padEnd(22)} ${'KB'.padStart(6)} ${'maps'.padStart(5)} ${'load ms (CPU)'.padStart(16)} ${'own code ms (CPU)'.padStart(18)}  load CPU within ${LOAD_BUDGET_MS} ms`);
  for (const name of FUNCTIONS) {
    const file = path.join(OUT_DIR, `${name}.js`);
    const bundle = await buildFunctionBundle(name, file).catch((error: Error) => error);
    if (bundle instanceof Error) {
      console.log(`${name.padEnd(22)} does not build: ${bundle.message.split('\n')[0]}`);
      continue;
    }
    const nodeOptions = nodeOptionsOf(name);
    const base = nodeOptions ? baseline.maps : baseline.plain;
    const total = minus(loadMs(file, nodeOptions), base);
    const own = minus(loadMs(file, nodeOptions, runtimePackagesOf(file)), base);
    console.log(`${name.padEnd(22)} ${(bundle.bytes / 1024).toFixed(0).padStart(6)} ${(nodeOptions ? 'yes' : 'no').padStart(5)} ${shown(total).padStart(16)} ${shown(own).padStart(18)}  ${total.cpuMs < LOAD_BUDGET_MS ? 'yes' : 'no'}`);
  }
  rmSync(OUT_DIR, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
