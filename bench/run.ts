/**
 * Runs the benchmarks: every `bench/*.bench.ts` in turn, each in its own process so one cannot
 * skew the next. `npm run bench -- gateway import` runs only those. Each run's output is also
 * written to `bench/results/<name>.txt` under a header naming the commit, the time and the machine:
 * the figures are a generated record of the last run, not prose to keep up to date.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

const SUFFIX = '.bench.ts';
const available = readdirSync(__dirname)
  .filter((file) => file.endsWith(SUFFIX))
  .map((file) => file.slice(0, -SUFFIX.length))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

const RESULTS = path.join(__dirname, 'results');

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
}

/** Runs one benchmark, showing its output as it comes and keeping it; resolves with its exit status. */
function runBench(name: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, `${name}${SUFFIX}`)], {
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.on('close', (status) => resolve({ status, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const failed: string[] = [];
  for (const name of wanted.length > 0 ? wanted : available) {
    console.log(`\n=== bench: ${name}`);
    const started = new Date();
    const load = loadavg()[0]!.toFixed(1);
    const { status, output } = await runBench(name);
    if (status !== 0) {
      failed.push(name);
      continue;
    }
    const header = `# bench ${name}: commit ${commit()}, started ${started.toISOString()}, ${cpus().length} cores, load average ${load} at start\n\n`;
    writeFileSync(path.join(RESULTS, `${name}.txt`), header + output);
  }
  if (failed.length > 0) {
    console.error(`\nFailed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

void main();
