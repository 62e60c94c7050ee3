import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { readShapefileZip } from '../../shared/domain/assets/formats/shapefile';
import { readXlsx } from '../../shared/domain/assets/formats/xlsx';
import { budgetedInflater } from '../../shared/domain/assets/formats/zip-budget';
import { deflatedRepeat, honestEntry, zipArchive } from '../fixtures/assets/zip-bomb';
import { zippedShapefile, PRJ } from '../fixtures/assets/shapefile-writer';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

/** Runs `read` while an interval counts turns of the event loop: a frozen loop counts none. */
async function withTicker<T>(read: () => Promise<T>): Promise<{ outcome: T | Error; ticks: number }> {
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 1);
  try {
    const outcome = await read().catch((error: Error) => error);
    return { outcome, ticks };
  } finally {
    clearInterval(ticker);
  }
}

async function drain(records: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of records) count++;
  return count;
}

async function smallWorkbook(rows = 20): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Assets');
  ws.addRow(['name', 'type', 'lat', 'lon']);
  for (let i = 0; i < rows; i++) ws.addRow([`Lift Station ${i}`, 'Lift Station', 24.55, -81.78]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('zipped Shapefile bombs', () => {
  const bomb = deflatedRepeat('\0', 2 * GiB);

  it('stops an entry whose header understates its size (100 bytes declared, 2 GiB real) at the declared size', async () => {
    const zip = zipArchive([{ name: 'assets.shp', deflated: bomb.deflated, declaredSize: 100 }, honestEntry('assets.dbf', 'x')]);
    await expect(readShapefileZip(zip)).rejects.toMatchObject({ code: 'malformed_zip', message: expect.stringContaining('declares (100 bytes)') });

    const inflater = budgetedInflater({ totalBytes: GiB });
    await expect(inflater.push(zip)).rejects.toMatchObject({ code: 'malformed_zip' });
    // One zlib output chunk past the declared size at most, never the 2 GiB.
    expect(inflater.inflatedBytes).toBeLessThanOrEqual(100 + 64 * 1024);
  });

  it('stops an entry that declares no size at the archive budget, without freezing the event loop', async () => {
    const zip = zipArchive([{ name: 'assets.shp', deflated: bomb.deflated }]);
    const { outcome, ticks } = await withTicker(() => readShapefileZip(zip));
    expect(outcome).toMatchObject({ code: 'file_too_large' });
    // Other work ran while the archive was being inflated.
    expect(ticks).toBeGreaterThan(0);
  });

  it('still reads an honest zipped Shapefile', async () => {
    const zip = zippedShapefile({ kind: 'Point', fields: [{ name: 'NAME', type: 'C', length: 20 }], records: [{ geometry: { type: 'Point', coordinates: [-81.7, 24.6] }, attributes: { NAME: 'Plant' } }], prj: PRJ.wgs84 });
    const file = await readShapefileZip(zip);
    expect(file.features).toHaveLength(1);
  });
});

describe('XLSX budgets', () => {
  it('refuses a workbook whose shared strings inflate to 2 GiB, with file_too_large, without caching them', async () => {
    const entries = unzipSync(await smallWorkbook());
    const strings = deflatedRepeat('<si><t>bomb</t></si>', 2 * GiB, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">');
    const zip = zipArchive(Object.entries(entries).filter(([name]) => !name.endsWith('/')).map(([name, data]) => (name === 'xl/sharedStrings.xml'
      ? { name, deflated: strings.deflated, declaredSize: strings.size }
      : honestEntry(name, Buffer.from(data)))));
    expect(zip.length).toBeLessThan(5 * MiB);
    const before = process.memoryUsage().rss;
    const { outcome, ticks } = await withTicker(() => drain(readXlsx(Readable.from([zip]))));
    expect(outcome).toMatchObject({ code: 'file_too_large', message: expect.stringContaining('xl/sharedStrings.xml') });
    expect(ticks).toBeGreaterThan(0);
    // The shared strings budget is 64 MiB: far from the 2.4 GB the unguarded reader reached.
    expect(process.memoryUsage().rss - before).toBeLessThan(600 * MiB);
  });

  it('answers a truncated workbook (its first 1.6 KB) with malformed_xlsx', async () => {
    const truncated = (await smallWorkbook()).subarray(0, 1600);
    await expect(drain(readXlsx(Readable.from([truncated])))).rejects.toMatchObject({ code: 'malformed_xlsx' });
  });

  it('ends a read whose input stalls after 1.6 KB instead of waiting forever', async () => {
    const head = (await smallWorkbook()).subarray(0, 1600);
    // The first bytes arrive, then nothing, and the stream never ends (a dead upload or connection).
    const stalled = new Readable({ read() {} });
    stalled.push(head);
    await expect(drain(readXlsx(stalled, { idleMs: 200, endGraceMs: 100 }))).rejects.toMatchObject({ code: 'malformed_xlsx', message: expect.stringContaining('stopped arriving') });
  });

  it('reads every row of an honest workbook under the budget', async () => {
    expect(await drain(readXlsx(Readable.from([await smallWorkbook(500)])))).toBe(500);
  });
});
