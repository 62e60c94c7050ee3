import { processDem, processStoredDem, type ProcessedDem } from '../../shared/adapters/elevation/geotiff-dem';
import { RasterError } from '../../shared/domain/elevation-models/raster-error';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { writeTiff, type TiffSpec } from '../helpers/tiff-writer';

/**
 * A model uploaded as several GeoTIFFs (a county's lidar tiles) is one surface: cut one raster into
 * parts, however unevenly, with or without overlaps and gaps, and the processed model is the one
 * the whole file gives, tile for tile — windows that straddle a seam included.
 */
const WIDTH = 700, HEIGHT = 600;
const ORIGIN: [number, number] = [340_000, 3_090_000];
const CELL = 3;
const NODATA = -9999;
const NAVD88_M = { vertical_datum: 'NAVD88', units: 'm' } as const;
/** Rough terrain, a few metres high. */
const terrain = (row: number, col: number) => 2 + Math.sin(row / 7) * Math.cos(col / 5) + ((row * 7919 + col * 104_729) % 1000) / 997;

type Value = (row: number, col: number) => number;
const tiff = (width: number, height: number, value: Value, overrides: Partial<TiffSpec> = {}) => writeTiff({
  width, height, epsg: 26917, origin: ORIGIN, cellSize: [CELL, CELL], nodata: String(NODATA), compression: 'deflate', layout: { tile: 128 }, value, ...overrides,
});

/** Rows r0…r1 and columns c0…c1 (exclusive) of a raster as their own GeoTIFF, on the same grid. */
function part(r0: number, r1: number, c0: number, c1: number, value: Value = terrain, overrides: Partial<TiffSpec> = {}) {
  return tiff(c1 - c0, r1 - r0, (r, c) => value(r + r0, c + c0), { origin: [ORIGIN[0] + c0 * CELL, ORIGIN[1] - r0 * CELL], ...overrides });
}

function expectSamePyramid(actual: ProcessedDem, expected: ProcessedDem) {
  expect(actual.index).toEqual(expected.index);
  expect([...actual.tiles.keys()].sort()).toEqual([...expected.tiles.keys()].sort());
  for (const [key, tile] of expected.tiles) expect({ key, same: Buffer.compare(Buffer.from(actual.tiles.get(key)!), Buffer.from(tile)) === 0 }).toEqual({ key, same: true });
  expect(actual.crs).toEqual(expected.crs);
}

async function refusal(run: () => Promise<unknown>): Promise<RasterError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RasterError);
  return error as RasterError;
}

describe('a model uploaded in parts', () => {
  let whole: ProcessedDem;
  beforeAll(async () => {
    // Windows of one tile (256 lattice cells): most windows read across a seam.
    whole = await processDem(tiff(WIDTH, HEIGHT, terrain), NAVD88_M, { windowTiles: 1 });
  }, 120_000);

  it.each([
    ['2 × 2, uneven', [[0, 257, 0, 401], [0, 257, 401, WIDTH], [257, HEIGHT, 0, 401], [257, HEIGHT, 401, WIDTH]]],
    ['three strips, one of a single row, given out of order', [[300, HEIGHT, 0, WIDTH], [0, 299, 0, WIDTH], [299, 300, 0, WIDTH]]],
    ['columns of 1, 100 and the rest', [[0, HEIGHT, 0, 1], [0, HEIGHT, 1, 101], [0, HEIGHT, 101, WIDTH]]],
  ])('cut %s, gives the whole file\'s pyramid tile for tile', async (_name, cuts) => {
    const parts = cuts.map(([r0, r1, c0, c1]) => part(r0!, r1!, c0!, c1!));
    expectSamePyramid(await processDem(parts, NAVD88_M, { windowTiles: 1 }), whole);
  }, 120_000);

  it('takes an overlap from the first part that has ground there, never blended with the later one', async () => {
    // The later part's copy of the overlap is 500 m off: any of it in the model would show.
    const poisoned: Value = (r, c) => (r < 320 ? terrain(r, c) + 500 : terrain(r, c));
    const parts = [part(0, 320, 0, WIDTH), part(280, HEIGHT, 0, WIDTH, poisoned)];
    expectSamePyramid(await processDem(parts, NAVD88_M, { windowTiles: 1 }), whole);
    // Where the first part has no ground, the later part's sample is used.
    const holed: Value = (r, c) => (r >= 300 && c < 50 ? NODATA : terrain(r, c));
    expectSamePyramid(await processDem([part(0, 320, 0, WIDTH, holed), part(280, HEIGHT, 0, WIDTH)], NAVD88_M, { windowTiles: 1 }), whole);
  }, 120_000);

  it('leaves a gap between parts as no data, as a whole file with no data there', async () => {
    const gap: Value = (r, c) => (r >= 200 && r < 260 && c >= 300 ? NODATA : terrain(r, c));
    const withGap = await processDem(tiff(WIDTH, HEIGHT, gap), NAVD88_M, { windowTiles: 1 });
    const parts = [part(0, 200, 0, WIDTH), part(200, 260, 0, 300), part(260, HEIGHT, 0, WIDTH)];
    expectSamePyramid(await processDem(parts, NAVD88_M, { windowTiles: 1 }), withGap);
  }, 120_000);

  it('reads each stored part by ranges where it is, to the same pyramid', async () => {
    const blobs = new MemoryBlobs();
    const parts = [part(0, 257, 0, WIDTH), part(257, HEIGHT, 0, WIDTH)];
    const uploads = parts.map((bytes, i) => {
      const key = `elevation-uploads/acct_test/em_parts.part-${i + 1}.tif`;
      blobs.objects.set(key, Buffer.from(bytes));
      return { key, size: bytes.byteLength };
    });
    expectSamePyramid(await processStoredDem(blobs)(uploads, NAVD88_M, { windowTiles: 1 }), whole);
    const read = blobs.ranges.reduce((sum, range) => sum + range.end - range.start + 1, 0);
    expect(read).toBeLessThanOrEqual(parts.reduce((sum, bytes) => sum + bytes.byteLength, 0) * 1.05);
  }, 120_000);

  it('refuses parts not on one grid, naming the part', async () => {
    const base = part(0, 300, 0, WIDTH);
    const otherCrs = await refusal(() => processDem([base, part(300, HEIGHT, 0, WIDTH, terrain, { epsg: 26916 })], NAVD88_M));
    expect(otherCrs.code).toBe('unsupported_crs');
    expect(otherCrs.message).toMatch(/^Part 2 of 2 is in EPSG:26916, part 1 in EPSG:26917/);
    const otherCell = await refusal(() => processDem([base, part(300, HEIGHT, 0, WIDTH, terrain, { cellSize: [CELL * 2, CELL * 2] })], NAVD88_M));
    expect(otherCell.code).toBe('unusable_raster');
    expect(otherCell.message).toMatch(/^Part 2 of 2 has cells of 6 × 6, part 1 of 3 × 3/);
    const offGrid = await refusal(() => processDem([base, part(300, HEIGHT, 0, WIDTH, terrain, { origin: [ORIGIN[0] + CELL / 2, ORIGIN[1] - 300 * CELL] })], NAVD88_M));
    expect(offGrid.code).toBe('unusable_raster');
    expect(offGrid.message).toMatch(/^Part 2 of 2 starts 0\.500 columns and 300\.000 rows from part 1/);
  }, 60_000);

  it('refuses parts spread far apart over a mostly empty grid, and a part that is not a GeoTIFF', async () => {
    // Two 700 × 600 parts 20 km apart: a grid of 7,367 × 600 cells for 840,000 of theirs.
    const far = part(0, HEIGHT, 0, WIDTH, terrain, { origin: [ORIGIN[0] + 6667 * CELL, ORIGIN[1]] });
    const apart = await refusal(() => processDem([tiff(WIDTH, HEIGHT, terrain), far], NAVD88_M));
    expect(apart.code).toBe('resampled_grid_too_large');
    expect(apart.message).toMatch(/The 2 parts span a grid of 7367 × 600 cells .* do they adjoin\?/);
    const garbage = await refusal(() => processDem([tiff(WIDTH, HEIGHT, terrain), new TextEncoder().encode('not a tiff')], NAVD88_M));
    expect(garbage.code).toBe('not_a_geotiff');
    expect(garbage.message).toMatch(/^Part 2 of 2: The file is not a readable GeoTIFF/);
  }, 60_000);
});
