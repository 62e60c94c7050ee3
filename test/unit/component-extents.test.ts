import { analyzeFlooding } from '../../shared/domain/hazards/flood-analysis';
import { ComponentExtentSchema } from '../../shared/schemas/hazards';
import { acresWhere, expectAcresWithin, wholeGridSource } from '../helpers/test-grid';
import { colLon, noTides, PIT_FRAME, pitGridBoundary, pitGround, pitStorm, rowLat } from '../helpers/pit-grid';

/**
 * Each component's extent on the pit grid (see pit-grid.ts): a 2 m runoff fills the pit cell to its
 * lowest rim (2.6 m): rainfall ponds on that one cell, 1.1 m deep, and nowhere else (the slope drains
 * to the bay). Tidal and surge flood the slope's columns below their level; compound is the surge's slope plus the pit (the pit's rim stands above
 * both coastal levels here, asserted below).
 */
const ACRES_PER_M2 = 1 / 4046.8564224;
const within = expectAcresWithin(0.005);

type Answer = { components: Record<string, { results: Record<string, unknown>[]; ponded_area?: { km2: number; acres: number } }>; component_extents?: unknown[] };

async function analyse(includeExtents: boolean, components: ('tidal' | 'surge' | 'rainfall' | 'compound')[] = ['tidal', 'surge', 'rainfall', 'compound']) {
  return await analyzeFlooding(
    { boundary: pitGridBoundary(), components, scenarios: ['intermediate', 'high'], horizons: [2050], currentYear: 2026, rainfall: pitStorm, includeExtents },
    { elevation: wholeGridSource(PIT_FRAME, pitGround, { name: 'Pit test grid' }), layers: { layersFor: async () => [] }, tides: noTides, assets: [] },
  ) as unknown as Answer;
}

describe('component extents of a flood analysis', () => {
  it('map tidal, surge and compound per scenario × horizon and the storm\'s ponding, with the areas the components report', async () => {
    const answer = await analyse(true);
    const extents = answer.component_extents!.map((e) => ComponentExtentSchema().parse(e));
    expect(extents.map((e) => [e.component, e.scenario, e.planning_horizon])).toEqual([
      ['tidal', 'high', 2050], ['tidal', 'intermediate', 2050],
      ['surge', 'high', 2050], ['surge', 'intermediate', 2050],
      ['rainfall', null, null],
      ['compound', 'high', 2050], ['compound', 'intermediate', 2050],
    ]);

    const rainfall = extents.find((e) => e.component === 'rainfall')!;
    expect(rainfall.storm).toEqual({ return_period_years: 100, depth_mm: 2000, duration_h: 24 });
    expect(rainfall.max_depth_m).toBeCloseTo(1.1, 3);
    within(rainfall.area_m2 * ACRES_PER_M2, acresWhere(PIT_FRAME, (row, col) => row === 20 && col === 30));
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
      const slopeBelow = (lvl: number) => (row: number, col: number) => col >= 5 && !(row === 20 && col === 30) && pitGround(row, col) < lvl;
      const tidal = extents.find((e) => e.component === 'tidal' && e.scenario === scenario)!;
      const surge = extents.find((e) => e.component === 'surge' && e.scenario === scenario)!;
      const compound = extents.find((e) => e.component === 'compound' && e.scenario === scenario)!;
      within(tidal.area_m2 * ACRES_PER_M2, acresWhere(PIT_FRAME, slopeBelow(tidalLevel)));
      expect(tidal.max_depth_m).toBeCloseTo(tidalLevel - 0.2, 2);
      expect(tidal.storm).toBeNull();
      within(surge.area_m2 * ACRES_PER_M2, acresWhere(PIT_FRAME, slopeBelow(surgeLevel)));
      expect(surge.max_depth_m).toBeCloseTo(surgeLevel - 0.2, 2);
      within(compound.area_m2 * ACRES_PER_M2, acresWhere(PIT_FRAME, (row, col) => slopeBelow(surgeLevel)(row, col) || (row === 20 && col === 30)));
      expect(compound.max_depth_m).toBeCloseTo(Math.max(1.1, surgeLevel - 0.2), 2);
      expect(compound.storm).toEqual(rainfall.storm);
      // The compound answer reports the same cells' area for the combination.
      const combined = (answer.components.compound!.results as { scenario: string; combined: { extent: { km2: number } } }[]).find((r) => r.scenario === scenario)!.combined;
      expect(combined.extent.km2).toBe(compound.area_km2);
    }
  });

  it('map only the components asked for (compound still computes the coastal levels it needs)', async () => {
    const answer = await analyse(true, ['compound']);
    expect((answer.component_extents as { component: string }[]).map((e) => e.component)).toEqual(['compound', 'compound']);
  });

  it('are absent without include_extents', async () => {
    expect((await analyse(false)).component_extents).toBeUndefined();
  });
});
