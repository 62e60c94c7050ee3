/**
 * Asset import throughput on a GENERATED 100,000-row inventory (synthetic names and positions in
 * Florida, realistic asset-type texts): raw csv-parse vs the import pipeline (parse + validate +
 * classify) on the same CSV, the same pipeline on the same rows as XLSX (exceljs streaming
 * reader), and end to end through a presigned upload into the local API (S3 emulator → import →
 * DynamoDB emulator). Peak RSS is sampled per phase. Every phase has a fixed size and ends by itself.
 */
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { openAssetFile, type AssetFileFormat } from '../shared/domain/assets/formats';
import { AssetRowProcessor } from '../shared/domain/assets/import-rows';
import { startBenchApp } from './lib/local-app';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const E2E_ROWS = Number(process.env.BENCH_IMPORT_E2E_ROWS ?? 100_000);
const TYPES = ['Lift Station', 'GENERAL ACUTE CARE', 'Fire Station', 'Elementary School', 'Stormwater Pump Station', 'NEIGHBORHOOD PARK / PLAYGROUND', 'Water Treatment Plant', 'Bridge', 'Sheriff Office', 'Community Center', 'Electric Substation', 'Widget Depot'];

function row(i: number): (string | number)[] {
  // A deterministic spread over the peninsula (no randomness: runs are comparable).
  const lat = 25.2 + ((i * 7919) % 55_000) / 10_000;
  const lon = -82.4 + ((i * 104_729) % 21_000) / 10_000;
  return [`FAC-${i}`, `Facility ${i}`, TYPES[i % TYPES.length]!, Number(lat.toFixed(6)), Number(lon.toFixed(6)), `${i} Main St`, i % 3 ? 'County' : 'City'];
}
const HEADER = ['FACILITY_ID', 'NAME', 'TYPE', 'LATITUDE', 'LONGITUDE', 'ADDRESS', 'OWNER'];

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

async function pipeline(format: AssetFileFormat, file: string): Promise<number> {
  const opened = await openAssetFile(format, () => createReadStream(file));
  const processor = new AssetRowProcessor({ jurisdictionId: 'county:12057', idKey: 'bench-asset-id-key', hasGeometry: false });
  for await (const record of opened.records) processor.process(record);
  return processor.finish().asset_count;
}

const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');

async function endToEnd(file: string) {
  const app = await startBenchApp();
  try {
    const key = app.keys.enterprise;
    const { result, seconds, peakRssMb } = await measured(async () => {
      const start = await fetch(`${app.baseUrl}/assets/imports`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ filename: 'bench.csv', jurisdiction: 'Hillsborough County' }) });
      const started = await start.json() as { import_id: string; upload_url: string };
      const put = await fetch(started.upload_url, { method: 'PUT', body: readFileSync(file) });
      if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const status = await (await fetch(`${app.baseUrl}/assets/imports/${started.import_id}`, { headers: { 'X-API-Key': key } })).json() as { status: string; asset_count: number | null; error: unknown };
        if (status.status === 'complete') return status.asset_count ?? 0;
        if (status.status === 'failed') throw new Error(`import failed: ${JSON.stringify(status.error)}`);
      }
    });
    return { result, seconds, peakRssMb };
  } finally {
    await app.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vac-import-bench-'));
  try {
    const csv = path.join(dir, 'assets.csv');
    const xlsx = path.join(dir, 'assets.xlsx');
    await writeCsv(csv, ROWS);
    await writeXlsx(xlsx, ROWS);
    console.log(`Generated ${ROWS.toLocaleString('en-US')} synthetic rows: CSV ${(statSync(csv).size / 1048576).toFixed(1)} MB, XLSX ${(statSync(xlsx).size / 1048576).toFixed(1)} MB`);

    // Warm up both code paths on a small prefix of the work (JIT, module loading).
    await rawCsvParse(csv).then(() => pipeline('csv', csv));

    const raw = await measured(() => rawCsvParse(csv));
    const csvPipeline = await measured(() => pipeline('csv', csv));
    const xlsxPipeline = await measured(() => pipeline('xlsx', xlsx));
    console.log(`raw csv-parse (stream, columns)                : ${perSecond(raw.result, raw.seconds)} rows/s (${raw.seconds.toFixed(2)} s)`);
    console.log(`CSV  parse + validate + classify (import path) : ${perSecond(csvPipeline.result, csvPipeline.seconds)} rows/s (${csvPipeline.seconds.toFixed(2)} s), peak RSS ${csvPipeline.peakRssMb.toFixed(0)} MB`);
    console.log(`XLSX parse + validate + classify (import path) : ${perSecond(xlsxPipeline.result, xlsxPipeline.seconds)} rows/s (${xlsxPipeline.seconds.toFixed(2)} s), peak RSS ${xlsxPipeline.peakRssMb.toFixed(0)} MB`);
    console.log(`ratio raw csv-parse / CSV import pipeline      : ${(csvPipeline.seconds / raw.seconds).toFixed(2)}× (the pipeline takes that many times as long)`);
    if (csvPipeline.result !== ROWS || xlsxPipeline.result !== ROWS) throw new Error(`expected ${ROWS} assets, got ${csvPipeline.result} / ${xlsxPipeline.result}`);

    const e2eFile = E2E_ROWS === ROWS ? csv : path.join(dir, 'e2e.csv');
    if (e2eFile !== csv) await writeCsv(e2eFile, E2E_ROWS);
    const e2e = await endToEnd(e2eFile);
    console.log(`end to end (presigned upload → S3 emulator → validate pass + write pass → DynamoDB emulator): ${e2e.result.toLocaleString('en-US')} assets in ${e2e.seconds.toFixed(1)} s = ${perSecond(e2e.result, e2e.seconds)} rows/s, peak RSS ${e2e.peakRssMb.toFixed(0)} MB (includes the in-process emulators)`);
    const memory = process.memoryUsage();
    console.log(`process maxRSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; now: heap ${(memory.heapUsed / 1048576).toFixed(0)} MB, external ${(memory.external / 1048576).toFixed(0)} MB, array buffers ${(memory.arrayBuffers / 1048576).toFixed(0)} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
