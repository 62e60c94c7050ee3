import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { scenarioReport } from '../../shared/domain/hazards/scenario-report';
import { gaugeById, GAUGES, selectGauges } from '../../shared/domain/hazards/gauges';
import { localSeaLevelRise } from '../../shared/domain/hazards/local-slr';
import { haversineKm } from '../../shared/domain/hazards/geo';

// Reference values read straight from the NOAA-derived CSVs copied into the repo.
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
    expect(value.m).toBe(0.34);
    expect(value.ft).toBeCloseTo(0.34 / 0.3048, 4);
    expect(report.baseline_year).toBe(2000);
  });

  it('equals the reference file for every gauge, scenario, percentile and decade', () => {
    const years = Array.from({ length: 14 }, (_, i) => 2020 + 10 * i);
    for (const row of gaugeRows) {
      const report = scenarioReport({ target: { gauge: gaugeById(row.noaa_id!)! }, years, scenarios: [WIRE[row.scenario!] as never], assessmentYear: 2026 });
      for (const projection of report.scenarios[0]!.projections) {
        expect((projection as unknown as Record<string, { m: number }>)[`p${row.percentile}`]!.m).toBe(Number(row[String(projection.year)]));
      }
    }
    expect(new Set(gaugeRows.map((r) => r.noaa_id)).size).toBe(GAUGES.length);
  });

  it('interpolates linearly between decades and flags it', () => {
    const report = scenarioReport({ target: { gauge: gaugeById('8729840')! }, years: [2044, 2074], scenarios: ['intermediate_low'], assessmentYear: 2024 });
    const [y2044, y2074] = report.scenarios[0]!.projections;
    const expected2044 = reference('8729840', 'Intermediate-Low', '50', 2040) + 0.4 * (reference('8729840', 'Intermediate-Low', '50', 2050) - reference('8729840', 'Intermediate-Low', '50', 2040));
    expect(y2044!.p50.m).toBeCloseTo(expected2044, 4);
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
    const byDistance = GAUGES.map((g) => ({ id: g.noaa_id, d: haversineKm(miami, g) })).sort((x, y) => x.d - y.d);
    expect([a!.gauge.noaa_id, b!.gauge.noaa_id]).toEqual([byDistance[0]!.id, byDistance[1]!.id]);
    expect(a!.weight + b!.weight).toBeCloseTo(1, 12);
    expect(a!.weight / b!.weight).toBeCloseTo(byDistance[1]!.d / byDistance[0]!.d, 9);
    const rise = localSeaLevelRise(selection, 'intermediate', '50', 2070);
    const expected = a!.weight * reference(a!.gauge.noaa_id, 'Intermediate', '50', 2070) + b!.weight * reference(b!.gauge.noaa_id, 'Intermediate', '50', 2070);
    expect(rise).toBeCloseTo(expected, 10);
  });

  it('uses the closest gauge alone when the two closest are more than 100 miles apart', () => {
    const capeCanaveral = { lat: 28.39, lon: -80.6 };
    const selection = selectGauges(capeCanaveral);
    expect(selection.method).toBe('single_gauge');
    expect(selection.gauges.map((g) => g.gauge.noaa_id)).toEqual(['8721604']);
    expect(haversineKm(gaugeById('8721604')!, gaugeById('8720218')!) / 1.609344).toBeGreaterThan(100);
    expect(localSeaLevelRise(selection, 'high', '83', 2100)).toBe(reference('8721604', 'High', '83', 2100));
  });

  it('falls back to the regional series beyond 100 miles of every gauge', () => {
    const southGeorgia = { lat: 31.6, lon: -84.2 };
    const selection = selectGauges(southGeorgia);
    expect(selection.method).toBe('regional_fallback');
    if (selection.method !== 'regional_fallback') return;
    const row = regionalRows.find((r) => r.region === selection.region && r.scenario === 'Intermediate' && r.percentile === '50')!;
    expect(localSeaLevelRise(selection, 'intermediate', '50', 2060)).toBe(Number(row['2060']));
  });
});
