/**
 * Runs the benchmarks: every `bench/*.bench.ts` in turn, each in its own process so one cannot
 * skew the next. `npm run bench -- gateway import` runs only those.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const SUFFIX = '.bench.ts';
const available = readdirSync(__dirname).filter((file) => file.endsWith(SUFFIX)).map((file) => file.slice(0, -SUFFIX.length)).sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

const failed: string[] = [];
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n=== bench: ${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, `${name}${SUFFIX}`)], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
