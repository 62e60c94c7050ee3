import { buildPyramid, decodeTile, readWindow, sampleBilinear, tileKey, TILE_SIZE, type BuiltPyramid } from '../../shared/domain/elevation-models/pyramid';
import type { GeoLattice } from '../../shared/domain/elevation-models/reproject';
import type { BBox } from '../../shared/domain/hazards/geo';

/**
 * The tile pyramid on lattices whose every post is known (value = 10 × row + column), so each
 * expectation is written from the lattice, not from the code: tiles and their bytes, the window's
 * edges where a box only touches the model, overview levels, and bilinear sampling at the edges.
 */

const CELL = 0.01;

function lattice(width: number, height: number, options: { water?: boolean; holes?: number[] } = {}): GeoLattice {
  const values = new Float32Array(width * height);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) values[r * width + c] = 10 * r + c;
  for (const i of options.holes ?? []) values[i] = Number.NaN;
  const water = options.water ? new Uint8Array(width * height) : undefined;
  if (water) water[0] = 1;
  return { values, ...(water ? { water } : {}), width, height, west: -81, north: 25, cellLon: CELL, cellLat: CELL, resolution_m: 1000 };
}

const loader = (built: BuiltPyramid) => async (key: string) => built.tiles.get(key)!;
const window = (built: BuiltPyramid, box: BBox, maxCells = 1e9) => readWindow(built.index, box, maxCells, loader(built), 'test');

describe('a small model: one level, one tile', () => {
  it('indexes its box from the first and last posts, and stores one tile with every value and the water flag', () => {
    const built = buildPyramid(lattice(5, 4, { water: true }), 'NAVD88');
    expect(built.index).toMatchObject({
      west: -81, north: 25, resolution_m: 1000, vertical_datum: 'NAVD88', has_water_flag: true,
      levels: [{ level: 0, width: 5, height: 4, cell_lon: CELL, cell_lat: CELL, tiles: ['0-0'] }],
    });
    const [w, s, e, n] = built.index.bbox;
    expect([w, e, n]).toEqual([-81, -81 + 4 * CELL, 25]);
    expect(s).toBeCloseTo(25 - 3 * CELL, 12);
    expect([...built.tiles.keys()]).toEqual([tileKey(0, '0-0')]);
    const tile = decodeTile(built.tiles.get('0/0-0.bin.gz')!);
    expect(tile.values).toHaveLength(TILE_SIZE * TILE_SIZE);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 5; c++) expect(tile.values[r * TILE_SIZE + c]).toBe(10 * r + c);
    // Past the lattice, in the row and below it: no data, no water.
    expect(Number.isNaN(tile.values[5])).toBe(true);
    expect(Number.isNaN(tile.values[4 * TILE_SIZE])).toBe(true);
    expect([tile.water[0], tile.water[1], tile.water[TILE_SIZE]]).toEqual([1, 0, 0]);
    expect(buildPyramid(lattice(5, 4), 'EGM96').index).toMatchObject({ has_water_flag: false, vertical_datum: 'EGM96' });
  });

  it('stores no tile where the lattice has no data, and refuses a damaged tile', () => {
    const empty = buildPyramid(lattice(2, 2, { holes: [0, 1, 2, 3] }), 'NAVD88');
    expect(empty.tiles.size).toBe(0);
    expect(empty.index.levels[0]!.tiles).toEqual([]);
    expect(() => decodeTile(new Uint8Array([31, 139, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(/0 bytes, expected 327680/);
  });

  it('reads the whole model back, and a box that only touches one of its edges as that edge', async () => {
    const built = buildPyramid(lattice(5, 4, { water: true }), 'NAVD88');
    const [mw, ms, me, mn] = built.index.bbox;
    // Where a post lies in a window, and the window's values with data, in order.
    const at = (g: { values: Float32Array; width: number; west: number; north: number }, row: number, col: number) =>
      g.values[Math.round((25 - row * CELL - g.north) / -CELL) * g.width + Math.round((-81 + col * CELL - g.west) / CELL)];
    const data = (g: { values: Float32Array }) => [...g.values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
    const whole = (await window(built, built.index.bbox))!;
    expect([whole.west, whole.north, whole.cellLon, whole.cellLat, whole.source, whole.verticalDatum]).toEqual([-81, 25, CELL, CELL, 'test', 'NAVD88']);
    expect(data(whole)).toEqual([...lattice(5, 4).values].sort((a, b) => a - b));
    expect([at(whole, 0, 0), at(whole, 3, 4), at(whole, 2, 1)]).toEqual([0, 34, 21]);
    expect(whole.water![0]).toBe(1);
    expect(whole.water!.reduce((a, b) => a + b, 0)).toBe(1);
    // Touching an edge from outside: that edge's posts are in the window, at their own places, the rest no data.
    const west = (await window(built, [mw - 3 * CELL, ms, mw, mn]))!;
    expect([0, 1, 2, 3].map((r) => at(west, r, 0))).toEqual([0, 10, 20, 30]);
    expect(data(west)).toEqual([0, 10, 20, 30]);
    const east = (await window(built, [me, ms, me + 3 * CELL, mn]))!;
    expect([0, 1, 2, 3].map((r) => at(east, r, 4))).toEqual([4, 14, 24, 34]);
    expect(data(east)).toEqual([4, 14, 24, 34]);
    const north = (await window(built, [mw, mn, me, mn + 3 * CELL]))!;
    expect([0, 1, 2, 3, 4].map((c) => at(north, 0, c))).toEqual([0, 1, 2, 3, 4]);
    expect(data(north)).toEqual([0, 1, 2, 3, 4]);
    const south = (await window(built, [mw, ms - 3 * CELL, me, ms]))!;
    expect([0, 1, 2, 3, 4].map((c) => at(south, 3, c))).toEqual([30, 31, 32, 33, 34]);
    expect(data(south)).toEqual([30, 31, 32, 33, 34]);
    // A hair further, and the box misses the model.
    const hair = 1e-9;
    for (const box of [[mw - 1, ms, mw - hair, mn], [me + hair, ms, me + 1, mn], [mw, mn + hair, me, mn + 1], [mw, ms - 1, me, ms - hair]] as BBox[]) {
      expect(await window(built, box)).toBeUndefined();
    }
  });

  it('leaves out the water flags of a model without them', async () => {
    const built = buildPyramid(lattice(5, 4), 'NAVD88');
    expect(await window(built, built.index.bbox)).not.toHaveProperty('water');
  });
});

describe('a model with overviews', () => {
  // 300 × 140 posts: level 0 spans two tiles across; level 1 (150 × 70) and level 2 (75 × 35) one; level 3 (38 × 18) is the coarsest (≤ 64 a side).
  const built = () => buildPyramid(lattice(300, 140), 'NAVD88');

  it('halves each level, taking every second post, until both sides are at most 64', () => {
    const { levels } = built().index;
    expect(levels.map((l) => [l.level, l.width, l.height, l.tiles])).toEqual([
      [0, 300, 140, ['0-0', '1-0']], [1, 150, 70, ['0-0']], [2, 75, 35, ['0-0']], [3, 38, 18, ['0-0']],
    ]);
    expect(levels.map((l) => l.cell_lon)).toEqual([CELL, 2 * CELL, 4 * CELL, 8 * CELL]);
    const tile = decodeTile(built().tiles.get(tileKey(2, '0-0'))!);
    // Level 2 row 3, column 5 is level 0 row 12, column 20.
    expect(tile.values[3 * TILE_SIZE + 5]).toBe(10 * 12 + 20);
    const second = decodeTile(built().tiles.get(tileKey(0, '1-0'))!);
    expect(second.values[7 * TILE_SIZE + 2]).toBe(10 * 7 + 258);
  });

  it('tiles downwards too: a lattice one post taller than a tile has a second row of tiles', () => {
    const { index, tiles } = buildPyramid(lattice(3, TILE_SIZE + 1), 'NAVD88');
    expect(index.levels[0]!.tiles).toEqual(['0-0', '0-1']);
    const below = decodeTile(tiles.get(tileKey(0, '0-1'))!);
    // Its first row is the lattice's row 256; nothing else of it is data.
    expect([below.values[0], below.values[2]]).toEqual([10 * TILE_SIZE, 10 * TILE_SIZE + 2]);
    expect(Number.isNaN(below.values[TILE_SIZE])).toBe(true);
  });

  it('stops halving when both sides are at most 64, and only then', () => {
    const sides = (width: number, height: number) => buildPyramid(lattice(width, height), 'NAVD88').index.levels.map((l) => [l.width, l.height]);
    expect(sides(64, 1)).toEqual([[64, 1]]);
    expect(sides(1, 64)).toEqual([[1, 64]]);
    expect(sides(65, 1)).toEqual([[65, 1], [33, 1]]);
    // A narrow model is halved for its height alone.
    expect(sides(1, 65)).toEqual([[1, 65], [1, 33]]);
  });

  it('writes the same tile bytes whenever it is built: no build time in the gzip header', () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    try {
      const first = buildPyramid(lattice(5, 5), 'NAVD88').tiles.get(tileKey(0, '0-0'))!;
      jest.setSystemTime(new Date('2026-06-30T12:34:56Z'));
      const second = buildPyramid(lattice(5, 5), 'NAVD88').tiles.get(tileKey(0, '0-0'))!;
      expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reads the finest level whose window fits the cell budget, across tiles, else the coarsest clipped to the model', async () => {
    const model = built();
    const [mw, ms, me, mn] = model.index.bbox;
    const fine = (await window(model, model.index.bbox, 1e9))!;
    expect([fine.west, fine.north, fine.cellLon]).toEqual([-81, 25, CELL]);
    // Across the tile seam at column 256, and the last post.
    expect([fine.values[0], fine.values[255], fine.values[256], fine.values[139 * fine.width + 299]]).toEqual([0, 255, 256, 10 * 139 + 299]);
    // 20,000 cells: level 0 (300 × 140) does not fit, level 1 (150 × 70) does.
    const half = (await window(model, model.index.bbox, 20_000))!;
    expect([half.cellLon, half.west, half.north]).toEqual([2 * CELL, -81, 25]);
    expect(half.values[1 * half.width + 2]).toBe(10 * 2 + 4);
    // A budget no level meets: the coarsest level over the model's part of the box only.
    const coarse = (await window(model, [mw - 10, ms - 10, me + 10, mn + 10], 10))!;
    expect([coarse.width, coarse.height, coarse.west, coarse.north]).toEqual([38, 18, -81, 25]);
  });
});

describe('the window a box reads', () => {
  // A box strictly inside cells: at level 0 it spans columns 10–21 and rows 5–10 (12 × 6 = 72 cells).
  const inner: BBox = [-81 + 10.5 * CELL, 25 - 9.5 * CELL, -81 + 20.5 * CELL, 25 - 5.5 * CELL];

  it('is the finest level when the budget is exactly its cell count, and the next level for one cell less', async () => {
    const model = buildPyramid(lattice(300, 140), 'NAVD88');
    const exact = (await window(model, inner, 72))!;
    expect([exact.cellLon, exact.width, exact.height, exact.values[0]]).toEqual([CELL, 12, 6, 10 * 5 + 10]);
    const less = (await window(model, inner, 71))!;
    expect(less.cellLon).toBe(2 * CELL);
  });

  it('leaves a missing tile without data, never filled from the tile beside it', async () => {
    // Data in the first tile's columns only: the second tile is not stored.
    const holes = Array.from({ length: 3 * 300 }, (_, i) => i).filter((i) => i % 300 >= TILE_SIZE);
    const model = buildPyramid(lattice(300, 3, { holes }), 'NAVD88');
    expect(model.index.levels[0]!.tiles).toEqual(['0-0']);
    const seam = (await window(model, [-81 + 250.5 * CELL, 25 - 1.5 * CELL, -81 + 259.5 * CELL, 25 - 0.5 * CELL]))!;
    expect(seam.cellLon).toBe(CELL);
    const columns = [...Array(seam.width).keys()].map((c) => seam.values[c]!);
    expect(columns.slice(0, 6)).toEqual([250, 251, 252, 253, 254, 255]);
    expect(columns.slice(6).every(Number.isNaN)).toBe(true);
  });

  it('is one post for a box of no size on a post', async () => {
    const model = buildPyramid(lattice(5, 4), 'NAVD88');
    const post = (await window(model, [-81, 25, -81, 25]))!;
    expect([post.width, post.height, post.values[0]]).toEqual([1, 1, 0]);
  });

  it('is nothing where the box meets the model only where it has no data', async () => {
    const holes = [...Array(20).keys()].filter((i) => i !== 0);
    const model = buildPyramid(lattice(5, 4, { holes }), 'NAVD88');
    expect(await window(model, [-81 + 2.6 * CELL, 25 - 3.4 * CELL, -81 + 3.4 * CELL, 25 - 1.6 * CELL])).toBeUndefined();
    expect((await window(model, [-81, 25 - 0.4 * CELL, -81 + 0.4 * CELL, 25]))!.values[0]).toBe(0);
  });
});

describe('bilinear sampling', () => {
  const grid = () => ({ ...lattice(5, 4), verticalDatum: 'NAVD88' as const, source: 'test' });

  it('weighs the four surrounding posts by distance', () => {
    // Row 1.5, column 2.5: the mean of 12, 13, 22 and 23.
    expect(sampleBilinear(grid(), 25 - 1.5 * CELL, -81 + 2.5 * CELL)).toBeCloseTo(17.5, 6);
    // Row 0.25, column 3.75: (3·0.25 + 4·0.75)·0.75 + (13·0.25 + 14·0.75)·0.25.
    expect(sampleBilinear(grid(), 25 - 0.25 * CELL, -81 + 3.75 * CELL)).toBeCloseTo(6.25, 6);
  });

  it('gives no value on or past the last row and column, or before the first', () => {
    const g = grid();
    expect(Number.isNaN(sampleBilinear(g, 25 - 1.5 * CELL, -81 + 4 * CELL))).toBe(true);
    expect(Number.isNaN(sampleBilinear(g, 25 - 3 * CELL, -81 + 1.5 * CELL))).toBe(true);
    expect(Number.isNaN(sampleBilinear(g, 25 - 1.5 * CELL, -81 - 0.001 * CELL))).toBe(true);
    expect(Number.isNaN(sampleBilinear(g, 25 + 0.001 * CELL, -81 + 1.5 * CELL))).toBe(true);
    expect(sampleBilinear(g, 25, -81)).toBe(0);
    expect(sampleBilinear(g, 25 - 2.999 * CELL, -81 + 3.999 * CELL)).toBeCloseTo(10 * 2.999 + 3.999, 3);
  });
});
