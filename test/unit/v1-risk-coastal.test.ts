import { readFileSync } from 'node:fs';
import path from 'node:path';
import { coastalFigures } from '../../shared/domain/risk/coastal';
import { calculateRisk } from '../../shared/domain/risk/answers';
import { resolvePlace } from '../../shared/domain/risk/place';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { distanceKm as km, ncGauges, packageDatums, RAW } from '../science/readers/raw';

/**
 * The coastal figures of the risk answer against the raw files: NOAA TR 086's observed flood days
 * (own CSV split) and the gauge positions of NOAA's station list (own great-circle distance).
 */

const flatSea: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
const stations = JSON.parse(readFileSync(path.join(RAW, 'stations.json'), 'utf8')) as Record<string, { lat: number; lon: number }>;
const observed = new Map<string, Map<number, number>>();
for (const line of readFileSync(path.join(RAW, 'fl_htf_days_tr086.csv'), 'utf8').trim().split('\n').slice(1)) {
  const [id, series, year, days] = line.split(',');
  if (series !== 'floods_historical') continue;
  if (!observed.has(id!)) observed.set(id!, new Map());
  observed.get(id!)!.set(Number(year), Number(days));
}
const decimals = (value: number) => (String(value).split('.')[1] ?? '').length;

describe('coastal figures at a point', () => {
  it.each([
    ['Marathon, between Key West and Vaca Key', 24.7136, -81.0903],
    ['St. Petersburg', 27.7676, -82.6403],
  ])('%s: the weighted gauges with distances, weights and the last five observed years', async (_name, lat, lon) => {
    const figures = await coastalFigures({ lat, lon }, 'here', 2026, flatSea);
    const gauges = figures.high_tide_flooding.gauges;
    expect(gauges.length).toBeGreaterThan(0);
    expect(gauges.every((g) => g.weight > 0)).toBe(true);
    expect(gauges.reduce((sum, g) => sum + g.weight, 0)).toBeCloseTo(1, 3);
    for (const g of gauges) {
      expect(decimals(g.weight)).toBeLessThanOrEqual(4);
      expect(decimals(g.distance_km)).toBeLessThanOrEqual(2);
      expect(Math.abs(g.distance_km - km({ lat, lon }, stations[g.noaa_id]!))).toBeLessThan(0.5);
      const record = observed.get(g.noaa_id)!;
      const years = [...record.keys()].sort((a, b) => a - b);
      expect(g.observed_flood_days).toMatchObject({
        period: `${years[0]}–${years.at(-1)}`,
        latest_years: years.slice(-5).reverse().map((year) => ({ year, days: record.get(year) })),
      });
      // Two scenarios × the statute's horizons, each with the rise at the gauge and flood days.
      expect(g.projected.length).toBe(figures.sea_level_rise.scenarios.length * 2);
      for (const p of g.projected) expect(typeof p.minor_flood_days).toBe('number');
    }
    expect(figures.sea_level_rise).toMatchObject({ assessment_year: 2026, statute_rule_set: '2024' });
    expect(figures.high_tide_flooding).toMatchObject({ projection_percentile: 50 });
    expect(figures.high_tide_flooding.sources.map((s) => s.id)).toEqual(['noaa_htf', 'noaa_datums', 'noaa_tr2022', 'uhslc_daily_max_peaks']);
  });

  it('states each gauge\'s datums, TR 086 thresholds and median rise as NOAA\'s files give them (assessment year 2030: 2050 and 2080)', async () => {
    const figures = await coastalFigures({ lat: 24.7136, lon: -81.0903 }, 'Marathon', 2030, flatSea);
    const gauges = figures.high_tide_flooding.gauges;
    expect(gauges.map((g) => g.noaa_id).sort()).toEqual(['8723970', '8724580']);
    const datums = packageDatums(gauges.map((g) => g.noaa_id));
    for (const g of gauges) {
      const d = datums[g.noaa_id]!;
      const mhhw = d.MHHW! - d.NAVD88!;
      expect(g.mhhw_navd88.m).toBeCloseTo(mhhw, 3);
      expect(g.mhhw_navd88.ft).toBeCloseTo(mhhw / 0.3048, 3);
      // NOAA TR 086: minor 0.04·GT + 0.50 m, moderate 0.03·GT + 0.80 m, major 0.04·GT + 1.17 m above MHHW.
      expect(g.thresholds_navd88.minor.m).toBeCloseTo(mhhw + 0.04 * d.GT! + 0.5, 3);
      expect(g.thresholds_navd88.moderate.m).toBeCloseTo(mhhw + 0.03 * d.GT! + 0.8, 3);
      expect(g.thresholds_navd88.major.m).toBeCloseTo(mhhw + 0.04 * d.GT! + 1.17, 3);
      // The rise at this gauge alone (not the weighted site value): the file's median, mm since 2000.
      const nc = ncGauges().find((x) => x.id === g.noaa_id)!;
      expect(g.projected.map((p) => [p.scenario, p.year, p.sea_level_rise.m])).toEqual(
        g.projected.map((p) => [p.scenario, p.year, Math.round(nc.total(p.scenario as never, 1, p.year) / 1000 * 1e4) / 1e4]),
      );
      expect(g.projected.map((p) => `${p.scenario} ${p.year}`)).toEqual(['intermediate_low 2050', 'intermediate_low 2080', 'intermediate 2050', 'intermediate 2080']);
    }
    // The two gauges' rises differ, so each row is its own gauge's.
    const rise = (i: number) => gauges[i]!.projected.map((p) => p.sea_level_rise.m);
    expect(rise(0)).not.toEqual(rise(1));
  });

  it('puts the figures in the county answer of a coastal county only, with their provenance', async () => {
    const monroe = resolvePlace({ county_fips: '12087' });
    const orange = resolvePlace({ county_fips: '12095' });
    if (!monroe.ok || !orange.ok) throw new Error('county lookup');
    const coastal = await calculateRisk(monroe.place, { assessmentYear: 2026, tides: flatSea });
    expect(coastal.coastal).toMatchObject({ provenance: 'Computed by this API from NOAA data (not part of the FEMA National Risk Index).' });
    expect(coastal.coastal!.high_tide_flooding.gauges.length).toBeGreaterThan(0);
    expect((await calculateRisk(orange.place, { assessmentYear: 2026, tides: flatSea })).coastal).toBeNull();
  });
});
