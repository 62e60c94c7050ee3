import { evaluateCompliance } from '../../shared/domain/compliance/evaluate';
import { settingOf } from '../../shared/domain/compliance/setting';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology } from '../helpers/assessment-fixtures';

/** A coastal jurisdiction (Monroe County): every item applies. */
const COASTAL = settingOf({ county_fips: '12087', display_name: 'Monroe County' });

const methodology = (ruleSet: '2021' | '2024', startYear?: number) => compliantMethodology(ruleSet, startYear) as Methodology;
const full = { scope: 'full_jurisdiction' as const };
const statusOf = (result: ReturnType<typeof evaluateCompliance>, item: string) => result.dep_checklist_status.items.find((i) => i.item === item)!.status;

describe('checklist evaluation', () => {
  it('passes every item of a complete 2021 assessment', () => {
    const result = evaluateCompliance({ ...full, methodology: methodology('2021') }, '2023-03-01', COASTAL);
    expect(result.compliant).toBe(true);
    expect(result.missing_items).toEqual([]);
    expect(result.dep_checklist_status).toMatchObject({ rule_set: '2021', passed: 14, failed: 0, conditional: 0, label: "derived from s. 380.093; not DEP's form" });
  });

  it('passes every item of a complete 2024 assessment with horizons 20 and 50 years after the start year', () => {
    const result = evaluateCompliance({ ...full, methodology: methodology('2024', 2025) }, '2025-01-15', COASTAL);
    expect(result.dep_checklist_status.rule_set).toBe('2024');
    expect(result.compliant).toBe(true);
  });

  it('fails every item of an empty draft, each with statute reference and how to satisfy it', () => {
    const result = evaluateCompliance({}, '2025-01-15', COASTAL);
    expect(result.compliant).toBe(false);
    expect(result.missing_items.map((m) => m.item)).toEqual('ABCDEFGHIJKLMN'.split(''));
    for (const missing of result.missing_items) {
      expect(missing.statute_ref).toMatch(/s\. 380\.093/);
      expect(missing.how_to_satisfy.length).toBeGreaterThan(10);
      expect(missing.reason.length).toBeGreaterThan(5);
    }
  });

  it('requires the scenario family of the rule set: 2017 scenarios fail K under rule set 2024', () => {
    const result = evaluateCompliance({ ...full, methodology: methodology('2021') }, '2025-01-15', COASTAL);
    expect(statusOf(result, 'K')).toBe('fail');
    expect(statusOf(result, 'L')).toBe('fail');
    expect(result.missing_items.find((m) => m.item === 'K')!.reason).toMatch(/noaa_2022/);
  });

  it('needs both scenarios of the required pair and both horizons', () => {
    const m = methodology('2021');
    const oneScenario = { ...m, sea_level_rise: { ...m.sea_level_rise!, scenarios: ['intermediate_low', 'high'] } } as Methodology;
    expect(statusOf(evaluateCompliance({ ...full, methodology: oneScenario }, '2023-01-01', COASTAL), 'K')).toBe('fail');
    const oneHorizon = { ...m, sea_level_rise: { ...m.sea_level_rise!, planning_horizons: [2040, 2100] } } as Methodology;
    expect(statusOf(evaluateCompliance({ ...full, methodology: oneHorizon }, '2023-01-01', COASTAL), 'L')).toBe('fail');
  });

  it('accepts a rationale for conditional items as "conditional", still compliant', () => {
    const m = methodology('2024', 2025);
    const withRationales = {
      ...m,
      peril_of_flood: { addressed: false, rationale: 'Inland municipality: no coastal management element.' },
      flood_components: { ...m.flood_components, compound: { analysed: false, rationale: 'No H&H model available yet.' } },
    } as Methodology;
    const result = evaluateCompliance({ ...full, methodology: withRationales }, '2025-01-15', COASTAL);
    expect(statusOf(result, 'D')).toBe('conditional');
    expect(statusOf(result, 'I')).toBe('conditional');
    expect(result.compliant).toBe(true);
    expect(result.dep_checklist_status.conditional).toBe(2);
  });

  it('fails a conditional item that is neither done nor explained', () => {
    const m = methodology('2024', 2025);
    const noCompound = { ...m, flood_components: { ...m.flood_components, compound: { analysed: false } } } as Methodology;
    expect(statusOf(evaluateCompliance({ ...full, methodology: noCompound }, '2025-01-15', COASTAL), 'I')).toBe('fail');
  });

  it('requires the 500-year rainfall storm after the 2022 amendment only', () => {
    const m = methodology('2021');
    const only100 = { ...m, flood_components: { ...m.flood_components, rainfall: { analysed: true, return_periods_years: [100] } } } as Methodology;
    expect(statusOf(evaluateCompliance({ ...full, methodology: only100 }, '2022-03-01', COASTAL), 'H')).toBe('pass');
    expect(statusOf(evaluateCompliance({ ...full, methodology: only100 }, '2023-03-01', COASTAL), 'H')).toBe('fail');
  });

  it('checks storm surge source and the 100-year event, the datum, gauges and deliverables', () => {
    const m = methodology('2024', 2025);
    const check = (patch: Partial<Methodology>, item: string) => statusOf(evaluateCompliance({ ...full, methodology: { ...m, ...patch } as Methodology }, '2025-01-15', COASTAL), item);
    expect(check({ flood_components: { ...m.flood_components, storm_surge: { analysed: true, data_source: 'fema', return_periods_years: [10, 50] } } } as Partial<Methodology>, 'G')).toBe('fail');
    expect(check({ flood_components: { ...m.flood_components, storm_surge: { analysed: true, data_source: 'other', return_periods_years: [100] } } } as Partial<Methodology>, 'G')).toBe('fail');
    expect(check({ vertical_datum: 'NGVD29' }, 'J')).toBe('fail');
    expect(check({ tide_gauges: { station_ids: ['8724580'] } }, 'M')).toBe('fail');
    expect(check({ tide_gauges: { station_ids: ['8724580'], single_gauge_rationale: 'Next gauge is 140 miles away.' } }, 'M')).toBe('pass');
    expect(check({ deliverables: { report: true, prioritized_asset_list: true, gis_data: { format: 'shapefile', coordinate_system: 'EPSG:4326', metadata: true } } }, 'N')).toBe('fail');
  });

  it('accepts a partial scope only with a rationale', () => {
    const m = methodology('2024', 2025);
    expect(statusOf(evaluateCompliance({ scope: 'partial', methodology: m }, '2025-01-15', COASTAL), 'A')).toBe('fail');
    expect(statusOf(evaluateCompliance({ scope: 'partial', scope_rationale: 'Barrier island only, approved by DEP.', methodology: m }, '2025-01-15', COASTAL), 'A')).toBe('pass');
  });
});
