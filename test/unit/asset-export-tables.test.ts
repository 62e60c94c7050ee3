import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { formatOfFilename, requireFormat } from '../../shared/domain/assets/file-formats';
import { assetsToCsv, assetsToXlsx, assetView, assetWithHistoryView } from '../../shared/domain/assets/export';
import type { StoredAsset } from '../../shared/domain/assets/ports';

/** Upload formats told from file names, and the inventory tables read back with their own readers. */
describe('formats from file names', () => {
  it.each([
    ['assets.csv', 'csv'], ['ASSETS.CSV', 'csv'], ['export.txt', 'csv'], ['assets.xlsx', 'xlsx'], ['Assets.XLSX', 'xlsx'],
    ['layer.geojson', 'geojson'], ['layer.json', 'geojson'], ['layer.zip', 'shapefile'], ['my.assets.v2.csv', 'csv'],
  ])('%s is %s', (name, format) => {
    expect(formatOfFilename(name)).toBe(format);
    expect(requireFormat(name)).toBe(format);
  });

  it.each(['assets.xls', 'assets.shp', 'csv', 'assets.csv.gz', 'zip.assets', 'assets', ''])('%j is no format', (name) => {
    expect(formatOfFilename(name)).toBeUndefined();
    expect(() => requireFormat(name)).toThrow(new AssetFileError('unsupported_format', `Cannot tell the format of "${name}": use .csv, .xlsx, .geojson (or .json) or a zipped Shapefile (.zip).`));
  });
});

function stored(overrides: Partial<StoredAsset> = {}): StoredAsset {
  return {
    asset_id: 'a_1', jurisdiction_id: 'county:12087', name: 'Station 1', category: 'critical_infrastructure', asset_type: 'wastewater_treatment_facilities_and_lift_stations', source_type: 'Lift Station',
    classification: { category: 'critical_infrastructure', asset_type: 'wastewater_treatment_facilities_and_lift_stations', rule: 'x', matched_field: 'TYPE', matched_text: 'Lift Station', ruleset_version: '1' } as never,
    lon: -81.78, lat: 24.55, geometry_type: 'Point', geometry: null, source_id: null, address: null, city: null, county: null, owner: null, attributes: {},
    content_hash: 'h', import_id: 'imp_1', vulnerability: null, vulnerability_level: 'not_assessed', impact_timeline: 'not_assessed',
    vulnerability_history: [], version: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...overrides,
  };
}

describe('asset views', () => {
  it('name the asset type, or null without one; keep the history only where asked', () => {
    const view = assetView(stored({ vulnerability_history: [{ at: 'x' }] as never }));
    expect(view.asset_type_label).toEqual(expect.any(String));
    expect(view.asset_type_label!.length).toBeGreaterThan(0);
    expect(view).not.toHaveProperty('vulnerability_history');
    expect(view).not.toHaveProperty('content_hash');
    expect(assetView(stored({ asset_type: null })).asset_type_label).toBeNull();
    expect(assetView(stored({ asset_type: 'no_such_type' })).asset_type_label).toBeNull();
    expect(assetWithHistoryView(stored({ vulnerability_history: [{ at: 'x' }] as never })).vulnerability_history).toEqual([{ at: 'x' }]);
    expect(assetWithHistoryView(stored({ vulnerability_history: undefined as never })).vulnerability_history).toEqual([]);
    expect(assetWithHistoryView(stored())).toMatchObject({ asset_id: 'a_1', geometry: { type: 'Point', coordinates: [-81.78, 24.55] } });
  });
});

describe('inventory tables', () => {
  it('CSV quotes a cell with a comma, a quote, a carriage return or a line feed, and only those', () => {
    const names = ['Plain name', 'Comma, Inc', 'The "Main" Plant', 'Line\nbreak', 'Return\rcarriage'];
    const csv = assetsToCsv(names.map((name, i) => stored({ asset_id: `a_${i}`, name })));
    const rows = parse(csv, { columns: true }) as { name: string }[];
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(csv).toContain(',Plain name,');
    expect(csv).toContain(',"Comma, Inc",');
    expect(csv).toContain(',"The ""Main"" Plant",');
  });

  it('carries the local datum check of the tidal levels at each asset, empty without one', () => {
    const check = { status: 'differs', mhhw_used_navd88_m: 0.7677, station: { noaa_id: '8720226', name: 'Jacksonville', distance_km: 0.6, mhhw_navd88_m: 0.198 }, difference_m: -0.5697 };
    const csv = assetsToCsv([stored({ exposure: { tidal_datum_check: check } as never }), stored({ asset_id: 'a_2' })]);
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.tidal_datum_check, r.tidal_datum_difference_m])).toEqual([['differs', '-0.5697'], ['', '']]);
  });

  it('the workbook has a bold header row frozen above the data', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await assetsToXlsx([stored()]) as never);
    const sheet = book.getWorksheet('Critical assets')!;
    expect(sheet.getRow(1).font).toMatchObject({ bold: true });
    expect(sheet.views).toEqual([expect.objectContaining({ state: 'frozen', ySplit: 1 })]);
    expect(sheet.getRow(2).getCell(1).value).toBe('a_1');
  });
});
