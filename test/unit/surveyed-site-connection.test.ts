import type { ElevationGrid } from '../../shared/domain/hazards/elevation';
import { floodModel, reachesSite, siteDepth, surveyedSiteCell } from '../../shared/domain/hazards/inundation';

/**
 * A surveyed asset stands on its own ground: the model cell it falls in may be a roof or a berm
 * higher than the water, while water standing in the cells beside it reaches it. Hand-made grids
 * (metres NAVD88, mean sea level 0): the sea in column 0, low land at 0.5 m, a 3 m cell under the asset.
 */
function grid(rows: number[][]): ElevationGrid {
  return { values: Float32Array.from(rows.flat()), width: rows[0]!.length, height: rows.length, west: -82, north: 27, cellLon: 0.001, cellLat: 0.001, verticalDatum: 'NAVD88', source: 'hand-made' };
}

const LEVEL = 1.9;
const SURVEYED_GROUND = 0.98;

describe('surveyed assets connected through the model around them', () => {
  it('reaches an asset on a high cell from the connected low land beside it', () => {
    const model = floodModel(grid([
      [-1, 0.5, 0.5, 0.5, 0.5],
      [-1, 0.5, 0.5, 0.5, 0.5],
      [-1, 0.5, 0.5, 3.0, 0.5],
      [-1, 0.5, 0.5, 0.5, 0.5],
    ]), 0);
    const own = 2 * 5 + 3;
    expect(reachesSite(model, own, LEVEL)).toBe(false);
    const cell = surveyedSiteCell(model, own);
    expect(model.grid.values[cell]).toBe(0.5);
    expect(siteDepth(model, cell, SURVEYED_GROUND, LEVEL)).toEqual({ depth_m: LEVEL - SURVEYED_GROUND, connected: true });
  });

  it('takes the open water beside an asset on the shore', () => {
    const model = floodModel(grid([
      [-1, 2.5, 2.5],
      [-1, 2.5, 2.5],
      [-1, 2.5, 2.5],
    ]), 0);
    const cell = surveyedSiteCell(model, 1 * 3 + 1);
    expect(model.water[cell]).toBe(1);
    expect(siteDepth(model, cell, SURVEYED_GROUND, LEVEL).connected).toBe(true);
  });

  it('leaves an asset cut off when every cell around it is cut off below the level', () => {
    // The low land around the asset is ringed by a 2.5 m wall: water at 1.9 m reaches none of it.
    const model = floodModel(grid([
      [-1, 2.5, 2.5, 2.5, 2.5, 2.5],
      [-1, 2.5, 0.5, 0.5, 0.5, 2.5],
      [-1, 2.5, 0.5, 3.0, 0.5, 2.5],
      [-1, 2.5, 0.5, 0.5, 0.5, 2.5],
      [-1, 2.5, 2.5, 2.5, 2.5, 2.5],
    ]), 0);
    const cell = surveyedSiteCell(model, 2 * 6 + 3);
    expect(siteDepth(model, cell, SURVEYED_GROUND, LEVEL)).toEqual({ depth_m: 0, connected: false });
    // Above the wall it is reached.
    expect(siteDepth(model, cell, SURVEYED_GROUND, 2.6).connected).toBe(true);
  });
});
