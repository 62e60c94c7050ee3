import { Readable } from 'node:stream';
import { importAssetFile, type ImportOptions } from '../../shared/domain/assets/import-assets';
import type { ImportedAsset } from '../../shared/domain/assets/import-rows';
import type { AssetStore, ImportWriter, WriteCounts } from '../../shared/domain/assets/ports';
import { surveyedElevation } from '../../shared/domain/hazards/surveyed-elevation';

/** Keeps what the import wrote. */
class KeptAssets implements Pick<AssetStore, 'importWriter' | 'idKey'> {
  readonly assets: ImportedAsset[] = [];
  async idKey(accountId: string): Promise<string> {
    return `key-of-${accountId}`;
  }
  async importWriter(): Promise<ImportWriter> {
    const counts: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
    return {
      pending: 0,
      write: async (assets) => {
        this.assets.push(...assets);
        counts.created += assets.length;
      },
      finish: async () => counts,
    };
  }
}

async function importCsv(csv: string, options: ImportOptions) {
  const store = new KeptAssets();
  const report = await importAssetFile(store as unknown as AssetStore, {
    accountId: 'acct_1', importId: 'imp_surveyed', jurisdictionId: 'county:12087', format: 'csv',
    options: { outside_jurisdiction: 'accept', ...options }, open: () => Readable.from([Buffer.from(csv)]), now: new Date('2026-01-15T00:00:00Z'),
  });
  return { report, assets: store.assets };
}

const US_FOOT_M = 1200 / 3937;

describe('a surveyed elevation column named by column_map', () => {
  const csv = [
    'NAME,TYPE,LAT,LON,FFE,GRD_M',
    'Fire Station 3,Fire Station,24.5557,-81.7826,9.5,',
    'Lift Station 12,Lift Station,24.5601,-81.7712,,1.25',
    'City Hall,Government,24.5590,-81.8020,,',
  ].join('\n');

  it('keeps the column under its standard name, and the hazard analyses read it with its unit', async () => {
    const { report, assets } = await importCsv(csv, { column_map: { FFE: 'first_floor_elevation_ft_navd88', GRD_M: 'ground_elevation_m_navd88' } });
    expect(report.asset_count).toBe(3);
    expect(report.columns.surveyed).toEqual([
      { column: 'GRD_M', field: 'ground_elevation_m_navd88' },
      { column: 'FFE', field: 'first_floor_elevation_ft_navd88' },
    ]);
    const byName = new Map(assets.map((a) => [a.name, a]));
    expect(byName.get('Fire Station 3')!.attributes).toEqual({ first_floor_elevation_ft_navd88: 9.5 });
    expect(surveyedElevation(byName.get('Fire Station 3')!.attributes)).toEqual({ navd88_m: 9.5 * US_FOOT_M, kind: 'first_floor', column: 'first_floor_elevation_ft_navd88' });
    expect(surveyedElevation(byName.get('Lift Station 12')!.attributes)).toEqual({ navd88_m: 1.25, kind: 'ground', column: 'ground_elevation_m_navd88' });
    // A blank surveyed cell is no elevation: the DEM answers for that asset.
    expect(surveyedElevation(byName.get('City Hall')!.attributes)).toBeUndefined();
  });

  it('without column_map the same columns are plain attributes, not elevations', async () => {
    const { assets } = await importCsv(csv, {});
    const fire = assets.find((a) => a.name === 'Fire Station 3')!;
    expect(fire.attributes).toMatchObject({ FFE: '9.5' });
    expect(surveyedElevation(fire.attributes)).toBeUndefined();
  });

  it('refuses a row whose mapped elevation is not a number or not a Florida elevation in the stated unit', async () => {
    const bad = [
      'NAME,TYPE,LAT,LON,FFE',
      'Fire Station 3,Fire Station,24.5557,-81.7826,nine',
      'Lift Station 12,Lift Station,24.5601,-81.7712,394',
      'Pump Station 4,Stormwater Pump Station,24.5590,-81.8020,-33',
      'City Hall,Government,24.5591,-81.8021,393',
    ].join('\n');
    const { report, assets } = await importCsv(bad, { column_map: { FFE: 'first_floor_elevation_ft_navd88' } });
    // 393 ft = 119.8 m and −32 ft = −9.75 m are inside the plausible band; 394 ft and −33 ft are not.
    expect(assets.map((a) => a.name)).toEqual(['City Hall']);
    expect(report.validation.errors.map((e: { row: number; field: string; code: string }) => [e.row, e.field, e.code])).toEqual([
      [2, 'FFE', 'invalid_number'], [3, 'FFE', 'out_of_range'], [4, 'FFE', 'out_of_range'],
    ]);
    expect(report.validation.errors[0].message).toContain('US survey feet');
  });

  it('prefers the mapped column over a file column already bearing the standard name', async () => {
    const both = ['NAME,TYPE,LAT,LON,ground_elevation_m_navd88,SURVEY_M', 'Fire Station 3,Fire Station,24.5557,-81.7826,3.0,2.2'].join('\n');
    const { assets } = await importCsv(both, { column_map: { SURVEY_M: 'ground_elevation_m_navd88' } });
    expect(surveyedElevation(assets[0]!.attributes)).toEqual({ navd88_m: 2.2, kind: 'ground', column: 'ground_elevation_m_navd88' });
  });
});
