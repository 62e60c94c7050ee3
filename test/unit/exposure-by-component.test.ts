import { assetExposures, governingComponent, governingOverall } from '../../shared/domain/hazards/asset-exposure';
import type { AnalysedSurfaces, AssetSite } from '../../shared/domain/hazards/flood-analysis';
import type { WaterSurface } from '../../shared/domain/hazards/flood-surfaces';
import type { ElevationGrid } from '../../shared/domain/hazards/elevation';

/**
 * A one-row grid of five cells: sea, a bank at 1.0 m, a pit at 0.5 m, a bank at 1.0 m, a hill at
 * 3.0 m (NAVD88). Tidal water stands at 1.2 m and reaches the first bank only; the 100-year surge
 * at 2.0 m reaches it too. The storm ponds 0.4 m in the pit and 0.3 m on the second bank; held
 * against the sea, 0.9 m in the pit and 0.3 m on the second bank. Each asset's depths follow by hand.
 */
const grid: ElevationGrid = {
  values: new Float32Array([0, 1, 0.5, 1, 3]), width: 5, height: 1, west: -82, north: 27, cellLon: 0.001, cellLat: 0.001,
  verticalDatum: 'NAVD88', source: 'hand-built', water: new Uint8Array([1, 0, 0, 0, 0]),
};
const reachingCell = (level: number, cells: number[]): WaterSurface => ({
  levelAtCell: () => level,
  levelAtPoint: (_lon, _lat, cell) => (cell !== undefined && cells.includes(cell) ? level : -Infinity),
  uniformLevel: level,
});
const site = (id: string, cell: number | undefined, ground: number | undefined): AssetSite => ({
  asset: { asset_id: id, name: id, category: 'critical_infrastructure', lat: 27, lon: cell === undefined ? -81 : -82 + cell * 0.001 }, cell, ground,
});
const storm = { depth_mm: 250, duration_h: 24, return_period_years: 100, source: 'NOAA Atlas 14, hand-entered' };
const compoundDepth = new Float32Array([0, 0, 0.9, 0.3, 0]);
const sites = [site('bank', 1, 1), site('pit', 2, 0.5), site('raised-bank', 3, 1.1), site('hill', 4, 3), site('no-ground', undefined, undefined)];
const analysed = (ponding: boolean, surfaces: [string, WaterSurface][]): AnalysedSurfaces => ({
  model: { grid, spill: new Float32Array([0, 0.9, 1, 1, 3]), water: grid.water! },
  mask: undefined, sites, mhhwAt: () => 0,
  surfaces: new Map(surfaces),
  ...(ponding ? { ponding: { storm, rainfall: new Float32Array([0, 0, 0.4, 0.3, 0]), compoundAt: (_s: string, _y: number, cell: number) => compoundDepth[cell], scenarioHorizons: [{ scenario: 'intermediate' as const, year: 2050 }] } } : {}),
});
const coastal: [string, WaterSurface][] = [['tidal|intermediate|2050', reachingCell(1.2, [1])], ['surge|intermediate|2050', reachingCell(2, [1])]];
const meta = { analysisId: 'fa-1', assessmentId: null, analysedAt: '2026-01-01T00:00:00Z' };

describe('each component\'s depth at an asset', () => {
  const exposures = assetExposures(analysed(true, coastal), meta);
  const entry = (id: string) => {
    const byComponent = exposures.get(id)!.by_component;
    expect(byComponent).toHaveLength(1);
    return byComponent[0]!;
  };

  it.each([
    // id, tidal, surge, rainfall, compound, governing
    ['bank', 0.2, 1, 0, 1, 'surge'],
    ['pit', 0, 0, 0.4, 0.9, 'compound'],
    // The ponded surface 1.0 + 0.3 stands 0.2 m above the asset's own 1.1 m; compound gives the same: rainfall governs.
    ['raised-bank', 0, 0, 0.2, 0.2, 'rainfall'],
    ['hill', 0, 0, 0, 0, null],
    ['no-ground', null, null, null, null, null],
  ])('%s: tidal %s m, surge %s m, rainfall %s m, compound %s m, governed by %s', (id, tidal, surge, rainfall, compound, governing) => {
    const e = entry(id as string);
    expect(e.depth_m).toEqual({ tidal, surge, rainfall, compound });
    expect(e.governing_component).toBe(governing);
    expect(e).toMatchObject({ scenario: 'intermediate', planning_horizon: 2050, storm: { return_period_years: 100, depth_mm: 250, duration_h: 24 } });
  });

  it('gives the depths in feet too', () => {
    expect(entry('pit').depth_ft).toEqual({ tidal: 0, surge: 0, rainfall: 1.31, compound: 2.95 });
  });

  it('without a storm on the grid, compound is the envelope of two components and null with one', () => {
    const envelope = assetExposures(analysed(false, coastal), meta).get('bank')!.by_component[0]!;
    expect(envelope).toMatchObject({ storm: null, depth_m: { tidal: 0.2, surge: 1, rainfall: null, compound: 1 }, governing_component: 'surge' });
    const single = assetExposures(analysed(false, coastal.slice(0, 1)), meta).get('bank')!.by_component[0]!;
    expect(single.depth_m).toEqual({ tidal: 0.2, surge: null, rainfall: null, compound: null });
    expect(single.governing_component).toBe('tidal');
  });
});

describe('the depth per scenario and horizon, from every component', () => {
  const exposures = assetExposures(analysed(true, coastal), meta);

  it.each([
    // id, depth m, water surface NAVD88 m, governing, status: the deepest of the four above (by hand)
    ['bank', 1, 2, 'surge', 'exposed'],
    // Coastal water never reaches the pit; the storm held against the sea stands 0.9 m deep: 0.5 + 0.9.
    ['pit', 0.9, 1.4, 'compound', 'exposed'],
    ['raised-bank', 0.2, 1.3, 'rainfall', 'exposed'],
    ['hill', 0, null, null, 'not_exposed'],
  ])('%s: %s m under %s m, governed by %s', (id, depth, level, governing, status) => {
    const exposure = exposures.get(id as string)!;
    expect(exposure.depths).toEqual([expect.objectContaining({ depth_m: depth, water_level_navd88_m: level, governing_component: governing })]);
    expect(exposure.status).toBe(status);
    expect(exposure.max_depth_ft).toBe(Math.round((depth as number) / 0.3048 * 100) / 100);
  });

  it('count a storm ponding on the grid as the rainfall component, without any coastal level', () => {
    const withStorm = analysed(true, []);
    const rainOnly = assetExposures({ ...withStorm, ponding: { ...withStorm.ponding!, compoundAt: undefined } }, meta);
    const pit = rainOnly.get('pit')!;
    expect(pit.components).toEqual(['rainfall']);
    expect(pit.depths).toEqual([{ scenario: 'intermediate', planning_horizon: 2050, water_level_navd88_m: 0.9, depth_m: 0.4, depth_ft: 1.31, governing_component: 'rainfall' }]);
    expect(pit).toMatchObject({ status: 'exposed', first_exposed_year: 2050, max_depth_ft: 1.31 });
    expect(rainOnly.get('hill')!).toMatchObject({ status: 'not_exposed', reason: 'not_connected', max_depth_ft: 0 });
  });
});

describe('the governing component', () => {
  it.each([
    [{ tidal: 0.5, surge: 0.5, rainfall: 0.1, compound: 0.5 }, 'tidal'],
    [{ tidal: 0.1, surge: 0.5, rainfall: 0.5, compound: 0.5 }, 'surge'],
    [{ tidal: null, surge: null, rainfall: 0.5, compound: 0.5 }, 'rainfall'],
    [{ tidal: 0, surge: 0.2, rainfall: 0.1, compound: 0.3 }, 'compound'],
    [{ tidal: 0, surge: 0, rainfall: null, compound: 0 }, null],
  ])('of %j is %s', (depths, expected) => {
    expect(governingComponent(depths)).toBe(expected);
  });
});

describe('the component governing an asset over all scenarios and horizons', () => {
  it('is that of its deepest flooding, null without depth', () => {
    const entry = (governing: 'tidal' | 'surge' | 'rainfall' | 'compound' | null, depth: number) => ({
      governing_component: governing, depth_m: { tidal: 0, surge: 0, rainfall: 0, compound: 0, ...(governing ? { [governing]: depth } : {}) },
    });
    expect(governingOverall([entry('tidal', 0.3), entry('compound', 0.9), entry('surge', 0.5)])).toBe('compound');
    expect(governingOverall([entry(null, 0), entry('rainfall', 0.1)])).toBe('rainfall');
    expect(governingOverall([entry(null, 0)])).toBeNull();
  });
});
