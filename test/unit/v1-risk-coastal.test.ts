import { readFileSync } from 'node:fs';
import path from 'node:path';
import { coastalFigures } from '../../shared/domain/risk/coastal';
import { calculateRisk } from '../../shared/domain/risk/answers';
import { resolvePlace } from '../../shared/domain/risk/place';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { distanceKm as km, RAW } from '../science/readers/raw';

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
