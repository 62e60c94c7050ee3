import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import proj4 from 'proj4';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { ImportDeadlineError, importAssetFile, type ImportRequest } from '../../shared/domain/assets/import-assets';
import type { ImportedAsset } from '../../shared/domain/assets/import-rows';
import type { AssetStore, ImportRecord, ImportWriter } from '../../shared/domain/assets/ports';

/**
 * The import's two passes as a job runs them: the inline budget at its exact edges, the deadline,
 * progress once a second of an injected clock and never ahead of the writes, write batches of 500,
 * and a table's `crs`.
 */
const csv = (rows: number, at = (i: number) => [-81.78 + i * 1e-5, 24.55]) =>
  `name,type,lon,lat\n${Array.from({ length: rows }, (_, i) => `Station ${i},Lift Station,${at(i)[0]},${at(i)[1]}`).join('\n')}\n`;

/** A writer that records its batches and reports `pending` assets as not yet written. */
class RecordingStore {
  readonly batches: number[] = [];
  pending = 0;
  async idKey(): Promise<string> {
    return 'key';
  }

  async importWriter(): Promise<ImportWriter> {
    const store = this;
    return {
      get pending() {
        return store.pending;
      },
      write: async (assets: ImportedAsset[]) => {
        store.batches.push(assets.length);
      },
      finish: async () => ({ created: store.batches.reduce((a, b) => a + b, 0), updated: 0, unchanged: 0 }),
    };
  }
}

function request(text: string, extra: Partial<ImportRequest> = {}): ImportRequest {
  return {
    accountId: 'acct_1', importId: 'imp_1', jurisdictionId: 'county:12087', format: 'csv', options: { outside_jurisdiction: 'accept' },
    open: () => Readable.from([Buffer.from(text)]), now: new Date('2026-01-15T00:00:00Z'), ...extra,
  };
}

/** A clock that moves `step` ms every time it is read. */
const ticking = (step: number) => {
  let now = 0;
  return () => (now += step);
};

describe('the inline budget', () => {
  it('a file of exactly maxRows rows is imported inline; one row more goes to the background with nothing written', async () => {
    const store = new RecordingStore();
    const inline = await importAssetFile(store as unknown as AssetStore, request(csv(10)), { maxRows: 10, maxValidationMs: 60_000 });
    expect('report' in inline && inline.report.asset_count).toBe(10);
    const deferring = new RecordingStore();
    expect(await importAssetFile(deferring as unknown as AssetStore, request(csv(11)), { maxRows: 10, maxValidationMs: 60_000 })).toEqual({ deferred: 'The file has more than 10 rows' });
    expect(deferring.batches).toEqual([]);
  });

  it('stops reading a long file soon after its row limit, rather than reading it to the end', async () => {
    let pulled = 0;
    const lines = function* () {
      yield Buffer.from('name,type,lon,lat\n');
      for (let i = 0; i < 20_000; i++) {
        pulled++;
        yield Buffer.from(`Station ${i},Lift Station,-81.78,24.55\n`);
      }
    };
    const outcome = await importAssetFile(new RecordingStore() as unknown as AssetStore, request('', { open: () => Readable.from(lines()) }), { maxRows: 10, maxValidationMs: 60_000 });
    expect(outcome).toEqual({ deferred: 'The file has more than 10 rows' });
    // What the stream buffers ahead of the parser, not the file.
    expect(pulled).toBeLessThan(2_000);
  });

  it('a validation that takes exactly maxValidationMs stays inline', async () => {
    const outcome = await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(5), { clock: () => 7_000 }), { maxRows: 100, maxValidationMs: 0 });
    expect('report' in outcome && outcome.report.asset_count).toBe(5);
  });

  it('a validation slower than maxValidationMs goes to the background, saying how long in seconds', async () => {
    // The budget reads the clock once a row; at 2 ms a reading, 2 s pass by row 1,000 of 1,500.
    const store = new RecordingStore();
    const outcome = await importAssetFile(store as unknown as AssetStore, request(csv(1_500), { clock: ticking(2) }), { maxRows: 100_000, maxValidationMs: 2_000 });
    expect(outcome).toEqual({ deferred: 'The file takes more than 2 s to validate' });
    const quick = await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(1_500), { clock: ticking(2) }), { maxRows: 100_000, maxValidationMs: 1_000_000 });
    expect('report' in quick).toBe(true);
  });
});

describe('a job\'s import', () => {
  it('writes in batches of 500', async () => {
    const store = new RecordingStore();
    const report = await importAssetFile(store as unknown as AssetStore, request(csv(1_001)));
    expect(store.batches).toEqual([500, 500, 1]);
    expect(report.written).toEqual({ created: 1_001, updated: 0, unchanged: 0 });
    // No empty batch after the last full one.
    const even = new RecordingStore();
    await importAssetFile(even as unknown as AssetStore, request(csv(1_000)));
    expect(even.batches).toEqual([500, 500]);
  });

  it('writes the first of repeated rows only, the write pass told the duplicates by the validation pass', async () => {
    const written: string[] = [];
    const store = {
      idKey: async () => 'key',
      importWriter: async (): Promise<ImportWriter> => ({
        pending: 0,
        write: async (assets: ImportedAsset[]) => {
          written.push(...assets.map((a) => `${a.name} ${a.source_id}`));
        },
        finish: async () => ({ created: written.length, updated: 0, unchanged: 0 }),
      }),
    };
    // Row 3 repeats row 2's id (row 5's differs in case: another id); row 6 repeats row 4 by name, type and position.
    const text = 'name,type,lon,lat,id\nA,Lift Station,-81.78,24.55,X1\nB,Lift Station,-81.77,24.55,X1\nC,Fire Station,-81.76,24.56,\n'
      + 'D,Lift Station,-81.75,24.55,x1\nC,Fire Station,-81.76,24.56,\nE,Lift Station,-81.74,24.55,X2\n';
    const report = await importAssetFile(store as unknown as AssetStore, request(text));
    expect(written).toEqual(['A X1', 'C null', 'D x1', 'E X2']);
    expect(report.validation.errors.map((e) => [e.row, e.code])).toEqual([[3, 'duplicate'], [6, 'duplicate']]);
    expect(report.asset_count).toBe(4);
  });

  it('stops past its deadline, saying after how many rows', async () => {
    const error = await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(100), { clock: ticking(10), deadline: new Date(500) })).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportDeadlineError);
    expect((error as Error).message).toMatch(/^The import ran out of its time budget after \d+ rows\. Split the file, or start it again/);
  });

  it("is not past its deadline at the deadline's very millisecond", async () => {
    const report = await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(20), { clock: () => 500, deadline: new Date(500) }));
    expect(report.written.created).toBe(20);
  });

  it('reports validation progress at most once a second, rows counted up', async () => {
    const seen: ImportRecord['progress'][] = [];
    // 100 ms a clock reading: a report every few rows.
    await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(300), { clock: ticking(100), onProgress: async (p) => void seen.push(p) }));
    const validating = seen.filter((p) => p.phase === 'validating');
    expect(validating.length).toBeGreaterThan(10);
    // Even at two clock readings a row, 300 rows span 60 s of this clock: at most one report a second.
    expect(validating.length).toBeLessThanOrEqual(60);
    expect(validating.every((p, i) => i === 0 || p.rows_processed > validating[i - 1]!.rows_processed)).toBe(true);
  });

  it('reports progress once a whole second has passed, not only after more', async () => {
    const seen: ImportRecord['progress'][] = [];
    // Every reading is 1 s after the one before: each row finds a whole second since the last report.
    await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(5), { clock: ticking(1_000), onProgress: async (p) => void seen.push(p) }));
    expect(seen.filter((p) => p.phase === 'validating').map((p) => p.rows_processed)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reports write progress after a batch once a second has passed, never counting rows still being written', async () => {
    let now = 0;
    const store = new RecordingStore();
    store.pending = 200;
    const write = store.importWriter.bind(store);
    // Each batch written takes 1.5 s of the clock.
    store.importWriter = async () => {
      const writer = await write();
      return { get pending() { return writer.pending; }, write: async (assets) => { now += 1_500; await writer.write(assets); }, finish: () => writer.finish() };
    };
    const seen: ImportRecord['progress'][] = [];
    await importAssetFile(store as unknown as AssetStore, request(csv(1_200), { clock: () => now, onProgress: async (p) => void seen.push(p) }));
    // No time passes while validating; after the batches of 500 and 1,000 rows, 200 are still pending.
    expect(seen).toEqual([{ phase: 'writing', rows_processed: 300 }, { phase: 'writing', rows_processed: 800 }]);
  });

  it('reports no progress within the same second', async () => {
    const seen: unknown[] = [];
    // Two full write batches, and not a report after either.
    await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(1_200), { clock: () => 0, onProgress: async (p) => void seen.push(p) }));
    expect(seen).toEqual([]);
  });
});

describe('a table\'s coordinate system', () => {
  it('reads x/y columns in the EPSG code given', async () => {
    // Florida West (ftUS), EPSG:2237, as published.
    const west = '+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +units=us-ft +no_defs';
    const [x, y] = proj4('EPSG:4326', west, [-82.4572, 27.9506]) as [number, number];
    const store = new RecordingStore();
    const written: ImportedAsset[] = [];
    store.importWriter = async () => ({ pending: 0, write: async (assets) => void written.push(...assets), finish: async () => ({ created: written.length, updated: 0, unchanged: 0 }) });
    await importAssetFile(store as unknown as AssetStore, request(`name,type,x,y\nTampa station,Fire Station,${x},${y}\n`, { jurisdictionId: 'county:12057', options: { crs: 2237 } }));
    expect(written[0]!.lon).toBeCloseTo(-82.4572, 7);
    expect(written[0]!.lat).toBeCloseTo(27.9506, 7);
  });

  it('reads x/y columns of a workbook in the EPSG code given, as of a CSV file', async () => {
    // Florida East (ftUS), EPSG:2236, as published.
    const east = '+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +units=us-ft +no_defs';
    const [x, y] = proj4('EPSG:4326', east, [-80.1918, 25.7617]) as [number, number];
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Assets');
    sheet.addRow(['name', 'type', 'x', 'y']);
    sheet.addRow(['Miami station', 'Fire Station', x, y]);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const written: ImportedAsset[] = [];
    const store = new RecordingStore();
    store.importWriter = async () => ({ pending: 0, write: async (assets) => void written.push(...assets), finish: async () => ({ created: written.length, updated: 0, unchanged: 0 }) });
    await importAssetFile(store as unknown as AssetStore, request('', { format: 'xlsx', open: () => Readable.from([file]), jurisdictionId: 'county:12086', options: { crs: 2236 } }));
    expect(written[0]!.lon).toBeCloseTo(-80.1918, 7);
    expect(written[0]!.lat).toBeCloseTo(25.7617, 7);
  });

  it('refuses an EPSG code it does not know, listing the ones it does', async () => {
    const error = await importAssetFile(new RecordingStore() as unknown as AssetStore, request(csv(1), { options: { crs: 2000 } })).then(() => undefined, (e: unknown) => e) as AssetFileError;
    expect(error.code).toBe('unsupported_crs');
    expect(error.message).toMatch(/^EPSG:2000 is not a coordinate system the importer knows\. Known: EPSG:3087 \(NAD83\(HARN\) \/ Florida GDL Albers\), /);
  });

  it('ignores crs for a GeoJSON file, whose positions are WGS84', async () => {
    const geojson = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'A', type: 'Lift Station' }, geometry: { type: 'Point', coordinates: [-81.78, 24.55] } }] });
    const report = await importAssetFile(new RecordingStore() as unknown as AssetStore, request(geojson, { format: 'geojson', options: { crs: 2000, outside_jurisdiction: 'accept' } }));
    expect(report.asset_count).toBe(1);
  });
});
