import proj4 from 'proj4';
import { processDem, type ProcessedDem } from '../../shared/adapters/elevation/geotiff-dem';
import { decodeTile, TILE_SIZE, tileKey } from '../../shared/domain/elevation-models/pyramid';
import { planWindows, tileWindow } from '../../shared/domain/elevation-models/windows';
import { writeTiff, type TiffSpec } from '../helpers/tiff-writer';

/**
 * A model is processed one window of its lattice at a time: cut in windows of one tile (256 × 256
 * cells) or two, it must give the very pyramid it gives in one window, and its cells must be the
 * bilinear interpolation of the file's posts, computed here from the raw values on their own.
 */

const WIDTH = 560, HEIGHT = 400;
const US_FOOT_M = 1200 / 3937;
/** Terrain with curvature (so interpolation shows), a no-data hole, and heights of a few metres. */
const terrain = (row: number, col: number) =>
  (row > 150 && row < 180 && col > 300 && col < 360 ? -9999 : 2 + row / 200 + col / 300 + Math.sin(row / 23) * Math.cos(col / 31));

interface Case { name: string; spec: TiffSpec; toMetres: number; /** The file's CRS written out here from the EPSG parameters (metres or degrees), and the file's units per one of them. */ sourceCrs: string; unitsPerMetre: number }

const CASES: Case[] = [
  {
    name: 'EPSG:2236 (Florida East, US feet), deflate tiles',
    spec: { width: WIDTH, height: HEIGHT, epsg: 2236, origin: [700_000, 650_000], cellSize: [3, 3], nodata: '-9999', compression: 'deflate', layout: { tile: 128 }, value: terrain },
    toMetres: US_FOOT_M,
    sourceCrs: '+proj=tmerc +lat_0=24.33333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000.0001016002 +y_0=0 +ellps=GRS80 +units=m +no_defs',
    unitsPerMetre: 1 / US_FOOT_M,
  },
  {
    name: 'EPSG:4269 (NAD83 geographic), deflate strips',
    spec: { width: WIDTH, height: HEIGHT, epsg: 4269, origin: [-82.5, 27.9], cellSize: [1e-5, 1e-5], nodata: '-9999', compression: 'deflate', layout: { rowsPerStrip: 7 }, value: terrain },
    toMetres: 1,
    sourceCrs: '+proj=longlat +ellps=GRS80 +no_defs',
    unitsPerMetre: 1,
  },
];

const options = (c: Case) => ({ vertical_datum: 'NAVD88', units: c.toMetres === 1 ? 'm' : 'ft' } as const);

const decoded = new Map<Uint8Array, Float32Array>();

/** A cell of one level of a processed model (NaN: no data). */
function cellOf(model: ProcessedDem, row: number, col: number, level = 0): number {
  const tile = model.tiles.get(tileKey(level, `${Math.floor(col / TILE_SIZE)}-${Math.floor(row / TILE_SIZE)}`));
  if (!tile) return Number.NaN;
  if (!decoded.has(tile)) decoded.set(tile, decodeTile(tile).values);
  return decoded.get(tile)![(row % TILE_SIZE) * TILE_SIZE + (col % TILE_SIZE)]!;
}

describe.each(CASES)('a model processed in windows: $name', (c) => {
  const bytes = writeTiff(c.spec);
  let whole: ProcessedDem;
  beforeAll(async () => {
    whole = await processDem(bytes, options(c), { windowTiles: 16 });
  });

  it('is one window at 16 tiles a side, and many at one or two', () => {
    const lattice = { width: whole.index.levels[0]!.width, height: whole.index.levels[0]!.height, west: 0, north: 0, cellLon: 1, cellLat: 1, resolution_m: 1 };
    expect(planWindows(lattice, 16).windows).toHaveLength(1);
    expect(planWindows(lattice, 1).windows).toHaveLength(Math.ceil(lattice.width / 256) * Math.ceil(lattice.height / 256));
    expect(planWindows(lattice, 1).windows.length).toBeGreaterThanOrEqual(6);
    expect(whole.index.levels.length).toBeGreaterThanOrEqual(5);
  });

  it.each([1, 2])('gives byte for byte the same tiles and index in windows of %i tile(s) a side', async (windowTiles) => {
    const written: string[] = [];
    const tiles = new Map<string, Uint8Array>();
    const windowed = await processDem(bytes, options(c), {
      windowTiles,
      writeTiles: async (made) => { for (const [key, tile] of made) { written.push(key); tiles.set(key, tile); } },
    });
    expect(windowed.tiles.size).toBe(0); // handed over as made, none kept
    expect(written).toHaveLength(new Set(written).size); // every tile made once
    expect(windowed.index).toEqual(whole.index);
    expect([...tiles.keys()].sort()).toEqual([...whole.tiles.keys()].sort());
    for (const [key, tile] of whole.tiles) expect(Buffer.from(tiles.get(key)!).equals(Buffer.from(tile))).toBe(true);
  });

  it('holds at each cell the bilinear interpolation of the four raw posts around its centre', () => {
    const toSource = proj4('+proj=longlat +ellps=GRS80 +no_defs', c.sourceCrs);
    const { west, north } = whole.index;
    const { cell_lon: cellLon, cell_lat: cellLat, width, height } = whole.index.levels[0]!;
    const post = (row: number, col: number) => Math.fround(terrain(row, col));
    let checked = 0;
    for (let row = 3; row < height; row += 17) {
      for (let col = 5; col < width; col += 19) {
        const [x, y] = toSource.forward([west + col * cellLon, north - row * cellLat]);
        // Post centres: the tie point is the first cell's corner.
        const [ox, oy] = c.spec.origin, [sx, sy] = c.spec.cellSize;
        const fc = (x! * c.unitsPerMetre - ox) / sx - 0.5, fr = (oy - y! * c.unitsPerMetre) / sy - 0.5;
        const c0 = Math.floor(fc), r0 = Math.floor(fr);
        if (c0 < 0 || r0 < 0 || c0 + 1 >= WIDTH || r0 + 1 >= HEIGHT) continue;
        const corners = [post(r0, c0), post(r0, c0 + 1), post(r0 + 1, c0), post(r0 + 1, c0 + 1)];
        if (corners.some((v) => v === -9999)) continue;
        const tx = fc - c0, ty = fr - r0;
        const expected = ((corners[0]! * (1 - tx) + corners[1]! * tx) * (1 - ty) + (corners[2]! * (1 - tx) + corners[3]! * tx) * ty) * c.toMetres;
        expect(cellOf(whole, row, col)).toBeCloseTo(expected, 4);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('leaves the hole without data and takes overview cells as every second cell of the level below', () => {
    const { west, north } = whole.index;
    const { cell_lon: cellLon, cell_lat: cellLat } = whole.index.levels[0]!;
    // The centre of the hole, at row 165, column 330 of the file.
    const [ox, oy] = c.spec.origin, [sx, sy] = c.spec.cellSize;
    const toGeo = (col: number, row: number) => proj4(c.sourceCrs, '+proj=longlat +ellps=GRS80 +no_defs').forward([(ox + (col + 0.5) * sx) / c.unitsPerMetre, (oy - (row + 0.5) * sy) / c.unitsPerMetre]);
    const [lon, lat] = toGeo(330, 165);
    expect(cellOf(whole, Math.round((north - lat!) / cellLat), Math.round((lon! - west) / cellLon))).toBeNaN();
    const level1 = whole.index.levels[1]!;
    for (let row = 0; row < level1.height; row += 29) {
      for (let col = 0; col < level1.width; col += 31) {
        const overview = cellOf(whole, row, col, 1);
        const below = cellOf(whole, row * 2, col * 2);
        if (Number.isNaN(below)) expect(overview).toBeNaN();
        else expect(overview).toBe(below);
      }
    }
  });
});

describe('a model with a water flag, processed in windows', () => {
  // Open water as the USGS quads write it (0), a bay across the seams of every window size tried.
  const bay = (row: number, col: number) => (row + col < 420 ? 0 : terrain(row, col));
  const spec: TiffSpec = { ...CASES[0]!.spec, value: bay };
  const bytes = writeTiff(spec);
  const waterOptions = { ...options(CASES[0]!), water_raw_value: 0 };
  let whole: ProcessedDem;
  beforeAll(async () => {
    whole = await processDem(bytes, waterOptions, { windowTiles: 16 });
  });

  const waterOf = (model: ProcessedDem, key: string) => decodeTile(model.tiles.get(key)!).water;

  it('flags the bay and only the bay as water, at every level', () => {
    expect(whole.index.has_water_flag).toBe(true);
    // The bay's corner (file row 0, column 0) lies in the first tile of level 0; the far corner is dry land.
    const levels = whole.index.levels.length;
    for (let level = 0; level < levels; level++) expect(waterOf(whole, tileKey(level, '0-0'))[0]).toBe(1);
    const { width, height } = whole.index.levels[0]!;
    const last = tileKey(0, `${Math.floor((width - 1) / TILE_SIZE)}-${Math.floor((height - 1) / TILE_SIZE)}`);
    expect(waterOf(whole, last)[((height - 1) % TILE_SIZE) * TILE_SIZE + ((width - 1) % TILE_SIZE)]).toBe(0);
    const flagged = [...whole.tiles.keys()].filter((key) => key.startsWith('0/')) /* level 0 */.reduce((n, key) => n + waterOf(whole, key).reduce((a, b) => a + b, 0), 0);
    expect(flagged).toBeGreaterThan(1000);
  });

  it.each([1, 2])('gives byte for byte the same tiles, water flags included, in windows of %i tile(s) a side', async (windowTiles) => {
    const windowed = await processDem(bytes, waterOptions, { windowTiles });
    expect(windowed.index).toEqual(whole.index);
    expect([...windowed.tiles.keys()].sort()).toEqual([...whole.tiles.keys()].sort());
    for (const [key, tile] of whole.tiles) expect(Buffer.from(windowed.tiles.get(key)!).equals(Buffer.from(tile))).toBe(true);
  });
});

describe('the window plan', () => {
  const lattice = (width: number, height: number) => ({ width, height, west: 0, north: 0, cellLon: 1, cellLat: 1, resolution_m: 1 });

  it.each([0, 0.5, 3, 6])('refuses a window of %s tiles a side (a power of two, at least one)', (windowTiles) => {
    expect(() => planWindows(lattice(600, 600), windowTiles)).toThrow(/power of two tiles a side/);
  });

  it('cuts a lattice of whole windows into exactly those windows, none empty', () => {
    const plan = planWindows(lattice(2 * TILE_SIZE, 3 * TILE_SIZE), 1);
    expect(plan.windows).toHaveLength(6);
    expect(plan.windows.every((w) => w.width === TILE_SIZE && w.height === TILE_SIZE)).toBe(true);
    expect(plan.windows.at(-1)).toEqual({ row0: 2 * TILE_SIZE, col0: TILE_SIZE, width: TILE_SIZE, height: TILE_SIZE });
  });

  it('cuts rows of windows from the north-west, the last of each row and column narrower, and gathers past the windows\' levels', () => {
    const wide = planWindows(lattice(5000, 3000), 16);
    expect(wide.windows).toEqual([
      { row0: 0, col0: 0, width: 4096, height: 3000 },
      { row0: 0, col0: 4096, width: 904, height: 3000 },
    ]);
    // A window of 16 tiles holds levels 0 to 4 of its cells whole; level 5 is gathered.
    expect(wide.gatheredLevel).toBe(5);
    const small = planWindows(lattice(600, 1100), 2);
    expect(small.windows.map((w) => [w.row0, w.col0, w.width, w.height])).toEqual([
      [0, 0, 512, 512], [0, 512, 88, 512],
      [512, 0, 512, 512], [512, 512, 88, 512],
      [1024, 0, 512, 76], [1024, 512, 88, 76],
    ]);
    expect(small.gatheredLevel).toBe(2);
    expect(small.windowTiles).toBe(2);
  });

  it('gathers no overview cells from a window whose model has no level past the windows', () => {
    // 300 × 200 cells: four levels (300, 150, 75, 38 wide), all within a window of 8 tiles (gathered from level 4).
    const plan = planWindows(lattice(300, 200), 8);
    expect(plan.sides).toHaveLength(4);
    const window = plan.windows[0]!;
    const values = new Float32Array(window.width * window.height).fill(1);
    const made = tileWindow(plan, { ...window, values });
    expect(made.gathered).toBeUndefined();
    expect(made.present).toHaveLength(4);
    // One window level further down, level 1 is gathered from the window's every second cell.
    const gathering = planWindows(lattice(300, 200), 1);
    const first = gathering.windows[0]!;
    const ramp = new Float32Array(first.width * first.height).map((_, i) => i);
    const gathered = tileWindow(gathering, { ...first, values: ramp }).gathered!;
    expect(gathered).toMatchObject({ level: 1, row0: 0, col0: 0, width: 128, height: 100 });
    expect(gathered.values[1 * 128 + 3]).toBe(2 * first.width + 6);
  });
});
