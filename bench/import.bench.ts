/**
 * Asset import on a GENERATED inventory (synthetic names and positions inside Hillsborough County,
 * realistic asset-type texts), every figure next to its anchor measured in the same run:
 * - CPU: raw csv-parse vs the validation pass (parse + validate + classify, jurisdiction check
 *   included) on the same CSV; the same pass on the same rows as XLSX; the write pass's own CPU
 *   (assets built and hashed).
 * - End to end as the import worker runs it (file streamed from the S3 emulator, validation pass,
 *   write pass into the DynamoDB emulator, progress on the import record) with 15 ms held before
 *   every DynamoDB request, as a region answers: seconds, DynamoDB calls per 1,000 rows, peak RSS
 *   of the worker. Each size runs in its own process, with the emulators in yet another, so RSS is
 *   the worker's alone. The anchor is the database itself taking BatchWriteItem calls of
 *   import-sized items, 8 in flight, with the same latency. Then the same with the write sink
 *   (`lib/dynamo-write-sink.ts`) in front of the emulator: the asset writes are answered at once,
 *   as by a database that keeps up, so the figure is the import's own pace.
 * - The emulator's ceiling: the DynamoDB emulator alone in memory, in its own process, no latency,
 *   32 calls in flight (`lib/dynalite-memory-host.ts`), the most any import against it can reach.
 * - Memory: both passes with the writes discarded, rows handled → RSS, each size in its own process.
 * Sizes: BENCH_IMPORT_ROWS (CPU, default 100,000); memory and end to end 10,000 and 100,000, plus
 * 1,000,000 with BENCH_IMPORT_MILLION=1 (many minutes end to end on the emulator); with the write
 * sink always 10,000, 100,000 and 1,000,000. Every phase has a fixed size and ends by itself.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { openAssetFile, type AssetFileFormat } from '../shared/domain/assets/formats';
import { AssetRowProcessor } from '../shared/domain/assets/import-rows';
import { jurisdictionArea } from '../shared/domain/assets/jurisdiction-area';
import { dynamo, s3 } from '../shared/adapters/aws-clients';
import { DynamoAssetStore } from '../shared/adapters/asset-store';
import { DynamoImportStore, S3UploadReader } from '../shared/adapters/import-store';
import { importAssetFile } from '../shared/domain/assets/import-assets';
import type { AssetStore, ImportWriter } from '../shared/domain/assets/ports';
import { requiredSetting } from '../shared/config';
import { instrumentDynamo } from './lib/dynamo-calls';
import { medianOf } from './lib/report';
import { startHost } from './lib/host-process';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const E2E_SIZES = [10_000, 100_000, ...(process.env.BENCH_IMPORT_MILLION === '1' ? [1_000_000] : [])];
const LATENCY_MS = 15;
const ANCHOR_ITEMS = 10_000;
const CEILING_ITEMS = 100_000;
const JURISDICTION = { id: 'county:12057', name: 'Hillsborough County' };
const TYPES = ['Lift Station', 'GENERAL ACUTE CARE', 'Fire Station', 'Elementary School', 'Stormwater Pump Station', 'NEIGHBORHOOD PARK / PLAYGROUND', 'Water Treatment Plant', 'Bridge', 'Sheriff Office', 'Community Center', 'Electric Substation', 'Widget Depot'];
const HEADER = ['FACILITY_ID', 'NAME', 'TYPE', 'LATITUDE', 'LONGITUDE', 'ADDRESS', 'OWNER'];

function row(i: number): (string | number)[] {
  // A deterministic spread over inland Hillsborough County (no randomness: runs are comparable).
  const lat = 27.8 + ((i * 7919) % 30_000) / 100_000;
  const lon = -82.4 + ((i * 104_729) % 30_000) / 100_000;
  return [`FAC-${i}`, `Facility ${i}`, TYPES[i % TYPES.length]!, Number(lat.toFixed(6)), Number(lon.toFixed(6)), `${i} Main St`, i % 3 ? 'County' : 'City'];
}

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${HEADER.join(',')}\n`);
  for (let i = 0; i < rows; i++) {
    if (!out.write(`${row(i).join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function writeXlsx(file: string, rows: number): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('Assets');
  sheet.addRow(HEADER).commit();
  for (let i = 0; i < rows; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await workbook.commit();
}

/** Runs `work`, sampling RSS every 20 ms; returns seconds and the peak RSS in MB. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const start = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - start) / 1000, peakRssMb: Math.max(peak, process.memoryUsage().rss) / 1048576 };
  } finally {
    clearInterval(timer);
  }
}

async function rawCsvParse(file: string): Promise<number> {
  let rows = 0;
  for await (const _record of createReadStream(file).pipe(parse({ columns: true, bom: true }))) rows++;
  return rows;
}

/** One pass of the import over the file: `check` as the validation pass, `process` as the write pass (minus the writes). */
async function importPass(format: AssetFileFormat, file: string, pass: 'check' | 'process'): Promise<number> {
  const opened = await openAssetFile(format, () => createReadStream(file));
  const processor = new AssetRowProcessor({
    jurisdictionId: JURISDICTION.id, idKey: 'bench-asset-id-key', hasGeometry: false, headers: opened.headers, area: jurisdictionArea(JURISDICTION.id),
  });
  for await (const record of opened.records) processor[pass](record);
  return processor.finish().asset_count;
}

const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');

/**
 * Both passes over `rows` rows with the writes discarded, in this (child) process: what the
 * worker itself holds as a file grows (the DynamoDB side is bounded by the calls in flight).
 * Prints one JSON line of rows handled → RSS.
 */
async function memory(rows: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vac-import-mem-'));
  try {
    const file = path.join(dir, 'assets.csv');
    await writeCsv(file, rows);
    const discard: ImportWriter = { pending: 0, write: async () => undefined, finish: async () => ({ created: 0, updated: 0, unchanged: 0 }) };
    const store = { idKey: async () => 'bench-asset-id-key', importWriter: async () => discard } as unknown as AssetStore;
    const rss: { rows: number; rssMb: number }[] = [];
    const { result, seconds, peakRssMb } = await measured(async () => (await importAssetFile(store, {
      accountId: 'acct_bench', importId: 'imp_bench', jurisdictionId: JURISDICTION.id, format: 'csv', now: new Date(),
      open: () => createReadStream(file),
      onProgress: async (progress) => {
        rss.push({ rows: progress.phase === 'writing' ? rows + progress.rows_processed : progress.rows_processed, rssMb: process.memoryUsage().rss / 1048576 });
      },
    })).asset_count);
    console.log(JSON.stringify({ rows, assets: result, seconds, peakRssMb, rss }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where the asset writes go: the DynamoDB emulator, or the write sink in front of it (BatchWriteItem
 * answered at once and its items dropped, every other call to the emulator).
 */
type Database = 'emulator' | 'sink';

/**
 * One import of `rows` rows, run here as the worker runs it (validation pass and write pass
 * streaming the file from the S3 emulator, progress recorded on the import about once a second),
 * against the emulators in another process; prints one JSON line.
 */
async function endToEnd(rows: number, database: Database): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vac-import-e2e-'));
  const host = await startHost('emulator-host.ts', database === 'sink' ? ['--discard-batch-writes'] : []);
  try {
    Object.assign(process.env, host.env);
    const file = path.join(dir, 'assets.csv');
    await writeCsv(file, rows);
    const calls = instrumentDynamo(dynamo(), { latencyMs: LATENCY_MS, only: importCall });
    const anchor = await databaseAnchor(ANCHOR_ITEMS, 8);
    const accountId = 'acct_bench_import';
    const importId = `imp_bench${rows}`;
    const key = `uploads/${accountId}/${importId}/assets.csv`;
    await s3().send(new PutObjectCommand({ Bucket: requiredSetting('BUCKET_NAME'), Key: key, Body: createReadStream(file), ContentLength: statSync(file).size }));
    const imports = new DynamoImportStore();
    const now = new Date();
    await imports.create({
      import_id: importId, account_id: accountId, status: 'processing', mode: 'upload', filename: 'assets.csv', format: 'csv', jurisdiction: JURISDICTION,
      asset_category: null, object_key: key, progress: { phase: 'validating', rows_processed: 0 }, report: null, error: null,
      created_at: now.toISOString(), updated_at: now.toISOString(), upload_expires_at: null, lease: { owner: 'bench', expires_at: new Date(now.getTime() + 60_000).toISOString(), attempt: 1 },
    });
    calls.reset();
    const rss: { rows: number; rssMb: number }[] = [];
    const { result, seconds, peakRssMb } = await measured(async () => {
      const report = await importAssetFile(new DynamoAssetStore(), {
        accountId, importId, jurisdictionId: JURISDICTION.id, format: 'csv', now,
        open: () => new S3UploadReader().open(key),
        onProgress: async (progress) => {
          rss.push({ rows: progress.phase === 'writing' ? rows + progress.rows_processed : progress.rows_processed, rssMb: process.memoryUsage().rss / 1048576 });
          await imports.progress(accountId, importId, 'bench', progress, new Date(), 60_000);
        },
      });
      await imports.finish(accountId, importId, { report }, new Date(), 'bench');
      return report.asset_count;
    });
    console.log(JSON.stringify({ rows, assets: result, seconds, peakRssMb, calls: Object.fromEntries(calls.byOperation), anchor, rss }));
  } finally {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The import's own requests: its record (claim, progress, finish), the account's id key and asset
 * count, the jurisdiction's hashes and the asset writes. The bench's status polls (reads of the
 * import record) and the gateway's key checks are left out.
 */
function importCall(input: unknown): boolean {
  // Batch calls (writes, and the reads of a small import's keys) are the import's alone; serialising
  // one here to look inside would slow the import down.
  if (typeof input === 'object' && input !== null && 'RequestItems' in input) return true;
  const text = JSON.stringify(input);
  const poll = text.includes('ASSETIMPORT#') && typeof input === 'object' && input !== null && !('UpdateExpression' in input);
  return !poll && /ASSET(#|S#|COUNT#|IDKEY|IMPORT#)/.test(text);
}

/** The database alone: BatchWriteItem calls of import-sized items, `inFlight` at a time, through the shared client. */
async function databaseAnchor(items: number, inFlight: number): Promise<{ items: number; seconds: number }> {
  const table = requiredSetting('TABLE_NAME');
  const item = (i: number) => ({
    pk: 'ACCOUNT#bench_anchor', sk: `ASSET#a_${i}`, gsi1pk: 'ASSETS#bench_anchor#county:12057', gsi1sk: `community_emergency#a_${i}`, gsi2pk: 'ASSETS#bench_anchor#county:12057#not_assessed', gsi2sk: `not_assessed#a_${i}`,
    entity: 'asset', asset_id: `a_${i}`, name: `Facility ${i}`, category: 'community_emergency', asset_type: 'fire_station', source_type: 'Fire Station',
    classification: { asset_type: 'fire_station', category: 'community_emergency', rule: 'fire_station:\\bfire\\b', matched_field: 'TYPE', matched_text: 'Fire Station', ruleset_version: '1' },
    lon: -82.3, lat: 27.9, geometry_type: 'Point', source_id: `FAC-${i}`, address: `${i} Main St`, owner: 'County', attributes: {}, content_hash: '0123456789abcdef0123456789abcdef',
    vulnerability_level: 'not_assessed', impact_timeline: 'not_assessed', vulnerability_history: [], version: 1, created_at: '2026-01-01T00:00:00.000Z',
  });
  const start = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < items) {
      const first = next;
      next += 25;
      await dynamo().send(new BatchWriteCommand({ RequestItems: { [table]: Array.from({ length: 25 }, (_, k) => ({ PutRequest: { Item: item(first + k) } })) } }));
    }
  }));
  return { items, seconds: (performance.now() - start) / 1000 };
}

/**
 * The emulator at its fastest: in memory, alone in its process, no latency held, 32 calls in flight,
 * nothing else running. Its rate bounds any import against the emulator from above; prints one JSON line.
 */
async function emulatorCeiling(items: number): Promise<void> {
  const host = await startHost('dynalite-memory-host.ts');
  try {
    Object.assign(process.env, host.env);
    await databaseAnchor(2_500, 32); // warm-up
    const { seconds } = await databaseAnchor(items, 32);
    console.log(JSON.stringify({ rows: items, seconds }));
  } finally {
    await host.stop();
  }
}

interface EndToEnd {
  rows: number;
  assets: number;
  seconds: number;
  peakRssMb: number;
  calls: Record<string, number>;
  anchor: { items: number; seconds: number };
  rss: { rows: number; rssMb: number }[];
}

/** Runs one measurement (`mode`) in a process of its own. */
function inChild<T>(mode: Mode, rows: number): T {
  const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, mode, String(rows)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('{"rows"'));
  if (child.status !== 0 || !line) throw new Error(`${mode} run of ${rows} rows failed: ${child.stderr.slice(-2000)}`);
  return JSON.parse(line) as T;
}

/** A few of the samples, first and last included. */
function rssSamples(rss: { rows: number; rssMb: number }[]): string {
  const step = Math.max(1, Math.floor(rss.length / 6));
  return rss.filter((_, i) => i % step === 0 || i === rss.length - 1).map((s) => `${s.rows.toLocaleString('en-US')} → ${s.rssMb.toFixed(0)} MB`).join(', ');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vac-import-bench-'));
  try {
    const csv = path.join(dir, 'assets.csv');
    const xlsx = path.join(dir, 'assets.xlsx');
    await writeCsv(csv, ROWS);
    await writeXlsx(xlsx, ROWS);
    console.log(`Generated ${ROWS.toLocaleString('en-US')} synthetic rows: CSV ${(statSync(csv).size / 1048576).toFixed(1)} MB, XLSX ${(statSync(xlsx).size / 1048576).toFixed(1)} MB`);

    // Warm up both code paths (JIT, module loading), then alternate them so load on the machine hits both alike.
    await rawCsvParse(csv).then(() => importPass('csv', csv, 'check'));
    const raw: number[] = [];
    const validation: number[] = [];
    let validationRss = 0;
    for (let round = 0; round < 3; round++) {
      const r = await measured(() => rawCsvParse(csv));
      const v = await measured(() => importPass('csv', csv, 'check'));
      if (r.result !== ROWS || v.result !== ROWS) throw new Error(`expected ${ROWS} rows, got ${r.result} / ${v.result}`);
      raw.push(r.seconds);
      validation.push(v.seconds);
      validationRss = Math.max(validationRss, v.peakRssMb);
    }
    const writeCpu = await measured(() => importPass('csv', csv, 'process'));
    const xlsxPass = await measured(() => importPass('xlsx', xlsx, 'check'));
    const [rawS, validationS] = [medianOf(raw), medianOf(validation)];
    console.log(`raw csv-parse (stream, columns)                         : ${perSecond(ROWS, rawS)} rows/s (median of 3: ${raw.map((s) => s.toFixed(2)).join(', ')} s)`);
    console.log(`CSV validation pass (parse + validate + classify + area): ${perSecond(ROWS, validationS)} rows/s (median of 3: ${validation.map((s) => s.toFixed(2)).join(', ')} s), peak RSS ${validationRss.toFixed(0)} MB`);
    console.log(`ratio validation pass / raw csv-parse (rows/s)          : ${(rawS / validationS).toFixed(2)} (rounds ${raw.map((r, i) => (r / validation[i]!).toFixed(2)).join(', ')})`);
    console.log(`CSV write pass CPU (assets built and hashed, no writes) : ${perSecond(ROWS, writeCpu.seconds)} rows/s (${writeCpu.seconds.toFixed(2)} s)`);
    console.log(`XLSX validation pass (exceljs streaming reader)         : ${perSecond(ROWS, xlsxPass.seconds)} rows/s (${xlsxPass.seconds.toFixed(2)} s), peak RSS ${xlsxPass.peakRssMb.toFixed(0)} MB`);

    console.log('\nMemory of both passes (writes discarded), each size in its own process: rows handled (validation + write pass) → RSS');
    for (const rows of E2E_SIZES) {
      const run = inChild<{ rows: number; seconds: number; peakRssMb: number; rss: { rows: number; rssMb: number }[] }>('memory', rows);
      console.log(`${rows.toLocaleString('en-US').padStart(9)} rows: ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(0)} MB; ${rssSamples(run.rss)}`);
    }

    const ceiling = inChild<{ rows: number; seconds: number }>('ceiling', CEILING_ITEMS);
    const ceilingRate = ceiling.rows / ceiling.seconds;
    console.log(`\nDynamoDB emulator at its fastest (in memory, alone in its process, no latency, 32 BatchWriteItem calls in flight): ${ceiling.rows.toLocaleString('en-US')} items in ${ceiling.seconds.toFixed(1)} s = ${Math.round(ceilingRate).toLocaleString('en-US')} items/s, with no import work at all`);

    const targets: { mode: 'e2e' | 'e2e-sink'; title: string; sizes: number[] }[] = [
      { mode: 'e2e', title: 'DynamoDB emulator', sizes: E2E_SIZES },
      // Without the emulator's pace a million rows take minutes, not most of an hour: always run.
      { mode: 'e2e-sink', title: 'write sink in front of the DynamoDB emulator (asset writes answered at once and dropped)', sizes: [10_000, 100_000, 1_000_000] },
    ];
    for (const target of targets) {
      console.log(`\nEnd to end as the worker runs it, ${LATENCY_MS} ms held before every DynamoDB request (S3 emulator → validation pass + write pass → ${target.title}; emulators in another process):`);
      for (const rows of target.sizes) {
        const run = inChild<EndToEnd>(target.mode, rows);
        const total = Object.values(run.calls).reduce((sum, n) => sum + n, 0);
        const anchorRate = run.anchor.items / run.anchor.seconds;
        console.log(`${rows.toLocaleString('en-US').padStart(9)} rows: ${run.assets.toLocaleString('en-US')} assets in ${run.seconds.toFixed(1)} s = ${perSecond(run.assets, run.seconds)} rows/s; database alone ${Math.round(anchorRate).toLocaleString('en-US')} items/s (${run.anchor.items.toLocaleString('en-US')} items in ${run.anchor.seconds.toFixed(1)} s), import/database ${(run.assets / run.seconds / anchorRate).toFixed(2)}; peak RSS ${run.peakRssMb.toFixed(0)} MB`);
        console.log(`           DynamoDB calls ${total.toLocaleString('en-US')} = ${((total * 1000) / rows).toFixed(1)} per 1,000 rows (${Object.entries(run.calls).map(([op, n]) => `${op} ${n}`).join(', ')})`);
        console.log(`           rows handled (both passes) → RSS: ${rssSamples(run.rss)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Mode = 'e2e' | 'e2e-sink' | 'memory' | 'ceiling';

const [mode, size] = process.argv.slice(2);
const modes: Record<Mode, () => Promise<void>> = {
  e2e: () => endToEnd(Number(size), 'emulator'),
  'e2e-sink': () => endToEnd(Number(size), 'sink'),
  memory: () => memory(Number(size)),
  ceiling: () => emulatorCeiling(Number(size)),
};
(mode && mode in modes ? modes[mode as Mode]() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
