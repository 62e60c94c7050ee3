import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { zipSync } from 'fflate';
import proj4 from 'proj4';
import { importAssetFile, type ImportOptions } from '../../shared/domain/assets/import-assets';
import type { AssetFileFormat } from '../../shared/domain/assets/formats';
import type { ImportedAsset } from '../../shared/domain/assets/import-rows';
import type { AssetStore, ImportWriter, WriteCounts } from '../../shared/domain/assets/ports';
import { GDL_ALBERS_PROJ4, PRJ, zippedShapefile, type ShapeRecord } from '../fixtures/assets/shapefile-writer';

const DATA = path.join(__dirname, '../../shared/data/assets');
const csvRows = (file: string): Record<string, string>[] => parse(readFileSync(path.join(DATA, file)), { columns: true, bom: true });

/** An in-memory store: records what the import wrote, keyed like the real one (account + asset id). */
class MemoryAssetStore implements Pick<AssetStore, 'importWriter' | 'idKey'> {
  readonly assets = new Map<string, ImportedAsset>();
  calls = 0;
  async idKey(accountId: string): Promise<string> {
    return `key-of-${accountId}`;
  }

  async importWriter(accountId: string): Promise<ImportWriter> {
    const counts: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
    return {
      pending: 0,
      write: async (assets) => {
        this.calls++;
        for (const asset of assets) {
          const key = `${accountId}/${asset.asset_id}`;
          const before = this.assets.get(key);
          if (!before) counts.created++;
          else if (before.content_hash === asset.content_hash) counts.unchanged++;
          else counts.updated++;
          this.assets.set(key, asset);
        }
      },
      finish: async () => counts,
    };
  }
}

/** Parsing tests read statewide sample files: the jurisdiction check is tested on its own below. */
async function runImport(format: AssetFileFormat, data: Buffer | string, store = new MemoryAssetStore(), category?: 'transportation', options: ImportOptions = { outside_jurisdiction: 'accept' }) {
  const bytes = Buffer.from(data);
  const report = await importAssetFile(store as unknown as AssetStore, {
    accountId: 'acct_1', importId: 'imp_test', jurisdictionId: 'county:12087', category, format, options,
    open: () => Readable.from([bytes]), now: new Date('2026-01-15T00:00:00Z'),
  });
  return { report, store };
}

async function expectRefused(format: AssetFileFormat, data: Buffer | string, code: string) {
  const store = new MemoryAssetStore();
  await expect(runImport(format, data, store)).rejects.toMatchObject({ name: 'AssetFileError', code });
  expect(store.calls).toBe(0);
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Assets');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const featureCollection = (features: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'FeatureCollection', ...extra, features });
const pointFeature = (props: Record<string, unknown>, coordinates: unknown) => ({ type: 'Feature', properties: props, geometry: { type: 'Point', coordinates } });

describe('CSV import', () => {
  it('imports the HIFLD hospitals file: every row an asset at its own coordinates', async () => {
    const source = csvRows('fl-hospitals-hifld.csv');
    const { report, store } = await runImport('csv', readFileSync(path.join(DATA, 'fl-hospitals-hifld.csv')));
    expect(report).toMatchObject({ total_rows: 349, asset_count: 349, validation: { accepted: 349, rejected: 0 }, written: { created: 349 } });
    expect(report.categorization.by_category).toEqual({ community_emergency: 349 });
    expect(report.columns).toMatchObject({ name: 'NAME', latitude: 'LATITUDE', longitude: 'LONGITUDE', source_id: 'ID' });
    const first = [...store.assets.values()].find((a) => a.source_id === source[0]!.ID)!;
    expect(first).toMatchObject({ name: source[0]!.NAME, lat: Number(source[0]!.LATITUDE), lon: Number(source[0]!.LONGITUDE), source_type: source[0]!.TYPE });
    expect(first.classification.rule).toMatch(/^hospitals:/);
  });

  it('re-importing the same file writes nothing new (stable ids per source id)', async () => {
    const file = readFileSync(path.join(DATA, 'fl-parks-fgdl-sample.csv'));
    const { store } = await runImport('csv', file);
    const again = await runImport('csv', file, store);
    expect(again.report.written).toEqual({ created: 0, updated: 0, unchanged: csvRows('fl-parks-fgdl-sample.csv').length });
    expect(store.assets.size).toBe(csvRows('fl-parks-fgdl-sample.csv').length);
  });

  it('without an id column, identity is the content: same rows again are the same assets', async () => {
    const file = 'Facility_Name,Facility_Type,Y,X\nLift Station 12,Lift Station,24.56,-81.78\nFire Station 1,Fire,24.55,-81.80\n';
    const { store, report } = await runImport('csv', file);
    expect(report.categorization.by_asset_type).toEqual({ wastewater_treatment_facilities_and_lift_stations: 1, fire_stations: 1 });
    const again = await runImport('csv', file, store);
    expect(again.report.written.unchanged).toBe(2);
  });

  it('maps the columns counties name FACNAME, FACILITYID and FACTYPE without a column_map', async () => {
    const file = 'FACILITYID,FACNAME,FACTYPE,LATITUDE,LONGITUDE\nLS-0012,Lift Station 12,Lift Station,24.56,-81.78\nFS-0001,Fire Station 1,Fire Station,24.55,-81.80\n';
    const { report, store } = await runImport('csv', file);
    expect(report.columns).toMatchObject({ name: 'FACNAME', source_id: 'FACILITYID', type_columns: ['FACTYPE'] });
    expect([...store.assets.values()].map((a) => [a.source_id, a.name, a.source_type]).sort()).toEqual([
      ['FS-0001', 'Fire Station 1', 'Fire Station'],
      ['LS-0012', 'Lift Station 12', 'Lift Station'],
    ]);
    expect(report.categorization.by_asset_type).toEqual({ wastewater_treatment_facilities_and_lift_stations: 1, fire_stations: 1 });
  });

  it('names the crs field when a table holds eastings and northings', async () => {
    const refusal = runImport('csv', 'name,y,x\nA,2800000,560000\nB,2801000,561000\nC,25.7,-80.2\n');
    await expect(refusal).rejects.toMatchObject({ code: 'outside_florida', extra: { projected_rows: 2, field: 'crs' } });
    await expect(refusal).rejects.toThrow(/send the `crs` field/);
  });

  it('rejects bad rows with row number, field and code, and imports the rest', async () => {
    const file = [
      'name,type,latitude,longitude',
      'Good Hospital,Hospital,25.76,-80.19',
      ',Hospital,25.7,-80.2',
      'Bad Number,Hospital,north,-80.2',
      'Swapped,Hospital,-80.2,25.7',
      'Atlanta,Hospital,33.75,-84.39',
      'Too,many,fields,here,oops',
      'Good Hospital,Hospital,25.76,-80.19',
      'Mystery,Widget,25.77,-80.18',
    ].join('\n');
    const { report } = await runImport('csv', file);
    expect(report.validation.accepted).toBe(2);
    expect(report.validation.rejected).toBe(6);
    expect(report.validation.errors.map((e) => [e.row, e.code])).toEqual([
      [3, 'required'], [4, 'invalid_number'], [5, 'coordinate_order'], [6, 'outside_florida'], [7, 'malformed_row'], [8, 'duplicate'],
    ]);
    expect(report.validation.errors[0]).toMatchObject({ field: 'name' });
    expect(report.validation.errors[1]).toMatchObject({ field: 'latitude' });
    expect(report.validation.unclassified_types).toEqual([{ text: 'Widget', count: 1 }]);
    expect(report.categorization).toMatchObject({ unclassified: 1, by_category: { community_emergency: 1, unclassified: 1 } });
  });

  it('applies asset_category to rows the rules cannot place', async () => {
    const { report } = await runImport('csv', 'name,type,lat,lon\nCauseway A,Causeway,24.7,-81.1\nRoad Thing,Widget,24.7,-81.2\n', undefined, 'transportation');
    expect(report.categorization).toMatchObject({ by_category: { transportation: 2 }, by_asset_type: { bridges: 1 }, unclassified: 1 });
  });

  it.each([
    ['empty', '', 'empty_file'],
    ['header only', 'name,lat,lon\n', 'empty_file'],
    ['binary', Buffer.from([0, 1, 2, 3, 0, 255, 10]), 'malformed_csv'],
    ['a zip renamed .csv', Buffer.from(zipSync({ 'a.txt': new Uint8Array([65]) })), 'malformed_csv'],
    ['an unclosed quote', 'name,lat,lon\n"Broken,25.7,-80.2\nOther,25.7,-80.2\n', 'malformed_csv'],
    ['no name column', 'label_x,lat,lon\nA,25.7,-80.2\n', 'missing_name_column'],
    ['no coordinates', 'name,address\nA,1 Main St\n', 'no_geometry'],
    ['latitude and longitude swapped', 'name,lat,lon\nA,-80.19,25.76\nB,-81.8,24.55\n', 'coordinate_order'],
    ['coordinates outside Florida', 'name,lat,lon\nA,40.7,-74.0\nB,25.7,-80.2\nC,34.05,-118.24\n', 'outside_florida'],
    ['projected coordinates in a table', 'name,y,x\nA,2800000,560000\nB,2801000,561000\n', 'outside_florida'],
    ['no valid row', 'name,lat,lon\n,25.7,-80.2\n', 'no_valid_rows'],
  ])('refuses %s as a whole and writes nothing', async (_label, data, code) => {
    await expectRefused('csv', data, code);
  });
});

describe('XLSX import', () => {
  it('imports the first worksheet: header row, numbers, rich text and formula results', async () => {
    const parks = csvRows('fl-parks-fgdl-sample.csv').slice(0, 50);
    const book = await workbook([
      ['NAME', 'TYPE', 'Lat', 'Long', 'GCID'],
      ...parks.map((p) => [p.NAME, p.TYPE, Number(p.Lat), Number(p.Long), p.GCID]),
      ['Rich Text Park', { richText: [{ text: 'Lift ' }, { text: 'Station' }] }, { formula: '24+0.5', result: 24.5 }, -81.5, 'R1'],
    ]);
    const { report, store } = await runImport('xlsx', book);
    expect(report).toMatchObject({ total_rows: 51, asset_count: 51 });
    expect(report.categorization.by_asset_type).toEqual({ parks: 50, wastewater_treatment_facilities_and_lift_stations: 1 });
    const rich = [...store.assets.values()].find((a) => a.source_id === 'R1')!;
    expect(rich).toMatchObject({ lat: 24.5, lon: -81.5, source_type: 'Lift Station' });
    const park = [...store.assets.values()].find((a) => a.source_id === parks[0]!.GCID)!;
    expect(park).toMatchObject({ name: parks[0]!.NAME, lat: Number(parks[0]!.Lat), lon: Number(parks[0]!.Long) });
  });

  it('reports row errors by spreadsheet row number', async () => {
    const book = await workbook([['Name', 'Latitude', 'Longitude'], ['A', 25.7, -80.2], ['B', 'n/a', -80.2]]);
    const { report } = await runImport('xlsx', book);
    expect(report.validation.errors).toEqual([expect.objectContaining({ row: 3, field: 'Latitude', code: 'invalid_number' })]);
  });

  it.each([
    ['empty', Buffer.alloc(0), 'empty_file'],
    ['not a zip (legacy .xls or text)', Buffer.from('Name,Lat\nA,1\n'), 'malformed_xlsx'],
    ['a zip without a workbook', Buffer.from(zipSync({ 'hello.txt': new Uint8Array([104, 105]) })), 'malformed_xlsx'],
  ])('refuses %s', async (_label, data, code) => {
    await expectRefused('xlsx', data, code);
  });

  it('refuses a truncated workbook, one without names and one with swapped coordinates', async () => {
    const good = await workbook([['Name', 'Lat', 'Lon'], ['A', 25.7, -80.2]]);
    await expectRefused('xlsx', good.subarray(0, Math.floor(good.length / 2)), 'malformed_xlsx');
    await expectRefused('xlsx', await workbook([['Thing', 'Lat', 'Lon'], ['A', 25.7, -80.2]]), 'missing_name_column');
    await expectRefused('xlsx', await workbook([['Name', 'Lat', 'Lon'], ['A', -80.2, 25.7]]), 'coordinate_order');
  });
});

describe('GeoJSON import', () => {
  it('imports a FeatureCollection of library outlets (points) and a polygon at its vertex mean', async () => {
    const outlets = csvRows('fl-library-outlets-imls.csv').slice(0, 20);
    const square: [number, number][] = [[-81.8, 24.55], [-81.8, 24.57], [-81.78, 24.57], [-81.78, 24.55], [-81.8, 24.55]];
    const text = featureCollection([
      ...outlets.map((o) => ({ ...pointFeature({ LIBNAME: o.LIBNAME, C_OUT_TY: o.C_OUT_TY }, [Number(o.Long), Number(o.Lat)]), id: o.LIBID })),
      { type: 'Feature', properties: { name: 'Key West Park', type: 'Park' }, geometry: { type: 'Polygon', coordinates: [square] } },
    ]);
    const { report, store } = await runImport('geojson', text);
    expect(report).toMatchObject({ asset_count: 21, categorization: { by_asset_type: { community_centers: 20, parks: 1 } } });
    const first = [...store.assets.values()].find((a) => a.source_id === outlets[0]!.LIBID)!;
    expect(first).toMatchObject({ name: outlets[0]!.LIBNAME, lon: Number(outlets[0]!.Long), lat: Number(outlets[0]!.Lat), geometry_type: 'Point' });
    const park = [...store.assets.values()].find((a) => a.name === 'Key West Park')!;
    expect(park.lon).toBeCloseTo(-81.79, 10);
    expect(park.lat).toBeCloseTo(24.56, 10);
    expect(park.geometry_type).toBe('Polygon');
  });

  it('reprojects a legacy "crs" member naming EPSG:3087', async () => {
    const [x, y] = proj4('EPSG:4326', GDL_ALBERS_PROJ4, [-81.7800, 24.5551]);
    const text = featureCollection([pointFeature({ name: 'Projected' }, [x, y])], { crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3087' } } });
    const { store } = await runImport('geojson', text);
    const asset = [...store.assets.values()][0]!;
    expect(asset.lon).toBeCloseTo(-81.78, 6);
    expect(asset.lat).toBeCloseTo(24.5551, 6);
  });

  it('reports features without geometry and non-features as row errors', async () => {
    const text = featureCollection([pointFeature({ name: 'A' }, [-80.2, 25.7]), { type: 'Feature', properties: { name: 'B' }, geometry: null }, { type: 'Point' }]);
    const { report } = await runImport('geojson', text);
    expect(report.validation.errors.map((e) => [e.row, e.code])).toEqual([[2, 'no_geometry'], [3, 'malformed_row']]);
  });

  it.each([
    ['invalid JSON', '{"type": "FeatureCollection", "features": [', 'malformed_json'],
    ['a bare Feature', JSON.stringify(pointFeature({ name: 'A' }, [-80.2, 25.7])), 'invalid_geojson'],
    ['a collection without features', '{"type": "FeatureCollection"}', 'invalid_geojson'],
    ['an empty collection', featureCollection([]), 'empty_file'],
    ['no geometry at all', featureCollection([{ type: 'Feature', properties: { name: 'A' }, geometry: null }]), 'no_geometry'],
    ['[lat, lon] positions', featureCollection([pointFeature({ name: 'A' }, [25.7, -80.2]), pointFeature({ name: 'B' }, [24.55, -81.8])]), 'coordinate_order'],
    ['positions outside Florida', featureCollection([pointFeature({ name: 'A' }, [-74.0, 40.7])]), 'outside_florida'],
    ['an unknown crs', featureCollection([pointFeature({ name: 'A' }, [1, 2])], { crs: { type: 'name', properties: { name: 'EPSG:99999' } } }), 'unsupported_crs'],
    ['JSON that is not an object', '[1, 2, 3]', 'invalid_geojson'],
  ])('refuses %s', async (_label, data, code) => {
    await expectRefused('geojson', data, code);
  });
});

describe('zipped Shapefile import', () => {
  const schools = csvRows('fl-public-schools-sample.csv').slice(0, 30);
  const fields = [{ name: 'NAME', type: 'C' as const, length: 80 }, { name: 'NCESID', type: 'C' as const, length: 12 }, { name: 'NAICS_DESC', type: 'C' as const, length: 60 }];
  const toAlbers = (lon: number, lat: number) => proj4('EPSG:4326', GDL_ALBERS_PROJ4, [lon, lat]) as [number, number];
  const records: ShapeRecord[] = schools.map((s) => ({
    geometry: { type: 'Point', coordinates: toAlbers(Number(s.Long), Number(s.Lat)) },
    attributes: { NAME: s.NAME!, NCESID: s.NCESID!, NAICS_DESC: s.NAICS_DESC! },
  }));

  it('imports a Florida GDL Albers (EPSG:3087) layer, reprojected to WGS84', async () => {
    const { report, store } = await runImport('shapefile', zippedShapefile({ kind: 'Point', fields, records, prj: PRJ.harnGdlAlbers }));
    expect(report).toMatchObject({ asset_count: 30, categorization: { by_asset_type: { schools: 30 } } });
    for (const s of schools) {
      const asset = [...store.assets.values()].find((a) => a.source_id === s.NCESID)!;
      expect(asset.lon).toBeCloseTo(Number(s.Long), 6);
      expect(asset.lat).toBeCloseTo(Number(s.Lat), 6);
    }
  });

  it('imports a WGS84 layer, and one in a folder of the archive', async () => {
    const wgs = schools.slice(0, 3).map((s) => ({ geometry: { type: 'Point' as const, coordinates: [Number(s.Long), Number(s.Lat)] as [number, number] }, attributes: { NAME: s.NAME!, NCESID: s.NCESID!, NAICS_DESC: s.NAICS_DESC! } }));
    const { report } = await runImport('shapefile', zippedShapefile({ name: 'export/schools', kind: 'Point', fields, records: wgs, prj: PRJ.wgs84 }));
    expect(report.asset_count).toBe(3);
  });

  it.each([
    ['not a zip', () => Buffer.from('PK? no'), 'malformed_zip'],
    ['a damaged zip', () => zippedShapefile({ kind: 'Point', fields, records, prj: PRJ.harnGdlAlbers }).subarray(0, 200), 'malformed_zip'],
    ['a zip without .shp', () => Buffer.from(zipSync({ 'readme.txt': new Uint8Array([65]) })), 'malformed_zip'],
    ['two layers in one zip', () => Buffer.from(zipSync({ 'a.shp': new Uint8Array(100), 'b.shp': new Uint8Array(100) })), 'malformed_zip'],
    ['a .shp without .dbf', () => zippedShapefile({ kind: 'Point', fields, records, prj: PRJ.harnGdlAlbers, omit: ['dbf'] }), 'malformed_shapefile'],
    ['a corrupt .shp', () => Buffer.from(zipSync({ 'a.shp': new Uint8Array(20).fill(7), 'a.dbf': new Uint8Array(40).fill(3) })), 'malformed_shapefile'],
    ['an unreadable .prj', () => zippedShapefile({ kind: 'Point', fields, records, prj: 'PROJCS["broken",' }), 'unsupported_crs'],
    ['projected positions without .prj', () => zippedShapefile({ kind: 'Point', fields, records }), 'outside_florida'],
  ])('refuses %s', async (_label, make, code) => {
    await expectRefused('shapefile', make(), code);
  });
});

describe('asset ids and the synchronous budget', () => {
  const file = 'facility_id,name,type,lat,lon\nKW-1,Lift Station 1,Lift Station,24.55,-81.78\nKW-2,Fire Station 2,Fire Station,24.56,-81.77\n';
  const request = (accountId: string, extra: Partial<Parameters<typeof importAssetFile>[1]> = {}) => ({
    accountId, importId: 'imp_ids', jurisdictionId: 'county:12087', format: 'csv' as const, options: { outside_jurisdiction: 'accept' as const },
    open: () => Readable.from([Buffer.from(file)]), now: new Date('2026-01-15T00:00:00Z'), ...extra,
  });

  it('gives the same row another id in another account, and the same id again in the same account', async () => {
    const store = new MemoryAssetStore();
    await importAssetFile(store as unknown as AssetStore, request('acct_a'));
    await importAssetFile(store as unknown as AssetStore, request('acct_b'));
    const idsOf = (account: string) => [...store.assets.keys()].filter((k) => k.startsWith(`${account}/`)).map((k) => k.split('/')[1]!).sort();
    const [a, b] = [idsOf('acct_a'), idsOf('acct_b')];
    expect(a).toHaveLength(2);
    for (const id of [...a, ...b]) expect(id).toMatch(/^a_[0-9a-f]{24}$/);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    const again = await importAssetFile(store as unknown as AssetStore, request('acct_a'));
    expect(again.written).toEqual({ created: 0, updated: 0, unchanged: 2 });
  });

  it('derives each id as HMAC-SHA256 of the jurisdiction and source id under the account key, for keys of any length', async () => {
    for (const key of ['short', 'f'.repeat(64), 'long-'.repeat(40)]) {
      const store = new MemoryAssetStore();
      store.idKey = async () => key;
      await importAssetFile(store as unknown as AssetStore, request('acct_k'));
      const expected = ['KW-1', 'KW-2'].map((id) => `a_${createHmac('sha256', key).update(`county:12087\nid:facility_id:${id}`).digest('hex').slice(0, 24)}`);
      expect([...store.assets.values()].map((a) => a.asset_id)).toEqual(expected);
    }
  });

  it('defers a file over the inline row budget without writing anything', async () => {
    const store = new MemoryAssetStore();
    const outcome = await importAssetFile(store as unknown as AssetStore, request('acct_a'), { maxRows: 1, maxValidationMs: 60_000 });
    expect(outcome).toEqual({ deferred: expect.stringContaining('more than 1 rows') });
    expect(store.calls).toBe(0);
    const within = await importAssetFile(store as unknown as AssetStore, request('acct_a'), { maxRows: 2, maxValidationMs: 60_000 });
    expect(within).toMatchObject({ report: { asset_count: 2 } });
  });

  it('defers a file that takes longer than the inline validation budget', async () => {
    let t = 0;
    const store = new MemoryAssetStore();
    const outcome = await importAssetFile(store as unknown as AssetStore, request('acct_a', { clock: () => (t += 5000) }), { maxRows: 100, maxValidationMs: 8000 });
    expect(outcome).toEqual({ deferred: expect.stringContaining('8 s') });
    expect(store.calls).toBe(0);
  });

  it('stops at its deadline, and reports written rows only after they are written', async () => {
    const rows = ['name,type,lat,lon', ...Array.from({ length: 1200 }, (_, i) => `Station ${i},Fire Station,24.5,${(-81.7 - i / 10000).toFixed(5)}`)].join('\n');
    const store = new MemoryAssetStore();
    let t = 0;
    const progress: { phase: string; rows_processed: number; writtenThen: number }[] = [];
    await importAssetFile(store as unknown as AssetStore, {
      ...request('acct_p'), open: () => Readable.from([Buffer.from(rows)]), clock: () => (t += 600),
      onProgress: async (p) => { progress.push({ ...p, writtenThen: store.assets.size }); },
    });
    const writing = progress.filter((p) => p.phase === 'writing');
    expect(writing.length).toBeGreaterThan(0);
    for (const p of writing) expect(p.rows_processed).toBeLessThanOrEqual(p.writtenThen);

    const late = importAssetFile(new MemoryAssetStore() as unknown as AssetStore, {
      ...request('acct_p'), open: () => Readable.from([Buffer.from(rows)]), clock: () => (t += 1000), deadline: new Date(t + 50_000),
    });
    await expect(late).rejects.toMatchObject({ name: 'ImportDeadlineError' });
  });
});

describe('safe inventory: jurisdiction, coordinate systems and table layouts', () => {
  const hospitals = csvRows('fl-hospitals-hifld.csv');
  const hospitalsFile = readFileSync(path.join(DATA, 'fl-hospitals-hifld.csv'));
  const inMonroe = hospitals.filter((h) => h.COUNTY === 'MONROE');

  it('rejects rows outside the named county by default, warns or accepts on request', async () => {
    expect(inMonroe.length).toBeGreaterThan(0);
    const rejected = await runImport('csv', hospitalsFile, undefined, undefined, {});
    expect(rejected.report).toMatchObject({
      asset_count: inMonroe.length,
      validation: { rejected: hospitals.length - inMonroe.length, outside_jurisdiction: { mode: 'reject', rows: hospitals.length - inMonroe.length, checked_against: 'Monroe County' } },
    });
    expect(new Set([...rejected.store.assets.values()].map((a) => a.source_id))).toEqual(new Set(inMonroe.map((h) => h.ID)));
    expect(rejected.report.validation.errors.every((e) => e.code === 'outside_jurisdiction')).toBe(true);

    const warned = await runImport('csv', hospitalsFile, undefined, undefined, { outside_jurisdiction: 'warn' });
    expect(warned.report).toMatchObject({ asset_count: hospitals.length, validation: { outside_jurisdiction: { mode: 'warn', rows: hospitals.length - inMonroe.length } } });
    expect(warned.report.validation.warnings).toHaveLength(hospitals.length - inMonroe.length);
    const accepted = await runImport('csv', hospitalsFile, undefined, undefined, { outside_jurisdiction: 'accept' });
    expect(accepted.report).toMatchObject({ asset_count: hospitals.length, validation: { warnings: [], outside_jurisdiction: { rows: 0 } } });
  });

  it('refuses a file whose rows are all in another county, saying so', async () => {
    const store = new MemoryAssetStore();
    await expect(runImport('csv', 'name,type,lat,lon\nCapitol,Government,30.438,-84.281\n', store, undefined, {})).rejects.toMatchObject({ code: 'outside_jurisdiction' });
    expect(store.calls).toBe(0);
  });

  /** Florida State Plane East, US feet, as the EPSG registry (epsg-index) defines it. */
  const stateplaneEast = require('epsg-index/s/2236.json').proj4 as string;
  const miami = hospitals.filter((h) => h.COUNTY === 'MIAMI-DADE').slice(0, 20);
  const toStatePlane = (h: Record<string, string>) => proj4('EPSG:4326', stateplaneEast, [Number(h.LONGITUDE), Number(h.LATITUDE)]) as [number, number];
  const expectAtSource = (store: MemoryAssetStore) => {
    expect(store.assets.size).toBe(miami.length);
    for (const h of miami) {
      const asset = [...store.assets.values()].find((a) => a.source_id === h.ID)!;
      expect(asset.lon).toBeCloseTo(Number(h.LONGITUDE), 6);
      expect(asset.lat).toBeCloseTo(Number(h.LATITUDE), 6);
    }
  };

  it('reads a table in Florida State Plane feet (crs EPSG:2236) from its easting/northing columns', async () => {
    const csv = ['ID,NAME,TYPE,EASTING,NORTHING', ...miami.map((h) => [h.ID, h.NAME, h.TYPE, ...toStatePlane(h).map((v) => v.toFixed(4))].join(','))].join('\n');
    const { store } = await runImport('csv', csv, undefined, undefined, { crs: 2236, outside_jurisdiction: 'accept' });
    expectAtSource(store);
    await expectRefusedWith('csv', csv, { crs: 99999 }, 'unsupported_crs');
  });

  it('reads a zipped Shapefile in State Plane from its ESRI .prj', async () => {
    const zip = zippedShapefile({
      kind: 'Point',
      fields: [{ name: 'NAME', type: 'C', length: 80 }, { name: 'ID', type: 'C', length: 12 }],
      records: miami.map((h) => ({ geometry: { type: 'Point', coordinates: toStatePlane(h) }, attributes: { NAME: h.NAME!, ID: h.ID! } })),
      prj: PRJ.stateplaneFloridaEastFeet,
    });
    expectAtSource((await runImport('shapefile', zip)).store);
  });

  it('takes a title row above the header, a column_map and a detected delimiter', async () => {
    const rows = [['Anlage', 'Art', 'Breite', 'Laenge'], ['Lift Station 12', 'Lift Station', '24.556', '-81.783'], ['Fire Station 3', 'Fire Station', '24.557', '-81.771']];
    const columnMap = { Anlage: 'name', Art: 'asset_type', Breite: 'latitude', Laenge: 'longitude' } as const;
    for (const delimiter of [';', '\t', '|', ',']) {
      const csv = [`Key West critical facilities${delimiter}exported 2026-01-01`, ...rows.map((r) => r.join(delimiter))].join('\n');
      const { report } = await runImport('csv', csv, undefined, undefined, { header_row: 2, column_map: columnMap });
      expect([delimiter, report.asset_count, report.categorization.by_asset_type]).toEqual([delimiter, 2, { wastewater_treatment_facilities_and_lift_stations: 1, fire_stations: 1 }]);
      expect(report.columns).toMatchObject({ name: 'Anlage', latitude: 'Breite', longitude: 'Laenge', type_columns: ['Art'] });
    }
    const xlsx = await workbook([['Key West critical facilities'], ...rows.map((r, i) => (i === 0 ? r : [r[0], r[1], Number(r[2]), Number(r[3])]))]);
    expect((await runImport('xlsx', xlsx, undefined, undefined, { header_row: 2, column_map: columnMap })).report.asset_count).toBe(2);
    await expectRefusedWith('csv', rows.map((r) => r.join(',')).join('\n'), { column_map: { Missing: 'name' } }, 'unknown_column');
  });

  // Every other column is kept as an attribute of every asset, its name included: a name as long as
  // a header cell can be would not fit one stored item (DynamoDB: 400 KB), so the file is refused.
  it('keeps a column named with 128 characters and refuses the file for one of 129, naming it', async () => {
    const header = (extra: string) => `NAME,TYPE,LATITUDE,LONGITUDE,${extra}\nFire Station 3,Fire Station,24.557,-81.771,kept\n`;
    const { report, store } = await runImport('csv', header('N'.repeat(128)));
    expect(report.asset_count).toBe(1);
    expect([...store.assets.values()][0]!.attributes).toEqual({ ['N'.repeat(128)]: 'kept' });
    const refused = runImport('csv', header('N'.repeat(250_000)), new MemoryAssetStore(), undefined, { outside_jurisdiction: 'accept' });
    await expect(refused).rejects.toMatchObject({ code: 'column_name_too_long', extra: { column: 5, length: 250_000 } });
    await expect(refused).rejects.toThrow('Column 5 has a name of 250,000 characters; column names are at most 128. Is the first row a header?');
    await expectRefusedWith('csv', header('N'.repeat(129)), { outside_jurisdiction: 'accept' }, 'column_name_too_long');
    const first = runImport('csv', `${'F'.repeat(129)},NAME,TYPE,LATITUDE,LONGITUDE\nx,Fire Station 3,Fire Station,24.557,-81.771\n`);
    await expect(first).rejects.toMatchObject({ code: 'column_name_too_long', extra: { column: 1, length: 129 } });
    const xlsx = await workbook([['NAME', 'TYPE', 'LATITUDE', 'LONGITUDE', 'N'.repeat(129)], ['Fire Station 3', 'Fire Station', 24.557, -81.771, 'x']]);
    await expectRefusedWith('xlsx', xlsx, { outside_jurisdiction: 'accept' }, 'column_name_too_long');
  });

  it('refuses GeoJSON whose features carry a property name over 128 characters, in any feature', async () => {
    const fine = pointFeature({ name: 'A', type: 'Park' }, [-81.78, 24.55]);
    const long = pointFeature({ name: 'B', ['p'.repeat(129)]: 1 }, [-81.78, 24.56]);
    await expectRefusedWith('geojson', featureCollection([fine, long]), { outside_jurisdiction: 'accept' }, 'column_name_too_long');
  });
});

async function expectRefusedWith(format: AssetFileFormat, data: Buffer | string, options: ImportOptions, code: string) {
  const store = new MemoryAssetStore();
  await expect(runImport(format, data, store, undefined, options)).rejects.toMatchObject({ name: 'AssetFileError', code });
  expect(store.calls).toBe(0);
}
