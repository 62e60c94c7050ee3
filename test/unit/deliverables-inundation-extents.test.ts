import type { ElevationGrid } from '../../shared/domain/hazards/elevation';
import type { AnalysedSurfaces } from '../../shared/domain/hazards/flood-analysis';
import type { WaterSurface } from '../../shared/domain/hazards/flood-surfaces';
import { inundationExtents } from '../../shared/domain/hazards/inundation-extents';

/**
 * Inundation extents on a 4 × 3 grid whose every cell is known: which cells flood under the
 * envelope of the components per scenario and horizon, what area that is (cell areas computed
 * here from the latitude, on a sphere of 111,320 m per degree), and what is never counted (open
 * water, cells outside the boundary, cells without elevation).
 */

const CELL = 0.001;
//   ground (m NAVD88), row by row from the north; NaN: no elevation
const GROUND = [
  0.2, 0.5, 1.0, 2.0,
  0.1, 0.4, NaN, 3.0,
  -0.5, 0.3, 0.9, 1.5,
];
const grid: ElevationGrid = {
  values: Float32Array.from(GROUND), width: 4, height: 3, west: -81.8, north: 24.56, cellLon: CELL, cellLat: CELL, verticalDatum: 'NAVD88', source: 'test',
} as ElevationGrid;
// Cell 8 is open water; cell 3 lies outside the boundary.
const water = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
const mask = Uint8Array.from([1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
const flat = (level: number): WaterSurface => ({ levelAtCell: () => level, levelAtPoint: () => level, uniformLevel: level });

const cellArea = (index: number) => {
  const lat = grid.north - Math.floor(index / grid.width) * CELL;
  return CELL * 111_320 * CELL * 111_320 * Math.cos((lat * Math.PI) / 180);
};
const areaOf = (cells: number[]) => cells.reduce((sum, i) => sum + cellArea(i), 0);

function analysed(surfaces: [string, WaterSurface][]): AnalysedSurfaces {
  return { model: { grid, water, spill: new Float32Array(12) }, mask, sites: [], surfaces: new Map(surfaces), mhhwAt: () => 0 };
}

describe('inundation extents', () => {
  it('floods the land cells inside the boundary below the highest level of the components, per scenario and horizon', () => {
    const extents = inundationExtents(analysed([
      ['tidal|intermediate|2076', flat(0.45)],
      ['surge|intermediate|2076', flat(0.95)],
      ['tidal|intermediate_low|2046', flat(0.35)],
      ['asset_points|intermediate|2076', flat(99)],
    ]));
    expect(extents.map((e) => [e.scenario, e.planning_horizon, e.components])).toEqual([
      ['intermediate_low', 2046, ['tidal']],
      ['intermediate', 2076, ['surge', 'tidal']],
    ]);
    // 0.35 m: cells 0 (0.2), 4 (0.1), 9 (0.3). 0.95 m (the surge envelope): also 1, 5, 10; never
    // 3 (outside), 6 (no elevation), 8 (open water), 2, 7 and 11 (higher ground).
    expect(extents[0]!.area_m2).toBeCloseTo(areaOf([0, 4, 9]), 3);
    expect(extents[1]!.area_m2).toBeCloseTo(areaOf([0, 1, 4, 5, 9, 10]), 3);
    expect(extents[1]!.area_km2).toBe(Math.round(areaOf([0, 1, 4, 5, 9, 10]) / 1e4) / 100);
    expect(extents[1]!.geometry.type).toBe('MultiPolygon');
    expect(extents[1]!.geometry.coordinates.length).toBeGreaterThan(0);
  });

  it('a level equal to the ground floods nothing, and without a model or mask there are no extents', () => {
    // The grid holds float32: this level is cell 4's ground exactly, and the lowest land inside the boundary.
    const [extent] = inundationExtents(analysed([['tidal|high|2100', flat(Math.fround(0.1))]]));
    expect(extent!.area_m2).toBe(0);
    expect(extent!.geometry.coordinates).toEqual([]);
    expect(inundationExtents({ ...analysed([['tidal|high|2100', flat(5)]]), model: undefined })).toEqual([]);
    expect(inundationExtents({ ...analysed([['tidal|high|2100', flat(5)]]), mask: undefined })).toEqual([]);
  });

  it('never counts a cell outside the boundary, however deep it lies', () => {
    // 2.5 m covers every land cell but 7 (3.0 m); cell 3 (2.0 m) lies outside the boundary.
    const [extent] = inundationExtents(analysed([['surge|high|2100', flat(2.5)]]));
    expect(extent!.area_m2).toBeCloseTo(areaOf([0, 1, 2, 4, 5, 9, 10, 11]), 3);
  });

  it('orders horizons first, then scenarios by name, for rainfall as for the others', () => {
    const extents = inundationExtents(analysed([
      ['rainfall|low|2076', flat(1)], ['rainfall|high|2046', flat(1)], ['rainfall|high|2076', flat(1)],
    ]));
    expect(extents.map((e) => `${e.planning_horizon} ${e.scenario}`)).toEqual(['2046 high', '2076 high', '2076 low']);
  });
});
