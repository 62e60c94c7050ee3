import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { scenarioReport } from '../../shared/domain/hazards/scenario-report';
import { describeGaugeSelection } from '../../shared/domain/hazards/responses';
import { chooseSingleGauge, epochRise, gaugeById, GAUGES, INTERPOLATION_GAUGES, selectGauges } from '../../shared/domain/hazards/gauges';
import { distanceKm } from '../science/readers/raw';
import { localSeaLevelRise } from '../../shared/domain/hazards/local-slr';
import { haversineKm } from '../../shared/domain/hazards/geo';
import { freshModule } from '../helpers/fresh-module';

// Reference values from the NOAA-derived CSVs copied into the repo (rounded to the millimetre; the
// product serves the netCDF values, checked exactly in test/science).
const MM = 0.00056;
const SOURCE = path.join(__dirname, '../../shared/data/hazards/source');
const csv = (file: string) => parse(readFileSync(path.join(SOURCE, file)), { columns: true }) as Record<string, string>[];
const gaugeRows = csv('fl_gauges_tr2022_slr_scenarios.csv');
const regionalRows = csv('regional_tr2022_scenarios_SE_EGOM.csv');
const WIRE: Record<string, string> = { Low: 'low', 'Intermediate-Low': 'intermediate_low', Intermediate: 'intermediate', 'Intermediate-High': 'intermediate_high', High: 'high' };
const reference = (id: string, scenario: string, percentile: string, year: number) =>
  Number(gaugeRows.find((r) => r.noaa_id === id && r.scenario === scenario && r.percentile === percentile)![String(year)]);

describe('NOAA 2022 scenarios at a gauge', () => {
  it('Key West 2050 Intermediate median is 0.340 m, in feet too', () => {
    const report = scenarioReport({ target: { gauge: gaugeById('8724580')! }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    const value = report.scenarios[0]!.projections[0]!.p50;
    expect(reference('8724580', 'Intermediate', '50', 2050)).toBe(0.34);
    expect(Math.abs(value.m - 0.34)).toBeLessThanOrEqual(MM);
    expect(value.ft).toBeCloseTo(value.m / 0.3048, 3);
    expect(report.baseline_year).toBe(2000);
  });

  it('equals the reference file for every gauge, scenario, percentile and decade', () => {
    const years = Array.from({ length: 14 }, (_, i) => 2020 + 10 * i);
    for (const row of gaugeRows) {
      const report = scenarioReport({ target: { gauge: gaugeById(row.noaa_id!)! }, years, scenarios: [WIRE[row.scenario!] as never], assessmentYear: 2026 });
      for (const projection of report.scenarios[0]!.projections) {
        expect(Math.abs((projection as unknown as Record<string, { m: number }>)[`p${row.percentile}`]!.m - Number(row[String(projection.year)]))).toBeLessThanOrEqual(MM);
      }
    }
    // The CSV holds the 15 Florida gauges; the rule's list adds Dauphin Island AL and Fort Pulaski GA.
    expect(new Set(gaugeRows.map((r) => r.noaa_id)).size).toBe(15);
    expect(GAUGES.map((g) => g.noaa_id)).toEqual(expect.arrayContaining([...new Set(gaugeRows.map((r) => r.noaa_id!)), '8735180', '8670870']));
  });

  it('interpolates linearly between decades and flags it', () => {
    const report = scenarioReport({ target: { gauge: gaugeById('8729840')! }, years: [2044, 2074], scenarios: ['intermediate_low'], assessmentYear: 2024 });
    const [y2044, y2074] = report.scenarios[0]!.projections;
    const expected2044 = reference('8729840', 'Intermediate-Low', '50', 2040) + 0.4 * (reference('8729840', 'Intermediate-Low', '50', 2050) - reference('8729840', 'Intermediate-Low', '50', 2040));
    expect(Math.abs(y2044!.p50.m - expected2044)).toBeLessThanOrEqual(MM);
    expect(y2044!.interpolated).toBe(true);
    // 2044 and 2074 are the 2024 rule set's horizons for a 2024 assessment; Intermediate-Low is required by both rule sets.
    expect(y2044!.statute_horizon_for).toEqual(['2024']);
    expect(y2074!.statute_horizon_for).toEqual(['2024']);
    expect(report.scenarios[0]!.statute_required_by).toEqual(['2021', '2024']);
  });
});

describe('gauge selection at a location', () => {
  it('weights the two closest gauges by inverse distance', () => {
    const miami = { lat: 25.7617, lon: -80.1918 };
    const selection = selectGauges(miami);
    expect(selection.method).toBe('inverse_distance_two_gauges');
    const [a, b] = selection.gauges;
    const byDistance = INTERPOLATION_GAUGES.map((g) => ({ id: g.noaa_id, d: haversineKm(miami, g) })).sort((x, y) => x.d - y.d);
    expect([a!.gauge.noaa_id, b!.gauge.noaa_id]).toEqual([byDistance[0]!.id, byDistance[1]!.id]);
    expect(a!.weight + b!.weight).toBeCloseTo(1, 12);
    expect(a!.weight / b!.weight).toBeCloseTo(byDistance[1]!.d / byDistance[0]!.d, 9);
    const rise = localSeaLevelRise(selection, 'intermediate', '50', 2070);
    const expected = a!.weight * reference(a!.gauge.noaa_id, 'Intermediate', '50', 2070) + b!.weight * reference(b!.gauge.noaa_id, 'Intermediate', '50', 2070);
    expect(Math.abs(rise - expected)).toBeLessThanOrEqual(MM);
  });

  it('interpolates between two gauges even when they are more than 100 miles apart; one gauge only by recorded choice', () => {
    const tampaBayMouth = { lat: 27.6, lon: -82.75 };
    const nearFortMyersAndNaples = { lat: 26.4, lon: -81.85 };
    expect(selectGauges(nearFortMyersAndNaples).method).toBe('inverse_distance_two_gauges');
    // Naples and Fort Myers are 36 miles apart: the statute's exception is refused.
    const refused = chooseSingleGauge(nearFortMyersAndNaples, { gauge_id: '8725520', reason: 'Fort Myers is on the same estuary.' });
    expect(refused.ok).toBe(false);
    // Pensacola–Dauphin Island (~50 mi) vs. Apalachicola–Panama City: a Big Bend point has gauges over 100 miles apart.
    const bigBend = { lat: 29.95, lon: -84.35 };
    const [first, second] = selectGauges(bigBend).gauges;
    const separation = haversineKm(first!.gauge, second!.gauge) / 1.609344;
    const chosen = chooseSingleGauge(bigBend, { gauge_id: first!.gauge.noaa_id, reason: 'Same bay, same exposure.' });
    expect(chosen.ok).toBe(separation > 100);
    expect(selectGauges(tampaBayMouth).method).toBe('inverse_distance_two_gauges');
  });

  // The gauges as the data file lists them, read here.
  const listed = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/hazards/gauges.json'), 'utf8')) as
    { noaa_id: string; name: string; lat: number; lon: number; data_warnings: string[]; tr2022: { rise_1992_to_2000_m: Record<string, number> } }[];
  const usable = listed.filter((g) => g.data_warnings.length === 0);
  const closest = (point: { lat: number; lon: number }) => [...usable].sort((a, b) => distanceKm(point, a) - distanceKm(point, b));

  it('answers a location at a gauge with that gauge alone', () => {
    const keyWest = listed.find((g) => g.noaa_id === '8724580')!;
    const selection = selectGauges({ lat: keyWest.lat, lon: keyWest.lon });
    expect(selection).toEqual({ method: 'single_gauge', gauges: [{ gauge: gaugeById('8724580'), distance_km: 0, weight: 1 }], reason: 'The location is at the gauge.' });
  });

  it('gives the separation of the two gauges it interpolates between in statute miles', () => {
    const miami = { lat: 25.7617, lon: -80.1918 };
    const [a, b] = closest(miami);
    const selection = selectGauges(miami);
    expect(selection.method === 'inverse_distance_two_gauges' && selection.separation_miles).toBeCloseTo(distanceKm(a!, b!) / 1.609344, 6);
  });

  it('refuses a single gauge that is not one of the two closest, naming its data warnings if it has any', () => {
    // Steinhatchee: Cedar Key and Apalachicola are the closest usable gauges, over 100 miles apart.
    const steinhatchee = { lat: 29.67, lon: -83.39 };
    const [a, b] = closest(steinhatchee);
    expect([a!.noaa_id, b!.noaa_id]).toEqual(['8727520', '8728690']);
    expect(distanceKm(a!, b!) / 1.609344).toBeGreaterThan(100);
    const names = `8727520 Cedar Key, FL and 8728690 Apalachicola, FL`;
    expect(chooseSingleGauge(steinhatchee, { gauge_id: '8724580', reason: 'r' })).toEqual({ ok: false, message: `representative_gauge must be one of the two closest usable gauges: ${names}.` });
    const mayport = listed.find((g) => g.noaa_id === '8720218')!;
    expect(mayport.data_warnings.length).toBeGreaterThan(0);
    expect(chooseSingleGauge(steinhatchee, { gauge_id: '8720218', reason: 'r' })).toEqual({
      ok: false, message: `representative_gauge must be one of the two closest usable gauges: ${names}. Gauge 8720218 has data warnings: ${mayport.data_warnings.join(' ')}`,
    });
    expect(chooseSingleGauge(steinhatchee, { gauge_id: '8728690', reason: 'Open Gulf coast.' })).toMatchObject({ ok: true, selection: { method: 'single_gauge', gauges: [{ gauge: gaugeById('8728690'), weight: 1 }] } });
  });

  it('cautions on a single gauge chosen across the peninsula, and on none chosen on the location\'s own shore', () => {
    // St. Augustine: Fernandina Beach (Atlantic) and Cedar Key (Gulf), 141.6 miles apart; Mayport is the closest gauge of the file.
    const stAugustine = { lat: 29.8921, lon: -81.311 };
    const cedarKey = chooseSingleGauge(stAugustine, { gauge_id: '8727520', reason: 'r' });
    expect(cedarKey.ok && cedarKey.selection.cautions).toEqual([
      expect.stringMatching(/^Cedar Key, FL is in the NOAA 2022 Eastern Gulf of Mexico region, while the gauge of the file closest to the location, Mayport, FL \(35\.\d miles\), is in the Southeast \(Atlantic\) region: 100 % of/),
    ]);
    const fernandina = chooseSingleGauge(stAugustine, { gauge_id: '8720030', reason: 'Same shore.' });
    expect(fernandina.ok && fernandina.selection.cautions).toEqual([]);
  });

  it('answers the cautions of a gauge requested by id or a location at a gauge as none', () => {
    expect(describeGaugeSelection(selectGauges(gaugeById('8724580')!)).cautions).toEqual([]);
    expect(describeGaugeSelection({ method: 'single_gauge', gauges: [{ gauge: gaugeById('8720030')!, distance_km: 0, weight: 1 }], reason: 'Gauge requested by id.' }).cautions).toEqual([]);
  });

  it('takes the 1992–2000 rise of the nearest gauge alone where it falls back to the regional series', () => {
    const southGeorgia = { lat: 31.6, lon: -84.2 };
    const nearest = closest(southGeorgia)[0]!;
    expect(epochRise(selectGauges(southGeorgia))).toBe(nearest.tr2022.rise_1992_to_2000_m['50']);
  });

  it('names in every answer\'s provenance the rule\'s gauges it uses, those it leaves out for data warnings, and those without NOAA 2022 projections', () => {
    const rule = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/hazards/fac-62s-7-gauges.json'), 'utf8')) as { gauges: { noaa_id: string | null; name: string }[] };
    // The gauge lists are built when the module loads: loaded here afresh, so a mutation run sees this test use them.
    const provenance = freshModule<typeof import('../../shared/domain/hazards/gauges')>(require.resolve('../../shared/domain/hazards/gauges')).gaugeRuleProvenance();
    expect(provenance.gauges_used).toEqual(usable.map((g) => `${g.noaa_id} ${g.name}`));
    expect(provenance.gauges_excluded_for_data_warnings).toEqual(listed.filter((g) => g.data_warnings.length > 0).map((g) => ({ noaa_id: g.noaa_id, name: g.name, warnings: g.data_warnings })));
    expect(provenance.gauges_without_noaa_2022_projections).toEqual(rule.gauges.filter((g) => !listed.some((l) => l.noaa_id === g.noaa_id)).map((g) => g.name));
    expect(provenance.gauges_without_noaa_2022_projections).toEqual(['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL']);
  });

  it('falls back to the regional series beyond 100 miles of every gauge', () => {
    const southGeorgia = { lat: 31.6, lon: -84.2 };
    const selection = selectGauges(southGeorgia);
    expect(selection.method).toBe('regional_fallback');
    if (selection.method !== 'regional_fallback') return;
    // South Georgia drains to the Gulf (the Flint River): its closest gauge is on the Gulf.
    expect(selection.region).toBe('EGOM');
    const row = regionalRows.find((r) => r.region === selection.region && r.scenario === 'Intermediate' && r.percentile === '50')!;
    expect(localSeaLevelRise(selection, 'intermediate', '50', 2060)).toBe(Number(row['2060']));
  });

  it('gives a place on the Atlantic shore the Southeast series even where its nearest usable gauge is on the Gulf (West Palm Beach, Fort Myers)', () => {
    const westPalmBeach = { lat: 26.72, lon: -80.05 };
    expect(closest(westPalmBeach)[0]!.noaa_id).toBe('8725520');
    const selection = selectGauges(westPalmBeach);
    const [southeast, gulf] = ['SE', 'EGOM'].map((region) => Number(regionalRows.find((r) => r.region === region && r.scenario === 'Intermediate' && r.percentile === '50')!['2060']));
    expect(southeast).not.toBe(gulf);
    expect(localSeaLevelRise(selection, 'intermediate', '50', 2060)).toBe(southeast);
    // The reason names the gauge whose datums it takes, how far it is, and why a warned gauge may serve.
    const virginiaKey = GAUGES.find((g) => g.noaa_id === '8723214')!;
    expect(selection.reason).toContain(`Virginia Key, FL, ${(distanceKm(westPalmBeach, virginiaKey) / 1.609344).toFixed(1)} miles away (its data warning concerns`);
    const southGeorgia = selectGauges({ lat: 31.6, lon: -84.2 });
    expect(southGeorgia.gauges[0]!.gauge.data_warnings).toEqual([]);
    expect(southGeorgia.reason).not.toContain('data warning');
  });
});
