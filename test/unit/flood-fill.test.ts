import type { ElevationGrid } from '../../shared/domain/hazards/elevation';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { gridOfPosts } from '../helpers/test-grid';

/**
 * The priority flood against a reference written here from its definition — the lowest level at
 * which a cell connects (8-neighbour) to open water — computed by plain relaxation until nothing
 * changes, a different algorithm from the heap the code uses.
 */

const gridOf = (width: number, height: number, value: (row: number, col: number) => number, extra: Partial<ElevationGrid> = {}) => gridOfPosts({ west: -82.5, north: 27.9, cell: 0.001 }, width, height, value, extra);

function referenceSpill(grid: ElevationGrid, isWater: (i: number) => boolean): Float32Array {
  const { width, height, values } = grid;
  const spill = new Float32Array(width * height).fill(Infinity);
  for (let i = 0; i < spill.length; i++) if (!Number.isNaN(values[i]!) && isWater(i)) spill[i] = values[i]!;
  // Sweeps alternate forwards and backwards so a level travels the grid in few sweeps either way.
  for (let changed = true, sweep = 0; changed; sweep++) {
    changed = false;
    for (let k = 0; k < spill.length; k++) {
      const i = sweep % 2 === 0 ? k : spill.length - 1 - k;
      if (Number.isNaN(values[i]!)) continue;
      const row = Math.floor(i / width);
      const col = i % width;
      for (let r = row - 1; r <= row + 1; r++) {
        for (let c = col - 1; c <= col + 1; c++) {
          if (r < 0 || c < 0 || r >= height || c >= width || (r === row && c === col)) continue;
          const through = Math.max(spill[r * width + c]!, values[i]!);
          if (through < spill[i]!) { spill[i] = through; changed = true; }
        }
      }
    }
  }
  return spill;
}

/** A deterministic rough surface (−1 to 7 m) with gaps: a seeded linear congruential generator. */
function rough(width: number, height: number, seed: number, gapShare = 0.05): ElevationGrid {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return gridOf(width, height, () => {
    const r = next();
    return r < gapShare ? Number.NaN : Math.round(next() * 80 - 10) / 10;
  });
}

const waterAtOrBelow = (grid: ElevationGrid, level: number) => (i: number) => grid.values[i]! <= level;

describe('spill levels', () => {
  it.each([3, 17, 99])('match the reference on a rough surface with gaps (seed %i)', (seed) => {
    const grid = rough(37, 23, seed);
    const isWater = waterAtOrBelow(grid, -0.5);
    const expected = referenceSpill(grid, isWater);
    expect(expected.some((v) => Number.isFinite(v) && v > 0)).toBe(true);
    expect(Array.from(spillLevels(grid, isWater))).toEqual(Array.from(expected));
  });

  it('match the reference on a 300 × 300 grid', () => {
    const grid = rough(300, 300, 7, 0.02);
    const isWater = waterAtOrBelow(grid, 1);
    expect(Array.from(spillLevels(grid, isWater))).toEqual(Array.from(referenceSpill(grid, isWater)));
  });

  it('match the reference when more cells start as water than the heap first holds (75,000 of 90,000)', () => {
    const land = rough(300, 300, 11, 0.02);
    const grid = gridOf(300, 300, (row, col) => (col < 250 ? -1 : land.values[row * 300 + col]!));
    const isWater = (i: number) => i % 300 < 250;
    expect(Array.from(spillLevels(grid, isWater))).toEqual(Array.from(referenceSpill(grid, isWater)));
  });

  it('fill a walled pit only from the wall\'s height, and never a cell without data', () => {
    // Sea in column 0; a wall of 3 m around a pit at 0.5 m in columns 2–6; a gap in the pit.
    const grid = gridOf(9, 7, (row, col) => {
      if (col === 0) return -1;
      if (row === 3 && col === 4) return Number.NaN;
      const wall = ((row === 1 || row === 5) && col >= 2 && col <= 6) || ((col === 2 || col === 6) && row >= 1 && row <= 5);
      if (wall) return 3;
      return row > 1 && row < 5 && col > 2 && col < 6 ? 0.5 : 1;
    });
    const spill = spillLevels(grid, (i) => i % 9 === 0);
    expect(spill[2 * 9 + 3]).toBe(3);
    expect(spill[3 * 9 + 4]).toBe(Infinity);
    expect(spill[0 * 9 + 4]).toBe(1);
    expect(spill[3 * 9 + 0]).toBe(-1);
  });

  it('connect diagonally, and not across the grid\'s east edge to the next row\'s west edge', () => {
    // Water only at the north-west corner; a diagonal channel at 0 m through 2 m ground. Row 0 ends
    // low (0 m) in the east, and row 1 starts low (0 m) beside the water: they touch only by wrapping.
    const grid = gridOf(5, 4, (row, col) => {
      if (row === 0 && col === 0) return -1;
      if (row === col || (row === 0 && col === 4) || (row === 1 && col === 0)) return 0;
      return 2;
    });
    const spill = spillLevels(grid, (i) => i === 0);
    expect([5 + 1, 10 + 2, 15 + 3, 5].map((i) => spill[i])).toEqual([0, 0, 0, 0]);
    expect(spill[4]).toBe(2);
  });
});
