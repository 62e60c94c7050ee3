import ExcelJS from 'exceljs';
import type { StoredAsset } from '../../shared/domain/assets/ports';
import { assetLayer, componentDepthField, governingField } from '../../shared/domain/deliverables/gis-layers';
import { assetListXlsx } from '../helpers/deliverable-writers';

/** The four components' depths and the governing one as columns of the asset layer and the workbook. */

function asset(id: string, exposure?: unknown): StoredAsset {
  return {
    asset_id: id, jurisdiction_id: 'county:12087', name: `Asset ${id}`, category: 'transportation', asset_type: null, source_type: null,
    classification: { category: null, asset_type: null, rule: 'unclassified', matched_field: null, matched_text: null, ruleset_version: '1' } as never,
    lon: -81.78, lat: 24.55, geometry_type: 'Point', geometry: null, source_id: null, address: null, city: null, county: null, owner: null, attributes: {},
    content_hash: 'h', import_id: 'imp_1', vulnerability: null, vulnerability_level: 'not_assessed', impact_timeline: 'not_assessed',
    vulnerability_history: [], version: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...(exposure ? { exposure: exposure as never } : {}),
  };
}

const combos = [{ scenario: 'intermediate_high', planning_horizon: 2076 }];
const pit = asset('pit', {
  depths: [], max_depth_ft: 2.95, ground_elevation_navd88_m: 0.5, first_exposed_year: 2076,
  by_component: [{
    scenario: 'intermediate_high', planning_horizon: 2076, storm: { return_period_years: 100, depth_mm: 250, duration_h: 24, source: 'NOAA Atlas 14' },
    depth_m: { tidal: 0, surge: 0, rainfall: 0.4, compound: 0.9 }, depth_ft: { tidal: 0, surge: 0, rainfall: 1.31, compound: 2.95 }, governing_component: 'compound',
  }],
});
const older = asset('older', { depths: [], max_depth_ft: null, ground_elevation_navd88_m: null, first_exposed_year: null });

describe('per-component columns of the asset layer', () => {
  it('are named within the 10 characters of a dBASE field', () => {
    expect(['tidal', 'surge', 'rainfall', 'compound'].map((c) => componentDepthField(c as never, 'intermediate_high', 2076))).toEqual(['T_IH_2076', 'S_IH_2076', 'R_IH_2076', 'C_IH_2076']);
    expect(governingField('intermediate_high', 2076)).toBe('G_IH_2076');
    const layer = assetLayer([pit, older], combos);
    for (const a of layer.attributes) expect(a.name.length).toBeLessThanOrEqual(10);
  });

  it('carry each component\'s depth in feet and the governing component, empty for an exposure written before them', () => {
    const layer = assetLayer([pit, older], combos);
    const [first, second] = layer.collection.features.map((f) => f.properties!);
    expect(first).toMatchObject({ T_IH_2076: 0, S_IH_2076: 0, R_IH_2076: 1.31, C_IH_2076: 2.95, G_IH_2076: 'compound' });
    expect(second).toMatchObject({ T_IH_2076: null, S_IH_2076: null, R_IH_2076: null, C_IH_2076: null, G_IH_2076: '' });
    expect(layer.attributes.map((a) => a.name)).toEqual(Object.keys(first!));
  });

  it('are left out when no asset carries per-component depths', () => {
    expect(assetLayer([older], combos).attributes.map((a) => a.name)).not.toContain('G_IH_2076');
  });

  it('reach the prioritized asset workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await assetListXlsx(assetLayer([pit], combos), 'Assets') as never);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1).value;
    expect(['R_IH_2076', 'C_IH_2076', 'G_IH_2076'].map(cell)).toEqual([1.31, 2.95, 'compound']);
  });
});
