import { evaluateCompliance } from '../../shared/domain/compliance/evaluate';
import { settingOf } from '../../shared/domain/compliance/setting';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology } from '../helpers/assessment-fixtures';

/**
 * One defect at a time: a complete 2024-rule assessment of Monroe County with exactly one field
 * changed must turn exactly one checklist item, with its own reason; every other item still
 * passes. The reasons are what the engineer reads before signing, so they are pinned word for word.
 */

const MONROE = settingOf({ county_fips: '12087', display_name: 'Monroe County' });
const DATE = '2025-01-15';

type Edit = (m: ReturnType<typeof compliantMethodology>) => void;

function evaluate(edit: Edit, extra: { scope?: 'full_jurisdiction' | 'partial'; scope_rationale?: string } = { scope: 'full_jurisdiction' }) {
  const m = structuredClone(compliantMethodology('2024', 2025));
  edit(m);
  return evaluateCompliance({ ...extra, methodology: m as unknown as Methodology }, DATE, MONROE);
}

describe('the complete assessment', () => {
  it('passes all 14 items', () => {
    const result = evaluate(() => {});
    expect(result.dep_checklist_status.items.map((i) => [i.item, i.status])).toEqual('ABCDEFGHIJKLMN'.split('').map((id) => [id, 'pass']));
    expect(result.compliant).toBe(true);
    expect(result.dep_checklist_status.compliant).toBe(true);
  });
});

const defects: Array<[string, Edit, string, 'fail' | 'conditional', string]> = [
  ['owned assets left out', (m) => { m.critical_assets.all_owned_or_maintained_included = false; }, 'B', 'fail', 'Not all owned or maintained critical assets are included.'],
  ['whether all owned assets are included not stated', (m) => { delete (m.critical_assets as Partial<typeof m.critical_assets>).all_owned_or_maintained_included; }, 'B', 'fail', 'Not stated whether all owned or maintained critical assets are included (all_owned_or_maintained_included).'],
  ['no asset count', (m) => { delete (m.critical_assets as Partial<typeof m.critical_assets>).asset_count; }, 'B', 'fail', 'The inventory lists no critical assets.'],
  ['an empty inventory', (m) => { m.critical_assets.asset_count = 0; }, 'B', 'fail', 'The inventory lists no critical assets.'],
  ['an older DEM', (m) => { m.dem.most_recent_available = false; }, 'C', 'fail', 'NOAA OCM 2018 Florida Keys lidar DEM (2018) is not stated to be the most recent publicly available DEM.'],
  ['a DEM of no stated year, not stated most recent', (m) => { m.dem = { source: 'SRTM 1 arc-second' } as never; }, 'C', 'fail', 'SRTM 1 arc-second is not stated to be the most recent publicly available DEM.'],
  ['no DEM', (m) => { delete (m as Partial<typeof m>).dem; }, 'C', 'fail', 'No DEM recorded.'],
  ['peril of flood explained', (m) => { m.peril_of_flood = { addressed: false, rationale: 'r'.repeat(400) } as never; }, 'D', 'conditional', `Not performed; rationale given: ${'r'.repeat(300)}`],
  ['peril of flood neither', (m) => { m.peril_of_flood = { addressed: false } as never; }, 'D', 'fail', 'Peril of flood plan amendments neither addressed nor explained.'],
  ['tidal without DEP thresholds', (m) => { m.flood_components.tidal.dep_thresholds_used = false; }, 'E', 'fail', 'Tidal flooding analysed without DEP thresholds.'],
  ['tidal not analysed', (m) => { m.flood_components.tidal.analysed = false; }, 'E', 'fail', 'Tidal flooding depth not analysed.'],
  ['flood days not reported', (m) => { m.flood_components.tidal.flood_days_per_scenario_horizon = false; }, 'F', 'fail', 'Tidal flood days per scenario and horizon neither reported nor explained.'],
  ['surge from another source, undescribed', (m) => { m.flood_components.storm_surge.data_source = 'other'; }, 'G', 'fail', `DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording); with data_source "other", say what the data are (data_source_description).`],
  ['surge from another source, described', (m) => { Object.assign(m.flood_components.storm_surge, { data_source: 'other', data_source_description: 'USACE North Atlantic Coast study' }); }, 'G', 'conditional',
    `DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording). This analysis used "USACE North Atlantic Coast study" up to the 500-year event: it meets the event requirement; whether DEP accepts this source as NOAA or FEMA data is DEP's decision and not verified here. To meet the source requirement as worded, load NOAA or FEMA surge layers and re-run the analysis.`],
  ['surge from the tide-gauge GEV fit', (m) => { m.flood_components.storm_surge.data_source = 'tide_gauge_gev'; }, 'G', 'conditional',
    `DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording). This analysis used a GEV fit to tide-gauge annual maxima (observations of NOAA gauges, not a NOAA or FEMA surge product) up to the 500-year event: it meets the event requirement; whether DEP accepts this source as NOAA or FEMA data is DEP's decision and not verified here. To meet the source requirement as worded, load NOAA or FEMA surge layers and re-run the analysis.`],
  ['surge without a source', (m) => { delete (m.flood_components.storm_surge as Partial<typeof m.flood_components.storm_surge>).data_source; }, 'G', 'fail', `DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording); the data source is not stated (data_source).`],
  ['surge below the 100-year event', (m) => { m.flood_components.storm_surge.return_periods_years = [10, 50, 99]; }, 'G', 'fail', `DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording); the analysis stated goes up to the 99-year event.`],
  ['surge not analysed', (m) => { m.flood_components.storm_surge.analysed = false; }, 'G', 'fail', `Storm surge not analysed. DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording).`],
  ['rainfall lacking the 500-year storm', (m) => { m.flood_components.rainfall.return_periods_years = [100]; }, 'H', 'fail', 'Rainfall-induced flooding lacks the 500-year storm.'],
  ['rainfall lacking it with a reason', (m) => { m.flood_components.rainfall = { analysed: true, return_periods_years: [25], rationale: 'x'.repeat(350) } as never; }, 'H', 'conditional', `The 100 and 500-year storm not analysed; rationale given: ${'x'.repeat(300)}`],
  ['rainfall not analysed', (m) => { m.flood_components.rainfall = { analysed: false } as never; }, 'H', 'fail', 'Rainfall-induced flooding (100-year and 500-year storms) neither analysed nor explained.'],
  ['compound not analysed', (m) => { m.flood_components.compound = { analysed: false } as never; }, 'I', 'fail', 'Compound flooding neither analysed nor explained.'],
  ['another datum', (m) => { m.vertical_datum = 'NGVD29'; }, 'J', 'fail', 'Analyses are in NGVD29, not NAVD88.'],
  ['no datum', (m) => { delete (m as Partial<typeof m>).vertical_datum; }, 'J', 'fail', 'Vertical datum not stated.'],
  ['2017 scenarios', (m) => { m.sea_level_rise.scenario_family = 'noaa_2017'; }, 'K', 'fail', 'Rule set 2024 requires the noaa_2022 scenarios, not noaa_2017.'],
  ['one required scenario missing', (m) => { m.sea_level_rise.scenarios = ['intermediate_low', 'high']; }, 'K', 'fail', 'Missing required scenario(s): intermediate.'],
  ['a required horizon missing', (m) => { m.sea_level_rise.planning_horizons = [2045, 2100]; }, 'L', 'fail', 'Missing required planning horizon(s): 2075.'],
  ['no horizons', (m) => { m.sea_level_rise.planning_horizons = []; }, 'L', 'fail', 'Planning horizons not stated.'],
  ['one gauge without a reason', (m) => { m.tide_gauges = { station_ids: ['8724580', '8724580'] } as never; }, 'M', 'fail', 'One gauge used without single_gauge_rationale (allowed only when the two closest are more than 100 miles apart).'],
  ['no gauges', (m) => { m.tide_gauges = { station_ids: [] } as never; }, 'M', 'fail', 'No NOAA tide gauges stated.'],
  ['no report', (m) => { m.deliverables.report = false; }, 'N', 'fail', 'Missing: report of findings.'],
  ['GIS in another format', (m) => { m.deliverables.gis_data.format = 'other'; }, 'N', 'fail', 'Missing: GIS data in a format DEP\'s mapping tool reads.'],
  ['GIS unprojected', (m) => { m.deliverables.gis_data.coordinate_system = 'EPSG:4326'; }, 'N', 'fail', 'Missing: GIS data projected (EPSG:4326 is geographic; DEP uses EPSG:3087).'],
  ['GIS without metadata', (m) => { m.deliverables.gis_data.metadata = false; }, 'N', 'fail', 'Missing: GIS metadata.'],
  ['no GIS data', (m) => { delete (m.deliverables as Partial<typeof m.deliverables>).gis_data; }, 'N', 'fail', 'Missing: GIS data.'],
  ['no prioritized list', (m) => { m.deliverables.prioritized_asset_list = false; }, 'N', 'fail', 'Missing: prioritized list of impacted critical assets.'],
  ['regional assets not identified', (m) => { m.critical_assets.regionally_significant_identified = false; }, 'N', 'fail', 'Missing: regionally significant assets identified in the list.'],
];

describe('one defect at a time', () => {
  it.each(defects)('%s: only its item changes, with its reason', (_name, edit, item, status, reason) => {
    const result = evaluate(edit);
    const changed = result.dep_checklist_status.items.filter((i) => i.status !== 'pass');
    expect(changed.map((i) => [i.item, i.status, i.reason])).toEqual([[item, status, reason]]);
    expect(result.compliant).toBe(status !== 'fail');
    expect(result.dep_checklist_status.compliant).toBe(status !== 'fail');
    expect(result.missing_items.map((m) => [m.item, m.reason])).toEqual(status === 'fail' ? [[item, reason]] : []);
  });

  it('passes and words the passing reasons with the figures stated', () => {
    const reasons = Object.fromEntries(evaluate(() => {}).dep_checklist_status.items.map((i) => [i.item, i.reason]));
    expect(reasons).toMatchObject({
      B: '412 critical assets, all owned or maintained ones included.',
      G: 'DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording): FEMA data up to the 500-year event.',
      H: 'Rainfall-induced flooding analysed for the 100-year and 500-year storms.',
      K: '3 noaa_2022 scenarios including intermediate_low and intermediate.',
      L: 'Planning horizons 2045, 2075, 2100 include 2045 and 2075.',
      M: 'Interpolated between NOAA gauges 8724580, 8723970.',
      N: 'Report, GIS data (file_geodatabase, EPSG:3087, with metadata) and prioritized asset list.',
    });
    const single = evaluate((m) => { m.tide_gauges = { station_ids: ['8724580'], single_gauge_rationale: 'Nearest two gauges > 100 miles apart.' } as never; });
    expect(single.dep_checklist_status.items.find((i) => i.item === 'M')).toMatchObject({ status: 'pass', reason: 'Single NOAA gauge 8724580 with a rationale.' });
    const projectedElsewhere = evaluate((m) => { m.deliverables.gis_data.coordinate_system = 'EPSG:26917'; });
    expect(projectedElsewhere.dep_checklist_status.items.find((i) => i.item === 'N')!.reason).toBe('Report, GIS data (file_geodatabase, EPSG:26917, with metadata) and prioritized asset list. Note: DEP\'s statewide layers use EPSG:3087.');
  });

  it('without an inventory fails B, and N for the regionally significant assets it cannot identify', () => {
    const result = evaluate((m) => { delete (m as Partial<typeof m>).critical_assets; });
    expect(result.missing_items.map((m) => [m.item, m.reason])).toEqual([
      ['B', 'No critical asset inventory recorded.'],
      ['N', 'Missing: regionally significant assets identified in the list.'],
    ]);
  });

  it('passes at each boundary: one asset, exactly the 100-year surge, horizons listed in order', () => {
    const reasonOf = (edit: Edit, item: string) => evaluate(edit).dep_checklist_status.items.find((i) => i.item === item)!;
    expect(reasonOf((m) => { m.critical_assets.asset_count = 1; }, 'B')).toMatchObject({ status: 'pass', reason: '1 critical assets, all owned or maintained ones included.' });
    expect(reasonOf((m) => { m.flood_components.storm_surge.return_periods_years = [100]; }, 'G')).toMatchObject({ status: 'pass', reason: 'DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording): FEMA data up to the 100-year event.' });
    expect(reasonOf((m) => { m.sea_level_rise.planning_horizons = [2100, 2075, 2045]; }, 'L')).toMatchObject({ status: 'pass', reason: 'Planning horizons 2045, 2075, 2100 include 2045 and 2075.' });
  });

  it('wants a station for a single-gauge rationale, and stations at all', () => {
    const itemM = (edit: Edit) => evaluate(edit).dep_checklist_status.items.find((i) => i.item === 'M')!;
    expect(itemM((m) => { m.tide_gauges = { station_ids: [], single_gauge_rationale: 'far apart' } as never; })).toMatchObject({ status: 'fail', reason: 'No NOAA tide gauges stated.' });
    expect(itemM((m) => { m.tide_gauges = {} as never; })).toMatchObject({ status: 'fail', reason: 'No NOAA tide gauges stated.' });
  });

  it('judges the scope: full, partial with a rationale, partial without, unstated', () => {
    const itemA = (extra: Parameters<typeof evaluate>[1]) => evaluate(() => {}, extra).dep_checklist_status.items.find((i) => i.item === 'A')!;
    expect(itemA({ scope: 'partial', scope_rationale: 'Barrier islands only.' })).toMatchObject({ status: 'pass', reason: 'A smaller area with a rationale; DEP must approve it.' });
    expect(itemA({ scope: 'partial' })).toMatchObject({ status: 'fail', reason: 'Partial scope without scope_rationale.' });
    expect(itemA({})).toMatchObject({ status: 'fail', reason: 'Scope not stated.' });
  });
});
