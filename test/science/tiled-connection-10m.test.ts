import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { syntheticWindow } from '../helpers/synthetic-surface';
import { cutIntoTiles, tiledSpill } from '../helpers/tile-cuts';

/**
 * The exactness of the tiled connection at the scale of a lidar tile set: a 10⁷-cell seeded
 * surface (3,163 cells a side) traced as one grid and as tiles cut three ways; the spill level of
 * every cell is the same (test/unit/tiled-connection.test.ts checks the same at 10⁶ against a
 * breadth-first reference written from the definition).
 */
const side = 3163;

describe('tidal connection across tiles at 10⁷ cells', () => {
  const surface = syntheticWindow({ width: side, height: side, seed: 11 }, 0, 0, side, side);
  const single = spillLevels(surface, (i) => surface.water[i] === 1);

  it.each([
    ['2 × 2', [0, 1582, side], [0, 1581, side]],
    ['3 × 5', [0, 1054, 2108, side], [0, 632, 1265, 1897, 2530, side]],
    ['uneven', [0, 1, 900, 2999, side], [0, 2047, 2048, 3100, side]],
  ])('equals the single grid cut %s, cell for cell', (_name, rows, cols) => {
    const spill = tiledSpill(cutIntoTiles(surface.values, surface.water, side, rows, cols), side, side);
    let differing = 0, reached = 0;
    for (let i = 0; i < spill.length; i++) {
      if (spill[i] !== single[i]) differing++;
      if (surface.water[i] !== 1 && spill[i]! < 1) reached++;
    }
    expect(differing).toBe(0);
    expect(reached).toBeGreaterThan(100_000);
  });
});
