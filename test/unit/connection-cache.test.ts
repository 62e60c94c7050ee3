import { LayeredElevationSource } from '../../shared/adapters/elevation/layered';
import { BlobModelSource, writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import {
  connectionKeys, connectionTiles, finishModelConnection, joinModelTiles, settleModelTile, traceModelTile, type ModelConnectionRun,
} from '../../shared/application/elevation-models/model-connection';
import type { ElevationModelRecord } from '../../shared/domain/elevation-models/model';
import { buildPyramid } from '../../shared/domain/elevation-models/pyramid';
import { connectedFloodModel, connectionAround, describeConnection, MAX_CACHE_TILES_PER_GRID, type Connection } from '../../shared/domain/hazards/connection';
import type { BBox } from '../../shared/domain/hazards/geo';
import { floodModel, isInundated } from '../../shared/domain/hazards/inundation';
import { MARGIN_CELLS, tallyAtNativeResolution } from '../../shared/domain/hazards/native-area';
import type { CachedConnection, ElevationGrid } from '../../shared/domain/hazards/elevation';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { MemoryConnectionRecords, pendingRun } from '../helpers/memory-connection-records';

/**
 * A coast built so that the answer is known without the product's flood code: sea (columns 0–9,
 * −2 m), coastal land at 0.4 m, a 3 m ridge along column 30 with one gap (row 31, ground 0.7 m),
 * and a basin at 0.5 m behind it. Through the gap the basin's spill level is 0.7 m (the gap's
 * ground, above its own), as is the gap's; the ridge's is 3 m. Read at half resolution (every
 * second row and column) the gap is gone and the ridge looks closed.
 */
const width = 90, height = 60, RIDGE_COL = 30, GAP_ROW = 31;
const SEA = -2, COAST = 0.4, RIDGE = 3, GAP = 0.7, BASIN = 0.5;
const groundAt = (row: number, col: number) => (col < 10 ? SEA : col < RIDGE_COL ? COAST : col === RIDGE_COL ? (row === GAP_ROW ? GAP : RIDGE) : BASIN);
const spillAt = (row: number, col: number) => (col < 10 ? SEA : col < RIDGE_COL ? COAST : col === RIDGE_COL ? (row === GAP_ROW ? GAP : RIDGE) : GAP);
const west = -82.65, north = 27.8, cell = 1e-4;
const box: BBox = [west, north - (height - 1) * cell, west + (width - 1) * cell, north];
const prefix = 'elevation-models/acct_test/em_gap/';

/** A coast of `shape.width` × `shape.height` cells from `shape.groundAt`, with the sea in columns 0–9 (flagged with `waterFlag`). */
interface Shape { width: number; height: number; groundAt: (row: number, col: number) => number }
const GAP_COAST: Shape = { width, height, groundAt };

async function cachedModel(options: { side: number; seaSurface: number; waterFlag?: boolean; shape?: Shape }) {
  const blobs = new MemoryBlobs();
  const { width, height, groundAt: ground } = options.shape ?? GAP_COAST;
  const values = Float32Array.from({ length: width * height }, (_, i) => ground(Math.floor(i / width), i % width));
  const water = options.waterFlag ? Uint8Array.from({ length: width * height }, (_, i) => (i % width < 10 ? 1 : 0)) : undefined;
  const built = buildPyramid({ values, ...(water ? { water } : {}), width, height, west, north, cellLon: cell, cellLat: cell, resolution_m: 10 }, 'NAVD88');
  const record: ElevationModelRecord = {
    elevation_model_id: 'em_gap', name: 'Gap', crs: { epsg: 4269, name: 'NAD83' }, resolution_m: 10, bbox: built.index.bbox,
    vertical_datum: 'NAVD88', source_vertical_datum: 'NAVD88', vertical_conversion: 'none', vertical_accuracy_m: null, surface_model: false, pyramid: built.index,
  };
  await writeProcessedModel(blobs, prefix, record, built.tiles);
  const source = new BlobModelSource(record, blobs, prefix);
  const trace = async () => {
    const run: ModelConnectionRun = { account_id: 'acct_test', elevation_model_id: 'em_gap', run_id: 'conn_1', model_prefix: prefix, sea_surface_navd88_m: options.seaSurface };
    const tiles = connectionTiles(record, options.side);
    await blobs.put(connectionKeys(prefix).tiles, JSON.stringify(tiles));
    for (const tile of tiles) await traceModelTile(blobs, run, tile);
    await joinModelTiles(blobs, run, tiles);
    for (const tile of tiles) await settleModelTile(blobs, run, tile);
    const records = new MemoryConnectionRecords(['em_gap']);
    await records.startConnection('acct_test', 'em_gap', pendingRun('conn_1', tiles.length));
    await finishModelConnection({ blobs, records, now: () => new Date() }, run, { status: 'ready', tiles: tiles.length, sea_surface_navd88_m: options.seaSurface });
    return tiles.length;
  };
  return { blobs, source, trace };
}

async function readyCache(options: Parameters<typeof cachedModel>[0]) {
  const model = await cachedModel(options);
  await model.trace();
  model.source.markConnectionReady();
  return { ...model, cache: (await model.source.cachedConnection())! };
}

/** The grid at half resolution, where the gap falls between the cells read. */
async function halfGrid(source: BlobModelSource, over = box, cells = (width / 2) * (height / 2)): Promise<ElevationGrid> {
  const grid = (await source.grid(over, cells))!;
  expect(grid.cellLon).toBeCloseTo(2 * cell, 12);
  return { ...grid, verticalDatum: 'NAVD88' };
}

/** The connection traced at that half resolution (the ridge closed), with the model's cache. */
function tracedAtHalf(grid: ElevationGrid, mslNavd88: number, cache?: CachedConnection): Connection {
  return { model: floodModel(grid, mslNavd88), extent: box, models: ['em_gap'], cell_size_m: 20, ...(cache ? { cache } : {}) };
}

const basinCells = (grid: ElevationGrid) => {
  const cells: number[] = [];
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) if (grid.west + col * grid.cellLon > west + RIDGE_COL * cell + cell / 2) cells.push(row * grid.width + col);
  }
  return cells;
};

describe('a model\'s connection cache read by an answer', () => {
  it('gives each cell of a grid the spill level of its nearest model cell, read from as many cache tiles as the grid spans', async () => {
    for (const side of [8, 45, 2048]) {
      const { source, cache } = await readyCache({ side, seaSurface: 0 });
      const grid = (await source.grid(box, 4 * width * height))!;
      expect([grid.cellLon, grid.cellLat]).toEqual([cell, cell]);
      const spill = await cache.spillOn(grid, 1000);
      expect(spill).toBeInstanceOf(Float32Array);
      let wrong = 0, inside = 0;
      for (let i = 0; i < grid.values.length; i++) {
        const row = Math.round((north - (grid.north - Math.floor(i / grid.width) * cell)) / cell), col = Math.round((grid.west + (i % grid.width) * cell - west) / cell);
        const within = row >= 0 && row < height && col >= 0 && col < width;
        if (within) inside++;
        if ((spill as Float32Array)[i] !== (within ? Math.fround(spillAt(row, col)) : Infinity)) wrong++;
      }
      expect(inside).toBe(width * height);
      expect(wrong).toBe(0);
      const tiles = Math.ceil(width / side) * Math.ceil(height / side);
      expect(await cache.spillOn(grid, tiles)).toBeInstanceOf(Float32Array);
      if (tiles > 1) expect(await cache.spillOn(grid, tiles - 1)).toEqual({ tiles });
    }
  });

  it('leaves a grid\'s cells outside the model unreached', async () => {
    const { cache } = await readyCache({ side: 45, seaSurface: 0 });
    const outside: ElevationGrid = { values: new Float32Array(4).fill(1), width: 2, height: 2, west: west - 0.01, north: north + 0.01, cellLon: cell, cellLat: cell, verticalDatum: 'NAVD88', source: 'x' };
    expect(Array.from((await cache.spillOn(outside, 10)) as Float32Array)).toEqual([Infinity, Infinity, Infinity, Infinity]);
  });

  it('connects the basin through the gap the half-resolution trace misses, at the gap\'s ground', async () => {
    const { source, cache } = await readyCache({ side: 45, seaSurface: -0.1 });
    const grid = await halfGrid(source);
    const basin = basinCells(grid);
    expect(basin).toHaveLength((width / 2 - RIDGE_COL / 2 - 1) * (height / 2));
    const level = 1;
    const without = (await connectedFloodModel(grid, -0.09, tracedAtHalf(grid, -0.09))).model;
    expect(basin.filter((i) => isInundated(without, i, level))).toEqual([]);

    const { model, cacheUse } = await connectedFloodModel(grid, -0.09, tracedAtHalf(grid, -0.09, cache));
    expect(cacheUse).toEqual({ elevation_model_id: 'em_gap', sea_surface_navd88_m: -0.1, water_flag: false, cell_size_m: 10, used: true, cells_lowered: basin.length });
    expect(basin.every((i) => isInundated(model, i, level) && model.spill[i] === Math.fround(GAP))).toBe(true);
    expect(basin.some((i) => isInundated(model, i, Math.fround(GAP)))).toBe(false);
    // The ridge itself still stands above the level, and the coast keeps its own spill level.
    const ridgeCol = RIDGE_COL / 2;
    for (let row = 0; row < grid.height; row++) {
      expect(isInundated(model, row * grid.width + ridgeCol, level)).toBe(false);
      expect(model.spill[row * grid.width + 10]).toBe(Math.fround(COAST));
    }
    expect(describeConnection(tracedAtHalf(grid, -0.09, cache), cacheUse)).toMatchObject({ model_cache: { ...cacheUse, method: expect.stringContaining('nearest') } });
  });

  it('connects, in the native-resolution pass of an area, land whose only path to the sea leaves every window read', async () => {
    // 300 columns: the gap at column 20, the area east of column 150, farther than a window's margin from it.
    const long: Shape = { width: 300, height: 30, groundAt: (row, col) => (col === RIDGE_COL ? (row === 15 ? GAP : RIDGE) : groundAt(row, col)) };
    const { source, cache } = await readyCache({ side: 128, seaSurface: -0.1, shape: long });
    expect(150 - RIDGE_COL).toBeGreaterThan(MARGIN_CELLS);
    const edge = (col: number) => west + (col - 0.5) * cell, row = (r: number) => north - (r - 0.5) * cell;
    const polygon = { type: 'Polygon' as const, coordinates: [[[edge(150), row(30)], [edge(300), row(30)], [edge(300), row(0)], [edge(150), row(0)], [edge(150), row(30)]]] };
    const box: BBox = [edge(150), row(30), edge(300), row(0)];
    let area = 0;
    for (let r = 0; r < 30; r++) area += 150 * (cell * 111_320) ** 2 * Math.cos(((north - r * cell) * Math.PI) / 180);
    const grid = await halfGrid(source, [west, north - 29 * cell, west + 299 * cell, north], 160 * 16);
    const tally = (connection?: Connection) => tallyAtNativeResolution(source, polygon, box, -0.09, async () => {}, {}, connection);
    expect((await tally()).areaBelow(1)).toBe(0);
    expect((await tally(tracedAtHalf(grid, -0.09))).areaBelow(1)).toBe(0);
    const connected = await tally(tracedAtHalf(grid, -0.09, cache));
    expect(connected.areaBelow(1)).toBeCloseTo(area, 0);
    // Connected over the gap's ground: nothing of it below 0.7 m.
    expect(connected.areaBelow(GAP - 0.01)).toBe(0);
  });

  it('is not used where it was traced with a sea surface above the answer\'s mean sea level, and the model has no water flag', async () => {
    const { source, cache } = await readyCache({ side: 45, seaSurface: 0 });
    const grid = await halfGrid(source);
    const { model, cacheUse } = await connectedFloodModel(grid, -0.2, tracedAtHalf(grid, -0.2, cache));
    expect(cacheUse).toMatchObject({ used: false, sea_surface_navd88_m: 0, reason: expect.stringContaining('above this location\'s mean sea level (-0.200 m NAVD88)') });
    expect(basinCells(grid).filter((i) => isInundated(model, i, 1))).toEqual([]);
    // At the surface itself it is.
    expect((await connectedFloodModel(grid, 0, tracedAtHalf(grid, 0, cache))).cacheUse).toMatchObject({ used: true });
  });

  it('is used at any mean sea level where the model flags its own water', async () => {
    const { source, cache } = await readyCache({ side: 45, seaSurface: 0, waterFlag: true });
    const grid = await halfGrid(source);
    const { model, cacheUse } = await connectedFloodModel(grid, -0.2, tracedAtHalf(grid, -0.2, cache));
    expect(cacheUse).toMatchObject({ used: true, water_flag: true, cells_lowered: basinCells(grid).length });
    expect(basinCells(grid).every((i) => isInundated(model, i, 1))).toBe(true);
  });

  it('is not read by a grid spanning more of its tiles than one grid reads', async () => {
    const { source, cache } = await readyCache({ side: 8, seaSurface: 0 });
    const grid = (await source.grid(box, 4 * width * height))!;
    const tiles = Math.ceil(width / 8) * Math.ceil(height / 8);
    expect(tiles).toBeGreaterThan(MAX_CACHE_TILES_PER_GRID);
    const { cacheUse } = await connectedFloodModel(grid, 0, { ...tracedAtHalf(grid, 0), cache });
    expect(cacheUse).toMatchObject({ used: false, reason: `The grid spans ${tiles} tiles of the cache, more than the ${MAX_CACHE_TILES_PER_GRID} one grid reads.` });
  });

  it('comes with the connection traced around a place in the model that answers there, once ready', async () => {
    const model = await cachedModel({ side: 45, seaSurface: 0 });
    await model.trace();
    const layered = new LayeredElevationSource([model.source]);
    const place = { lon: west + 50 * cell, lat: north - 20 * cell };
    const around: BBox = [place.lon - 5 * cell, place.lat - 5 * cell, place.lon + 5 * cell, place.lat + 5 * cell];
    const before = await connectionAround(layered, place, around, -0.05);
    expect(before).toMatchObject({ models: ['em_gap'] });
    expect(before).not.toHaveProperty('cache');
    model.source.markConnectionReady();
    const after = (await connectionAround(layered, place, around, -0.05))!;
    expect(after.cache).toBe(await model.source.cachedConnection());
    // The same trace, kept: only the cache was added.
    expect(after.model).toBe(before!.model);
  });

  it('is offered once the model\'s listing says its run is ready, read once and kept', async () => {
    const model = await cachedModel({ side: 45, seaSurface: 0 });
    await model.trace();
    const gets = model.blobs.gets.length;
    expect(await model.source.cachedConnection()).toBeUndefined();
    expect(model.blobs.gets.length).toBe(gets);
    model.source.markConnectionReady();
    const cache = await model.source.cachedConnection();
    expect(cache).toMatchObject({ elevation_model_id: 'em_gap', sea_surface_navd88_m: 0, water_flag: false, cell_size_m: 10 });
    const after = model.blobs.gets.length;
    expect(await model.source.cachedConnection()).toBe(cache);
    expect(model.blobs.gets.length).toBe(after);
  });

  it('is not offered without a ready status beside the model (then asked again), nor for a model held on EGM96', async () => {
    const model = await cachedModel({ side: 45, seaSurface: 0 });
    model.source.markConnectionReady();
    await model.blobs.put(connectionKeys(prefix).status, JSON.stringify({ status: 'failed', error: 'States.TaskFailed' }));
    expect(await model.source.cachedConnection()).toBeUndefined();
    await model.trace();
    expect(await model.source.cachedConnection()).toMatchObject({ elevation_model_id: 'em_gap' });
    const { record } = model.source;
    const egm = new BlobModelSource({ ...record, vertical_datum: 'EGM96', pyramid: { ...record.pyramid, vertical_datum: 'EGM96' } }, model.blobs, prefix);
    egm.markConnectionReady();
    expect(await egm.cachedConnection()).toBeUndefined();
  });

  it('fails an answer whose ready cache lost its tile list, and reads it again for the next', async () => {
    const model = await cachedModel({ side: 45, seaSurface: 0 });
    await model.trace();
    model.source.markConnectionReady();
    const list = model.blobs.objects.get(connectionKeys(prefix).tiles)!;
    model.blobs.objects.delete(connectionKeys(prefix).tiles);
    await expect(model.source.cachedConnection()).rejects.toThrow('em_gap has a ready connection without its tile list');
    model.blobs.objects.set(connectionKeys(prefix).tiles, list);
    expect(await model.source.cachedConnection()).toBeDefined();
  });
});
