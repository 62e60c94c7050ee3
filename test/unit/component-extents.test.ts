import type { Polygon } from 'geojson';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { analyzeFlooding } from '../../shared/domain/hazards/flood-analysis';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { ComponentExtentSchema } from '../../shared/schemas/hazards';
import { acresWhere, colLonOf, expectAcresWithin, rowLatOf, wholeGridSource, type GridFrame } from '../helpers/test-grid';

/**
 * Each component's extent on a graded grid near Tampa Bay: five columns of bay at −1 m, then land
 * rising 0.1 m a column from 0.2 m, with one pit cell (row 20, column 30) cut to 1.5 m among
 * 2.6–2.8 m ground. A 2 m runoff fills the pit to its lowest rim (2.6 m): rainfall ponds on that one
 * cell, 1.1 m deep, and nowhere else (the slope drains to the bay). Tidal and surge flood the slope's
 * columns below their level; compound is the surge's slope plus the pit (the pit's rim stands above
 * both coastal levels here, asserted below).
 */
const FRAME: GridFrame = { west: -82.47, north: 27.92, cell: 0.001, size: 40 };
const colLon = colLonOf(FRAME);
const rowLat = rowLatOf(FRAME);
const groundOf = (row: number, col: number) => (row === 20 && col === 30 ? 1.5 : col < 5 ? -1 : 0.2 + 0.1 * (col - 5));
const edge = (i: number) => i - 0.5;
const ring = [[colLon(edge(0)), rowLat(edge(40))], [colLon(edge(40)), rowLat(edge(40))], [colLon(edge(40)), rowLat(edge(0))], [colLon(edge(0)), rowLat(edge(0))], [colLon(edge(0)), rowLat(edge(40))]];
const noTides: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
const storm = { depth_mm: 2000, duration_h: 24, return_period_years: 100, source: 'stated for the test' };
const ACRES_PER_M2 = 1 / 4046.8564224;
const within = expectAcresWithin(0.005);

type Answer = { components: Record<string, { results: Record<string, unknown>[]; ponded_area?: { km2: number; acres: number } }>; component_extents?: unknown[] };

async function analyse(includeExtents: boolean) {
  const validation = validateBoundary({ type: 'Polygon', coordinates: [ring] } as Polygon);
  if (!validation.ok) throw new Error('bad test boundary');
  return await analyzeFlooding(
    { boundary: validation.boundary, components: ['tidal', 'surge', 'rainfall', 'compound'], scenarios: ['intermediate', 'high'], horizons: [2050], currentYear: 2026, rainfall: storm, includeExtents },
    { elevation: wholeGridSource(FRAME, groundOf, { name: 'Pit test grid' }), layers: { layersFor: async () => [] }, tides: noTides, assets: [] },
  ) as unknown as Answer;
}

describe('component extents of a flood analysis', () => {
  it('map tidal, surge and compound per scenario × horizon and the storm\'s ponding, with the areas the components report', async () => {
    const answer = await analyse(true);
    const extents = answer.component_extents!.map((e) => ComponentExtentSchema.parse(e));
    expect(extents.map((e) => [e.component, e.scenario, e.planning_horizon])).toEqual([
      ['tidal', 'high', 2050], ['tidal', 'intermediate', 2050],
      ['surge', 'high', 2050], ['surge', 'intermediate', 2050],
      ['rainfall', null, null],
      ['compound', 'high', 2050], ['compound', 'intermediate', 2050],
    ]);

    const rainfall = extents.find((e) => e.component === 'rainfall')!;
    expect(rainfall.storm).toEqual({ return_period_years: 100, depth_mm: 2000, duration_h: 24 });
    expect(rainfall.max_depth_m).toBeCloseTo(1.1, 3);
    within(rainfall.area_m2 * ACRES_PER_M2, acresWhere(FRAME, (row, col) => row === 20 && col === 30));
    // The same cells and count as the rainfall component's ponded area.
    expect(answer.components.rainfall!.ponded_area!.km2).toBe(rainfall.area_km2);
    expect(answer.components.rainfall!.ponded_area!.acres).toBe(Math.round(rainfall.area_m2 * ACRES_PER_M2 * 100) / 100);
    // One square around the pit cell, its sides on the cell edges.
    const [pitRing] = rainfall.geometry.coordinates.flat();
    expect(rainfall.geometry.coordinates).toHaveLength(1);
    const lons = pitRing!.map(([lon]) => lon!);
    const lats = pitRing!.map(([, lat]) => lat!);
    expect(Math.min(...lons)).toBeCloseTo(colLon(29.5), 6);
    expect(Math.max(...lons)).toBeCloseTo(colLon(30.5), 6);
    expect(Math.min(...lats)).toBeCloseTo(rowLat(20.5), 6);
    expect(Math.max(...lats)).toBeCloseTo(rowLat(19.5), 6);

    for (const scenario of ['intermediate', 'high'] as const) {
      const level = (component: 'tidal' | 'surge') => (answer.components[component]!.results as { scenario: string; return_period_years?: number; design_water_level_navd88: { m: number } }[])
        .find((r) => r.scenario === scenario && (r.return_period_years ?? 100) === 100)!.design_water_level_navd88.m;
      const tidalLevel = level('tidal');
      const surgeLevel = level('surge');
      // The pit stays cut off from the sea at both levels: the slope alone floods.
      expect(surgeLevel).toBeLessThan(2.6);
      const slopeBelow = (lvl: number) => (row: number, col: number) => col >= 5 && !(row === 20 && col === 30) && groundOf(row, col) < lvl;
      const tidal = extents.find((e) => e.component === 'tidal' && e.scenario === scenario)!;
      const surge = extents.find((e) => e.component === 'surge' && e.scenario === scenario)!;
      const compound = extents.find((e) => e.component === 'compound' && e.scenario === scenario)!;
      within(tidal.area_m2 * ACRES_PER_M2, acresWhere(FRAME, slopeBelow(tidalLevel)));
      expect(tidal.max_depth_m).toBeCloseTo(tidalLevel - 0.2, 2);
      expect(tidal.storm).toBeNull();
      within(surge.area_m2 * ACRES_PER_M2, acresWhere(FRAME, slopeBelow(surgeLevel)));
      expect(surge.max_depth_m).toBeCloseTo(surgeLevel - 0.2, 2);
      within(compound.area_m2 * ACRES_PER_M2, acresWhere(FRAME, (row, col) => slopeBelow(surgeLevel)(row, col) || (row === 20 && col === 30)));
      expect(compound.max_depth_m).toBeCloseTo(Math.max(1.1, surgeLevel - 0.2), 2);
      expect(compound.storm).toEqual(rainfall.storm);
      // The compound answer reports the same cells' area for the combination.
      const combined = (answer.components.compound!.results as { scenario: string; combined: { extent: { km2: number } } }[]).find((r) => r.scenario === scenario)!.combined;
      expect(combined.extent.km2).toBe(compound.area_km2);
    }
  });

  it('are absent without include_extents', async () => {
    expect((await analyse(false)).component_extents).toBeUndefined();
  });
});
