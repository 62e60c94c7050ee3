/**
 * The local server's resident memory around one large import, as an operator sees it: `npm start`'s
 * program on a fresh data directory (its API process and its emulators' process, each read), a GENERATED
 * inventory of BENCH_IMPORT_MEMORY_ROWS rows (default 100,000, inland Hillsborough County) imported
 * through the API and its presigned upload. RSS is read from the kernel: before the import (the
 * server idle after start), the peak (sampled every 250 ms), at the import's end, then every 10 s
 * for a minute. The verdict: RSS a minute after the import within 20 % of the level before it, for
 * the API process (the bound), and said as well for the emulators' process and for both together.
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

/** The two processes of `npm start`, as the verdicts name them. */
interface Processes { api: number; emulators: number }
const both = (pids: Processes) => ({ api: residentMb(pids.api), emulators: residentMb(pids.emulators) });
const figures = (pids: Processes) => {
  const rss = both(pids);
  return `API ${mb(rss.api)} (${kinds(pids.api)}); emulators ${mb(rss.emulators)} (${kinds(pids.emulators)}); together ${mb(rss.api + rss.emulators)}`;
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-bench-import-memory-'));
  const server = await startLocalServer(dataDir);
  const pids: Processes = { api: server.child.pid!, emulators: server.emulatorsPid };
  try {
    // A small import first, so the code an import loads once (parsers, workers) is in both figures
    // and the comparison is of what the large import leaves behind.
    const warmUp = await importThroughApi(server, inventoryCsv(WARM_UP_ROWS));
    if (warmUp.status !== 'complete') throw new Error(`the warm-up import ended ${warmUp.status}`);
    await sleep(SETTLE_MS);
    const before = both(pids);
    console.log(`rows: ${ROWS}`);
    console.log(`MALLOC_ARENA_MAX: ${process.env.MALLOC_ARENA_MAX ?? 'unset (the C library\'s default)'}`);
    console.log('processes: the API (gateway, handlers, job workers; each import in a short-lived process of its own) and the emulators (DynamoDB, S3, SQS)');
    console.log(`RSS before the import: ${figures(pids)}`);
    const peak = { ...before };
    const samplePeak = () => {
      const now = both(pids);
      peak.api = Math.max(peak.api, now.api);
      peak.emulators = Math.max(peak.emulators, now.emulators);
    };
    const sampler = setInterval(samplePeak, 250);
    const started = Date.now();
    const csv = inventoryCsv(ROWS);
    const record = await importThroughApi(server, csv);
    clearInterval(sampler);
    samplePeak();
    if (record.status !== 'complete') throw new Error(`the import ended ${record.status}`);
    console.log(`import: complete, ${record.asset_count} assets in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(`RSS peak during the import: API ${mb(peak.api)}; emulators ${mb(peak.emulators)}`);
    console.log(`RSS at the import's end: ${figures(pids)}`);
    let after = before;
    for (let waited = SAMPLE_AFTER_MS; waited <= AFTER_MS; waited += SAMPLE_AFTER_MS) {
      await sleep(SAMPLE_AFTER_MS);
      after = both(pids);
      console.log(`RSS +${waited / 1000} s: ${figures(pids)}`);
    }
    const verdict = (name: string, from: number, to: number) => {
      const growth = to / from - 1;
      console.log(`after a minute, ${name}: ${(growth * 100).toFixed(0)} % above the level before (${mb(from)} → ${mb(to)}), ${growth <= MAX_GROWTH ? 'within' : 'NOT within'} ${MAX_GROWTH * 100} %`);
      return growth <= MAX_GROWTH;
    };
    const held = [
      verdict('the API process (the bound)', before.api, after.api),
      verdict('the emulators\' process', before.emulators, after.emulators),
      verdict('both together', before.api + before.emulators, after.api + after.emulators),
    ];
    if (held.includes(false)) process.exitCode = 1;
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
