import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../shared/domain/hazards/elevation';
import { gridOfPosts } from '../helpers/test-grid';
import { describeGround, groundAtPoint, readGround, RELIEF_FLAG_M, RELIEF_RADIUS, usesSrtm, type GroundGrid } from '../../shared/domain/hazards/ground';

/**
 * Ground read from layered models: which cells are water, which surface-model cells are flagged as
 * roofs or canopy, where a point's ground comes from and how an answer names its sources. The
 * expected flags come from a reference written here from the rule's wording.
 */
const WEST = -82.47;
const NORTH = 27.92;
const CELL = 0.001;

const gridOf = (width: number, height: number, value: (row: number, col: number) => number, extra: Partial<ElevationGrid> = {}) => gridOfPosts({ west: WEST, north: NORTH, cell: CELL }, width, height, value, extra);
function sourceOf(grid: ElevationGrid | undefined, info: Partial<ElevationSourceInfo> = {}): ElevationSource {
  return { info: () => ({ name: 'test model', vertical_datum: 'NAVD88', native_resolution: '0.001°', ...info }), grid: async () => grid };
}
const boxOf = (grid: ElevationGrid): [number, number, number, number] => [grid.west, grid.north - (grid.height - 1) * grid.cellLat, grid.west + (grid.width - 1) * grid.cellLon, grid.north];
/** These tests are about surface models: the caller allows them (`allow_surface_model: true`). */
const SURFACE_ALLOWED = { allowSurfaceModel: true };

/** A deterministic rough surface (0–8 m) with a few gaps: a linear congruential generator, seeded. */
function rough(width: number, height: number, seed: number): ElevationGrid {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return gridOf(width, height, () => {
    const r = next();
    return r < 0.05 ? Number.NaN : Math.round(r * 80) / 10;
  });
}

/** The rule as worded: a land cell of a surface model more than RELIEF_FLAG_M above the lowest ground within RELIEF_RADIUS cells (in rows and columns, inside the grid). */
function referenceFlags(grid: ElevationGrid, msl: number): Set<number> {
  const flagged = new Set<number>();
  const at = (row: number, col: number) => grid.values[row * grid.width + col]!;
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) {
      const own = at(row, col);
      if (Number.isNaN(own) || own <= Math.fround(msl)) continue;
      let lowest = own;
      for (let r = row - RELIEF_RADIUS; r <= row + RELIEF_RADIUS; r++) {
        for (let c = col - RELIEF_RADIUS; c <= col + RELIEF_RADIUS; c++) {
          if (r < 0 || c < 0 || r >= grid.height || c >= grid.width) continue;
          const v = at(r, c);
          if (!Number.isNaN(v) && v < lowest) lowest = v;
        }
      }
      if (own - lowest > RELIEF_FLAG_M) flagged.add(row * grid.width + col);
    }
  }
  return flagged;
}
const flagsOf = (ground: GroundGrid) => new Set([...ground.flagged.keys()].filter((i) => ground.flagged[i] === 1));

describe('surface-model cells flagged as roofs or canopy', () => {
  it.each([1, 7, 42])('match the rule cell for cell on a rough surface with gaps (seed %i), edges and rows apart', async (seed) => {
    const grid = rough(13, 9, seed);
    const ground = (await readGround(sourceOf(grid, { surface_model: true }), boxOf(grid), 10_000, 0.5, SURFACE_ALLOWED))!;
    const expected = referenceFlags(grid, 0.5);
    expect(expected.size).toBeGreaterThan(3);
    expect(flagsOf(ground)).toEqual(expected);
    expect(ground.flaggedCells).toBe(expected.size);
  });

  it('a cell at the east edge is not compared with the west edge of the next row', async () => {
    // Flat 5 m but for a 1 m pit at the west edge of row 3: only cells within two of the pit stand out.
    const grid = gridOf(10, 8, (row, col) => (row === 3 && col === 0 ? 1 : 5));
    const ground = (await readGround(sourceOf(grid, { surface_model: true }), boxOf(grid), 10_000, -5, SURFACE_ALLOWED))!;
    const expected = new Set<number>();
    for (let row = 1; row <= 5; row++) for (let col = 0; col <= 2; col++) if (row !== 3 || col !== 0) expected.add(row * 10 + col);
    expect(flagsOf(ground)).toEqual(expected);
    expect(ground.flaggedCells).toBe(14);
  });

  it('a plateau is flagged along its rim, not at its centre three cells from the low ground', async () => {
    const plateau = (row: number, col: number) => row >= 10 && row <= 14 && col >= 10 && col <= 14;
    const grid = gridOf(25, 25, (row, col) => (plateau(row, col) ? 1 + RELIEF_FLAG_M + 0.5 : 1));
    const ground = (await readGround(sourceOf(grid, { surface_model: true }), boxOf(grid), 10_000, -5, SURFACE_ALLOWED))!;
    expect(ground.flaggedCells).toBe(24);
    expect(ground.flagged[12 * 25 + 12]).toBe(0);
  });

  it('exactly the threshold above the lowest ground is not flagged', async () => {
    const grid = gridOf(7, 7, (row, col) => (row === 3 && col === 3 ? 1 + RELIEF_FLAG_M : 1));
    expect((await readGround(sourceOf(grid, { surface_model: true }), boxOf(grid), 10_000, -5, SURFACE_ALLOWED))!.flaggedCells).toBe(0);
  });

  it('are not flagged on a bare-earth model, nor when the caller asks for no flags', async () => {
    const grid = rough(13, 9, 7);
    expect((await readGround(sourceOf(grid), boxOf(grid), 10_000, 0.5))!.flaggedCells).toBe(0);
    const unflagged = (await readGround(sourceOf(grid, { surface_model: true }), boxOf(grid), 10_000, 0.5, { flagRelief: false, allowSurfaceModel: true }))!;
    expect(unflagged.flaggedCells).toBe(0);
    expect(unflagged.flagged.every((f) => f === 0)).toBe(true);
  });

  it('flags only cells a surface model supplied: a block on the bare-earth model stands as ground', async () => {
    // Bare earth over columns 0–9 (none east of them), a surface model under it; a 4.5 m block on flat 1 m ground in each.
    const block = (row: number, col: number, west: number) => row >= 4 && row <= 6 && col >= west && col <= west + 2;
    const bare = gridOf(20, 11, (row, col) => (col >= 10 ? Number.NaN : block(row, col, 3) ? 1 + RELIEF_FLAG_M + 0.5 : 1));
    const surfaceGrid = gridOf(20, 11, (row, col) => (block(row, col, 13) ? 1 + RELIEF_FLAG_M + 0.5 : 1));
    const layered: ElevationSource = { ...sourceOf(bare), layersFor: () => [sourceOf(bare), sourceOf(surfaceGrid, { surface_model: true })] };
    const ground = (await readGround(layered, boxOf(bare), 10_000, -5, SURFACE_ALLOWED))!;
    expect(ground.layers.map((l) => [l.source.surface_model ?? false, l.cells])).toEqual([[false, 110], [true, 110]]);
    const combined = gridOf(20, 11, (row, col) => (col >= 10 ? surfaceGrid : bare).values[row * 20 + col]!);
    const expected = new Set([...referenceFlags(combined, -5)].filter((i) => i % 20 >= 10));
    expect(expected.size).toBe(9);
    expect(flagsOf(ground)).toEqual(expected);
  });

  it('does not flag a cell the model marks as water, however high it stands', async () => {
    const tall = (row: number, col: number) => row >= 3 && row <= 4 && col >= 3 && col <= 4;
    const water = Uint8Array.from({ length: 80 }, (_, i) => (tall(Math.floor(i / 10), i % 10) ? 1 : 0));
    const grid = gridOf(10, 8, (row, col) => (tall(row, col) ? 1 + RELIEF_FLAG_M + 1 : 1), { water });
    const ground = (await readGround(sourceOf(grid, { surface_model: true }), boxOf(grid), 10_000, -5, SURFACE_ALLOWED))!;
    expect(referenceFlags(grid, -5).size).toBe(4);
    expect(ground.flaggedCells).toBe(0);
  });
});

describe('open water in models without a water flag', () => {
  it('is ground at or below the local mean sea surface, in the first layer and in the fill alike', async () => {
    // First layer: columns 0–3 at 0.4 / 0.5 / 0.6 / NaN; the fill covers the gap at 0.5.
    const first = gridOf(4, 1, (_row, col) => [0.4, 0.5, 0.6, Number.NaN][col]!);
    const fill = gridOf(6, 3, () => 0.5, { west: WEST - CELL, north: NORTH + CELL });
    const layered: ElevationSource = { ...sourceOf(first), layersFor: () => [sourceOf(first), sourceOf(fill, { name: 'fill' })] };
    const ground = (await readGround(layered, boxOf(first), 10_000, 0.5))!;
    expect([...ground.grid.water!]).toEqual([1, 1, 0, 1]);
    expect(ground.layers.map((l) => l.cells)).toEqual([3, 1]);
    const above = (await readGround(layered, boxOf(first), 10_000, 0.45))!;
    expect([...above.grid.water!]).toEqual([1, 0, 0, 0]);
  });

  it('leaves cells no layer covers without data, counted to no layer', async () => {
    const grid = gridOf(5, 2, (_row, col) => (col < 2 ? Number.NaN : 1));
    const ground = (await readGround(sourceOf(grid), boxOf(grid), 10_000, 0))!;
    expect(ground.layers.map((l) => l.cells)).toEqual([6]);
    expect(describeGround(ground).sources.map((s) => s.share_of_cells)).toEqual([1]);
  });
});

describe('the ground at a point', () => {
  const grid = gridOf(9, 9, (row, col) => (col === 5 ? Number.NaN : 1 + row * 0.1 + col * 0.01));
  const source = sourceOf(grid);

  it('is interpolated between four posts, and is the nearest post where a neighbour has no value', async () => {
    const between = await groundAtPoint(source, { lat: NORTH - 2.5 * CELL, lon: WEST + 2.5 * CELL }, 0);
    expect(between!.ground_navd88_m).toBeCloseTo(1 + 2.5 * 0.1 + 2.5 * 0.01, 5);
    // 0.2 of a cell east of column 4, whose east neighbour (column 5) is a gap.
    const nextToGap = await groundAtPoint(source, { lat: NORTH - 3 * CELL, lon: WEST + 4.2 * CELL }, 0);
    expect(nextToGap!.ground_navd88_m).toBeCloseTo(1 + 0.3 + 0.04, 5);
  });

  it('is unknown on a gap and outside the model', async () => {
    expect(await groundAtPoint(source, { lat: NORTH - 3 * CELL, lon: WEST + 5 * CELL }, 0)).toBeUndefined();
    expect(await groundAtPoint(source, { lat: NORTH + 0.05, lon: WEST }, 0)).toBeUndefined();
    expect(await groundAtPoint(sourceOf(undefined), { lat: NORTH, lon: WEST }, 0)).toBeUndefined();
  });
});

describe('how an answer names its ground', () => {
  const layer = (info: Partial<ElevationSourceInfo>, cells: number) => ({ source: { name: info.name ?? 'model', vertical_datum: 'NAVD88' as const, native_resolution: '1 m', ...info }, cells, correction: { from: 'NAVD88' as const, applied_offset_m: 0, method: 'm', uncertainty: 'u' } });
  const groundOf = (origin: number[], layers: ReturnType<typeof layer>[], flagged: number[] = []): GroundGrid => ({
    grid: gridOf(origin.length, 1, () => 1), origin: Uint8Array.from(origin), layers, flagged: Uint8Array.from(origin.map((_, i) => (flagged.includes(i) ? 1 : 0))), flaggedCells: flagged.length,
  });

  it('shares of cells inside the boundary, by the layer that supplied each, leaving out layers that supplied none', () => {
    // The second layer was read but supplied no cell; one cell has no data; cell 3 is flagged.
    const ground = groundOf([0, 0, 2, 2, 2, 255, 0, 2], [layer({ name: 'lidar', elevation_model_id: 'lidar-1' }, 3), layer({ name: 'unused' }, 0), layer({ name: 'SRTM', elevation_model_id: 'srtm-1arcsec', surface_model: true }, 4)], [3]);
    const inside = Uint8Array.from([1, 1, 1, 1, 1, 1, 0, 0]);
    const described = describeGround(ground, inside);
    expect(described.source.name).toBe('lidar');
    expect(described.sources).toEqual([
      { elevation_model_id: 'lidar-1', name: 'lidar', surface_model: null, share_of_cells: 0.4, vertical_offset_m: 0 },
      { elevation_model_id: 'srtm-1arcsec', name: 'SRTM', surface_model: true, share_of_cells: 0.6, vertical_offset_m: 0 },
    ]);
    expect(described.surface_model_flags).toMatchObject({ cells: 1, share_of_cells: 0.2 });
    // Without a boundary every cell with data counts.
    expect(describeGround(ground).sources.map((s) => s.share_of_cells)).toEqual([0.4286, 0.5714]);
  });

  it('a model without an id is named with a null id; no surface-model flags without a surface model; no cells, no shares', () => {
    const bare = groundOf([0, 0], [layer({ name: 'county DEM' }, 2)]);
    const described = describeGround(bare);
    expect(described.sources).toEqual([{ elevation_model_id: null, name: 'county DEM', surface_model: null, share_of_cells: 1, vertical_offset_m: 0 }]);
    expect(described).not.toHaveProperty('surface_model_flags');
    const empty = describeGround(groundOf([255, 255], [layer({ name: 'SRTM', surface_model: true }, 0)]));
    expect(empty.sources).toEqual([]);
    expect(empty.surface_model_flags).toMatchObject({ cells: 0, share_of_cells: 0 });
  });

  it('lists the NAVD88 levels of a stepped model\'s lowest land (whole steps moved by its datum shift) only when that model supplied cells', () => {
    const stepped = (cells: number, offset: number) => {
      const base = layer({ name: 'SRTM', elevation_model_id: 'srtm-1arcsec', height_step_m: 1 }, cells);
      return { ...base, correction: { ...base.correction, applied_offset_m: offset } };
    };
    const described = describeGround(groundOf([0, 1], [layer({ name: 'lidar', elevation_model_id: 'lidar-1' }, 1), stepped(1, -0.288)]));
    expect(described.height_steps).toMatchObject({ elevation_model_id: 'srtm-1arcsec', step_m: 1, lowest_land_levels_navd88_m: [0.712, 1.712, 2.712, 3.712, 4.712] });
    expect(described.height_steps!.note).toContain('(-0.288 m)');
    const halfMetre = { ...stepped(2, 0.1), source: { ...stepped(2, 0.1).source, height_step_m: 0.5, elevation_model_id: undefined } };
    expect(describeGround(groundOf([0, 0], [halfMetre])).height_steps).toMatchObject({ elevation_model_id: null, step_m: 0.5, lowest_land_levels_navd88_m: [0.6, 1.1, 1.6, 2.1, 2.6] });
    expect(describeGround(groundOf([0], [layer({ name: 'lidar' }, 1), stepped(0, -0.288)]))).not.toHaveProperty('height_steps');
    expect(describeGround(groundOf([0], [layer({ name: 'lidar' }, 1)]))).not.toHaveProperty('height_steps');
  });

  it('SRTM is named among the sources only when it supplied cells', () => {
    const srtm = (cells: number) => layer({ name: 'SRTM', elevation_model_id: 'srtm-1arcsec' }, cells);
    expect(usesSrtm(groundOf([0], [layer({ name: 'lidar', elevation_model_id: 'lidar-1' }, 1), srtm(0)]))).toBe(false);
    expect(usesSrtm(groundOf([0, 1], [layer({ name: 'lidar', elevation_model_id: 'lidar-1' }, 1), srtm(1)]))).toBe(true);
    expect(usesSrtm(groundOf([0], [layer({ name: 'lidar', elevation_model_id: 'lidar-1' }, 1)]))).toBe(false);
  });
});
