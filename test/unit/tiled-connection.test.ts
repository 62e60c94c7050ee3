import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { rimCells, settleTile } from '../../shared/domain/hazards/tiled-connection';
import { syntheticWindow } from '../helpers/synthetic-surface';
import { cutIntoTiles, tiledSpill } from '../helpers/tile-cuts';

/**
 * Tidal connection over a model cut into tiles equals the connection over the single grid, cell
 * for cell, however it is cut. The reference for one level is a breadth-first search written here
 * from the definition (land below the level, 8-connected to open water through land below it).
 */

function connectedBelow(values: Float32Array, water: Uint8Array, width: number, height: number, level: number): Uint8Array {
  const reached = new Uint8Array(values.length);
  const queue: number[] = [];
  for (let i = 0; i < values.length; i++) if (water[i] === 1 && values[i]! < level) { reached[i] = 1; queue.push(i); }
  while (queue.length > 0) {
    const i = queue.pop()!;
    const row = Math.floor(i / width), col = i % width;
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = col - 1; c <= col + 1; c++) {
        if (r < 0 || c < 0 || r >= height || c >= width) continue;
        const j = r * width + c;
        if (reached[j] === 1 || !(values[j]! < level)) continue;
        reached[j] = 1;
        queue.push(j);
      }
    }
  }
  return reached;
}

const mismatches = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
};

describe('tidal connection across tiles', () => {
  it('lists a rim clockwise, each cell once, for strips and single cells too', () => {
    expect([...rimCells(3, 3)]).toEqual([0, 1, 2, 5, 8, 7, 6, 3]);
    expect([...rimCells(4, 1)]).toEqual([0, 1, 2, 3]);
    expect([...rimCells(1, 3)]).toEqual([0, 1, 2]);
    expect([...rimCells(2, 2)]).toEqual([0, 1, 3, 2]);
    expect(rimCells(40, 30).length).toBe(2 * 40 + 2 * 30 - 4);
  });

  it('reaches land through a channel that leaves a tile and comes back into it', () => {
    // A 6 × 6 ridge at 5 m with sea in the north-west corner; a 0.5 m channel runs from the sea
    // east along row 1 into the right-hand tile, down, and back west along row 4 into a hollow
    // in the left-hand tile that the ridge cuts off within that tile.
    const width = 6, height = 6;
    const values = new Float32Array(width * height).fill(5);
    const water = new Uint8Array(width * height);
    values[0] = -1; water[0] = 1;
    for (let c = 1; c < 6; c++) values[1 * width + c] = 0.5;
    for (let r = 1; r <= 4; r++) values[r * width + 5] = 0.5;
    for (let c = 1; c < 6; c++) values[4 * width + c] = 0.5;
    values[4 * width + 1] = 0.2;
    for (let c = 0; c < 3; c++) values[2 * width + c] = 5;
    const tiles = cutIntoTiles(values, water, width, [0, 3, 6], [0, 3, 6]);
    const hollow = 4 * width + 1;
    const bottomLeft = tiles[2]!;
    // Alone, the bottom-left tile has no water: the hollow is cut off there.
    expect(settleTile(bottomLeft, new Float32Array(rimCells(3, 3).length).fill(Infinity))[1 * 3 + 1]).toBe(Infinity);
    const spill = tiledSpill(tiles, width, height);
    expect(spill[hollow]).toBe(0.5);
    expect(spill[2 * width + 1]).toBe(5);
  });

  const width = 1000, height = 1000;
  const surface = syntheticWindow({ width, height, seed: 7 }, 0, 0, width, height);
  const single = spillLevels(surface, (i) => surface.water[i] === 1);

  it('has a surface with land that floods and low ground cut off from the sea', () => {
    const below1 = connectedBelow(surface.values, surface.water, width, height, 1);
    let connected = 0, cutOff = 0;
    for (let i = 0; i < below1.length; i++) {
      if (surface.water[i] === 1) continue;
      if (below1[i] === 1) connected++;
      else if (surface.values[i]! < 1) cutOff++;
    }
    expect(connected).toBeGreaterThan(10_000);
    expect(cutOff).toBeGreaterThan(1_000);
  });

  it.each([
    ['2 × 2', [0, 500, 1000], [0, 500, 1000]],
    ['3 × 5', [0, 333, 667, 1000], [0, 200, 400, 600, 800, 1000]],
    ['uneven, with strips one cell wide', [0, 1, 318, 319, 777, 1000], [0, 64, 65, 511, 999, 1000]],
  ])('equals the single grid cut %s, cell for cell', (_name, rows, cols) => {
    const spill = tiledSpill(cutIntoTiles(surface.values, surface.water, width, rows, cols), width, height);
    expect(mismatches(spill, single)).toBe(0);
    for (const level of [0.5, 1.5, 3]) {
      const reference = connectedBelow(surface.values, surface.water, width, height, level);
      const tiled = Uint8Array.from(spill, (s) => (s < level ? 1 : 0));
      expect(mismatches(tiled, reference)).toBe(0);
    }
  });
});
