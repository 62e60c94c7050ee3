/**
 * The local server's resident memory around one large import, as an operator sees it: `npm start`'s
 * program in its own process (embedded emulators included) on a fresh data directory, a GENERATED
 * inventory of BENCH_IMPORT_MEMORY_ROWS rows (default 100,000, inland Hillsborough County) imported
 * through the API and its presigned upload. RSS is read from the kernel: before the import (the
 * server idle after start), the peak (sampled every 250 ms), at the import's end, then every 10 s
 * for a minute. The verdict: RSS a minute after the import within 20 % of the level before it.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importThroughApi, inventoryCsv, residentMb, startLocalServer } from '../test/helpers/local-server';

const ROWS = Number(process.env.BENCH_IMPORT_MEMORY_ROWS ?? 100_000);
const WARM_UP_ROWS = 10;
const SETTLE_MS = 5_000;
const AFTER_MS = 60_000;
const SAMPLE_AFTER_MS = 10_000;
const MAX_GROWTH = 0.2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (value: number) => `${value.toFixed(0)} MB`;
/** Anonymous memory (heaps, buffers) and file-backed pages (mapped files: code, the emulators' table files). */
const kinds = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return `anonymous ${mb(field('RssAnon'))}, file-backed ${mb(field('RssFile'))}`;
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-bench-import-memory-'));
  const server = await startLocalServer(dataDir);
  const pid = server.child.pid!;
  try {
    // A small import first, so the code an import loads once (parsers, workers) is in both figures
    // and the comparison is of what the large import leaves behind.
    const warmUp = await importThroughApi(server, inventoryCsv(WARM_UP_ROWS));
    if (warmUp.status !== 'complete') throw new Error(`the warm-up import ended ${warmUp.status}`);
    await sleep(SETTLE_MS);
    const before = residentMb(pid);
    console.log(`rows: ${ROWS}`);
    console.log(`MALLOC_ARENA_MAX: ${process.env.MALLOC_ARENA_MAX ?? 'unset (the C library\'s default)'}`);
    console.log(`RSS before the import: ${mb(before)} (${kinds(pid)})`);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentMb(pid));
    }, 250);
    const started = Date.now();
    const csv = inventoryCsv(ROWS);
    const record = await importThroughApi(server, csv);
    clearInterval(sampler);
    peak = Math.max(peak, residentMb(pid));
    if (record.status !== 'complete') throw new Error(`the import ended ${record.status}`);
    console.log(`import: complete, ${record.asset_count} assets in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(`RSS peak during the import: ${mb(peak)}`);
    console.log(`RSS at the import's end: ${mb(residentMb(pid))}`);
    let after = 0;
    for (let waited = SAMPLE_AFTER_MS; waited <= AFTER_MS; waited += SAMPLE_AFTER_MS) {
      await sleep(SAMPLE_AFTER_MS);
      after = residentMb(pid);
      console.log(`RSS +${waited / 1000} s: ${mb(after)} (${kinds(pid)})`);
    }
    const growth = after / before - 1;
    const verdict = growth <= MAX_GROWTH ? 'within' : 'NOT within';
    console.log(`after a minute: ${(growth * 100).toFixed(0)} % above the level before, ${verdict} ${MAX_GROWTH * 100} %`);
    if (growth > MAX_GROWTH) process.exitCode = 1;
  } finally {
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
