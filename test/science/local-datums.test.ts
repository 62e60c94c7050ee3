import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import { analyzeFlooding } from '../../shared/domain/hazards/flood-analysis';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { ncGauges, regionalTrajectoryRise, twoClosestUsable } from './readers/raw';

/**
 * "Current conditions", the regional epoch rise of warned gauges and inland places, recomputed from
 * the raw files: the NOAA 2022 netCDF files and the Census county boundaries of us-atlas.
 */
const noElevation: ElevationSource = { info: () => ({ name: 'none', vertical_datum: 'NAVD88', native_resolution: 'none' }), grid: async () => undefined };
const noTides: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
const noLayers = { layersFor: async () => [] };
const MM = 0.0011;

const slrAt = (lat: number, lon: number) => assessSlrImpact({ point: { lat, lon }, scenario: 'intermediate', planningHorizon: 2070, percentile: '50', radiusKm: 1, includeGeoJson: false, currentYear: 2026 }, { elevation: noElevation, assets: [] });

function boxAround(lat: number, lon: number, half = 0.01) {
  const validation = validateBoundary({ type: 'Polygon', coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]] });
  if (!validation.ok) throw new Error('bad test boundary');
  return validation.boundary;
}
const floodAt = (lat: number, lon: number) => analyzeFlooding({ boundary: boxAround(lat, lon), components: ['tidal', 'surge'], scenarios: ['intermediate'], horizons: [2050], currentYear: 2026 },
  { elevation: noElevation, layers: noLayers, tides: noTides, assets: [] });

/**
 * Florida counties whose us-atlas boundary has an arc no other county of the whole United States
 * shares: the shoreline (state lines are shared with Georgia's and Alabama's counties).
 */
function countiesWithShoreline(): Set<string> {
  const file = path.join(path.dirname(require.resolve('us-atlas/package.json')), 'counties-10m.json');
  const topology = JSON.parse(readFileSync(file, 'utf8')) as { objects: { counties: { geometries: { id: string; arcs: unknown }[] } } };
  const arcsOf = (nested: unknown): number[] => (Array.isArray(nested) ? nested.flatMap(arcsOf) : [nested as number]).map((i) => (i < 0 ? ~i : i));
  const uses = new Map<number, number>();
  const geometries = topology.objects.counties.geometries.map((g) => ({ id: String(g.id), arcs: [...new Set(arcsOf(g.arcs))] }));
  for (const g of geometries) for (const arc of g.arcs) uses.set(arc, (uses.get(arc) ?? 0) + 1);
  return new Set(geometries.filter((g) => g.id.startsWith('12') && g.arcs.some((arc) => uses.get(arc) === 1)).map((g) => g.id));
}

describe('current conditions: the sea level of this year, recomputed from TR_local_projections.nc', () => {
  it('the current 100-year surge level stands on the Intermediate rise to 2026, stated with its year (Tampa Bay)', async () => {
    const [lat, lon] = [27.92, -82.45];
    const result = await floodAt(lat, lon);
    const surge = result.components.surge as { current_conditions: { year: number; return_period_years: number; design_water_level_navd88: { m: number }; sea_level_rise_since_2000: { m: number } }[]; results: { return_period_years: number; design_water_level_navd88: { m: number } }[] };
    const current = surge.current_conditions.find((c) => c.return_period_years === 100)!;
    const in2050 = surge.results.find((r) => r.return_period_years === 100)!;
    const [a, b] = twoClosestUsable({ lat, lon });
    const total = (year: number) => (a.w * a.g.total('intermediate', 1, year) + b.w * b.g.total('intermediate', 1, year)) / 1000;
    // Decadal values, linear between them: 2026 is six tenths of the way from 2020 to 2030.
    const rise2026 = total(2020) + 0.6 * (total(2030) - total(2020));
    expect(current.year).toBe(2026);
    expect(Math.abs(current.sea_level_rise_since_2000.m - rise2026)).toBeLessThan(MM);
    expect(rise2026).toBeGreaterThan(0.1);
    // Same fit and base: the two levels differ by the rise between 2026 and 2050 only.
    expect(Math.abs((in2050.design_water_level_navd88.m - current.design_water_level_navd88.m) - (total(2050) - rise2026))).toBeLessThan(MM);
  });
});

describe('1992→2000 rise where the gauge has a data warning, recomputed from TR_regional_projections.nc', () => {
  it.each([['Fort Lauderdale', 26.12, -80.14], ['Daytona Beach', 29.21, -81.02]])('%s: the Southeast region\'s trajectory, not the short record of its coast gauge', async (_name, lat, lon) => {
    const answer = await slrAt(lat, lon);
    const coast = ncGauges().map((g) => ({ g, d: Math.hypot(g.lat - lat, g.lon - lon) })).sort((x, y) => x.d - y.d)[0]!.g;
    expect(coast.geq30).toBe(0);
    const own = (coast.trajectory(1, 2000) - coast.trajectory(1, 1992)) / 1000;
    expect(own).toBeLessThan(0);
    expect(Math.abs(answer.datum_epoch.rise_1992_to_2000.m - regionalTrajectoryRise('SE'))).toBeLessThan(0.0001);
    expect(answer.datum_epoch.rise_1992_to_2000.m).toBeGreaterThan(0.028);
  });
});

describe('inland is inland: counties without shoreline, from the Census boundaries', () => {
  const shoreline = countiesWithShoreline();

  it('finds Orange County without shoreline and Duval, Monroe and Pinellas with it', () => {
    expect(shoreline.has('12095')).toBe(false);
    for (const fips of ['12031', '12087', '12103']) expect(shoreline.has(fips)).toBe(true);
  });

  it('downtown Orlando: slr-impact says inland and gives no ground, depth or area, with the county named', async () => {
    const answer = await slrAt(28.5383, -81.3792);
    expect(answer.location_setting.setting).toBe('inland');
    expect(answer.location_setting.note).toContain('Orange County reaches no coast');
    expect(answer.water_depth).toBeNull();
    expect(answer.inundation_area).toBeNull();
    expect(answer.existing_water).toBeNull();
  });

  it('downtown Orlando: flood-analysis applies neither tidal flooding nor surge', async () => {
    const result = await floodAt(28.5383, -81.3792);
    expect(result.boundary.counties.map((c) => c.fips)).toEqual(['12095']);
    for (const name of ['tidal', 'surge']) {
      expect(result.components[name]).toMatchObject({ status: 'not_applicable', setting: 'inland' });
      expect(result.components[name]).not.toHaveProperty('results');
    }
  });

  it('Palatka, on the tidal St. Johns in Putnam County (no shoreline): not called inland, its tide station stands there', async () => {
    expect(shoreline.has('12107')).toBe(false);
    const answer = await slrAt(29.6486, -81.6376);
    expect(answer.location_setting.setting).toBe('unknown');
    expect(answer.mhhw_source).toMatchObject({ kind: 'noaa_station', station: { noaa_id: '8720774' } });
  });
});
