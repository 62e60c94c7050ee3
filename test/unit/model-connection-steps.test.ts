import { writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import { readCachedSpill, readConnectionStatus } from '../../shared/adapters/elevation/connection-cache';
import {
  connectionKeys, connectionTiles, finishModelConnection, joinModelTiles, settleModelTile, startModelConnection, traceModelTile,
} from '../../shared/application/elevation-models/model-connection';
import { CONNECTION_TILE_SIDE, MAX_CONNECTION_TILES } from '../../shared/domain/elevation-models/connection';
import { TILE_SIZE } from '../../shared/domain/elevation-models/pyramid';
import type { ElevationModelRecord } from '../../shared/domain/elevation-models/model';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { decodeTrace, encodeTrace, traceTile } from '../../shared/domain/hazards/tiled-connection';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { MemoryConnectionRecords, pendingRun } from '../helpers/memory-connection-records';
import { syntheticModel, syntheticWindow } from '../helpers/synthetic-surface';

/**
 * The steps the state machine runs, in order, over a processed model in a bucket: trace every
 * tile, join, settle every tile. The cached spill levels equal the single-grid flood of the
 * model's level 0, cell for cell.
 */
const width = 700, height = 520, seaSurface = 0.2;
const surface = syntheticWindow({ width, height, seed: 5 }, 0, 0, width, height, seaSurface);
const prefix = 'elevation-models/acct_test/em_tiles/';
const run = { account_id: 'acct_test', elevation_model_id: 'em_tiles', run_id: 'conn_1', model_prefix: prefix, sea_surface_navd88_m: seaSurface };

async function storedModel(): Promise<{ blobs: MemoryBlobs; record: ElevationModelRecord }> {
  const blobs = new MemoryBlobs();
  // No water flag: the steps decide water from the sea surface, as the flood model does.
  const { record, tiles } = syntheticModel('em_tiles', surface.values, width, height);
  await writeProcessedModel(blobs, prefix, record, tiles);
  return { blobs, record };
}

describe('the tile fan-out steps over a stored model', () => {
  it('caches every cell\'s spill level over the whole model, as the single grid gives it', async () => {
    const { blobs, record } = await storedModel();
    const tiles = connectionTiles(record, 300);
    expect(tiles).toHaveLength(3 * 2);
    for (const tile of tiles) await traceModelTile(blobs, run, tile);
    await joinModelTiles(blobs, run, tiles);
    for (const tile of tiles) await settleModelTile(blobs, run, tile);
    const records = new MemoryConnectionRecords(['em_tiles']);
    await records.startConnection('acct_test', 'em_tiles', pendingRun('conn_1', 6));
    await finishModelConnection({ blobs, records, now: () => new Date('2026-11-23T21:05:00.000Z') }, run, { status: 'ready', tiles: tiles.length, sea_surface_navd88_m: seaSurface });

    const single = spillLevels(surface, (i) => surface.water[i] === 1);
    let differing = 0;
    for (const tile of tiles) {
      const spill = (await readCachedSpill(blobs, prefix, tile))!;
      for (let r = 0; r < tile.height; r++) {
        for (let c = 0; c < tile.width; c++) if (spill[r * tile.width + c] !== single[(tile.row + r) * width + tile.col + c]) differing++;
      }
    }
    expect(differing).toBe(0);
    expect(await readConnectionStatus(blobs, prefix)).toEqual({ status: 'ready', tiles: 6, sea_surface_navd88_m: seaSurface });
    expect(records.connections.get('em_tiles')).toMatchObject({ status: 'ready', finished_at: '2026-11-23T21:05:00.000Z', error: null });
  });

  it('records a failed run on its model with the error the state machine caught, and no outcome of a run that is no longer the model\'s', async () => {
    const { blobs } = await storedModel();
    const records = new MemoryConnectionRecords(['em_tiles']);
    await records.startConnection('acct_test', 'em_tiles', pendingRun('conn_1', 6));
    const deps = { blobs, records, now: () => new Date('2026-11-23T21:05:00.000Z') };
    await finishModelConnection(deps, { ...run, run_id: 'conn_0' }, { status: 'ready', tiles: 6, sea_surface_navd88_m: seaSurface });
    expect(records.connections.get('em_tiles')!.status).toBe('pending');
    await finishModelConnection(deps, run, { status: 'failed', error: 'States.TaskFailed', cause: 'Lambda.Unknown' });
    expect(records.connections.get('em_tiles')).toMatchObject({
      status: 'failed', finished_at: '2026-11-23T21:05:00.000Z', error: { code: 'tile_pass_failed', detail: expect.stringContaining('States.TaskFailed: Lambda.Unknown') },
    });
  });

  it('refuses to join before every tile is traced, naming the missing object', async () => {
    const { blobs, record } = await storedModel();
    const tiles = connectionTiles(record, 300);
    await traceModelTile(blobs, run, tiles[0]!);
    await expect(joinModelTiles(blobs, run, tiles)).rejects.toThrow(`The object ${connectionKeys(prefix).trace(tiles[1]!)} is missing.`);
  });

  it('leaves out the windows without data, and caches the rest as the single grid floods them', async () => {
    // No data east of column 512 (two whole tiles of level 0 a row), nor in rows 256–511 west of column 256.
    const values = Float32Array.from(surface.values, (v, i) => (i % width >= 512 || (Math.floor(i / width) >= 256 && Math.floor(i / width) < 512 && i % width < 256) ? NaN : v));
    const blobs = new MemoryBlobs();
    const { record, tiles: stored } = syntheticModel('em_tiles', values, width, height);
    await writeProcessedModel(blobs, prefix, record, stored);
    const tiles = connectionTiles(record, 256);
    // Of 3 × 3 windows of 256, those east of 512 and the middle one of the west hold no data (the one below it does).
    expect(tiles.map(({ row, col }) => `${row},${col}`)).toEqual(['0,0', '0,256', '256,256', '512,0', '512,256']);
    for (const tile of tiles) await traceModelTile(blobs, run, tile);
    await joinModelTiles(blobs, run, tiles);
    for (const tile of tiles) await settleModelTile(blobs, run, tile);
    const water = Uint8Array.from(values, (v) => (v <= Math.fround(seaSurface) ? 1 : 0));
    const single = spillLevels({ ...surface, values }, (i) => water[i] === 1);
    let differing = 0, cells = 0;
    for (const tile of tiles) {
      const spill = (await readCachedSpill(blobs, prefix, tile))!;
      for (let r = 0; r < tile.height; r++) {
        for (let c = 0; c < tile.width; c++, cells++) if (spill[r * tile.width + c] !== single[(tile.row + r) * width + tile.col + c]) differing++;
      }
    }
    expect(cells).toBe(3 * 256 * 256 + 2 * 256 * 8);
    expect(differing).toBe(0);
    // Every cell left out is without data, and no water reaches it in the single grid either.
    for (let i = 0; i < values.length; i++) {
      if (tiles.some((tile) => Math.floor(i / width) >= tile.row && Math.floor(i / width) < tile.row + tile.height && i % width >= tile.col && i % width < tile.col + tile.width)) continue;
      if (!Number.isNaN(values[i]!) || single[i] !== Infinity) differing++;
    }
    expect(differing).toBe(0);
  });

  it('fails at once, never started, a run over more tiles with data than one join holds', async () => {
    const start = async (tilesASide: [number, number]) => {
      const [across, down] = tilesASide;
      const side = CONNECTION_TILE_SIDE, per = side / TILE_SIZE;
      // One stored tile of level 0 in every window: each window holds data.
      const names = Array.from({ length: across * down }, (_, i) => `${(i % across) * per}-${Math.floor(i / across) * per}`);
      const { record } = syntheticModel('em_big', new Float32Array(4).fill(1), 2, 2);
      const big = { ...record, pyramid: { ...record.pyramid, levels: [{ ...record.pyramid.levels[0]!, width: across * side, height: down * side, tiles: names }] } };
      const blobs = new MemoryBlobs();
      await blobs.put('elevation-models/acct_test/em_big/model.json', JSON.stringify(big));
      const records = new MemoryConnectionRecords(['em_big']);
      const started: unknown[] = [];
      const fanOut = { leaseMs: 3_600_000, start: async (run: unknown) => { started.push(run); } };
      await startModelConnection({ blobs, records, fanOut, now: () => new Date('2026-11-30T12:00:00.000Z') }, { account_id: 'acct_test', elevation_model_id: 'em_big', model_key: 'elevation-models/acct_test/em_big/model.json' });
      return { started, connection: records.connections.get('em_big')!, listed: blobs.objects.has('elevation-models/acct_test/em_big/connection/tiles.json') };
    };
    const over = await start([80, 76]);
    expect(80 * 76).toBeGreaterThan(MAX_CONNECTION_TILES);
    expect(over.started).toEqual([]);
    expect(over.listed).toBe(false);
    expect(over.connection).toMatchObject({
      status: 'failed', tiles: 6080, finished_at: '2026-11-30T12:00:00.000Z',
      error: { code: 'connection_too_large', detail: expect.stringContaining(`data in 6080 tiles of 2048² cells; one join holds the rims of at most ${MAX_CONNECTION_TILES}`) },
    });
    const within = await start([80, MAX_CONNECTION_TILES / 80]);
    expect(within.started).toHaveLength(1);
    expect(within.connection).toMatchObject({ status: 'pending', tiles: MAX_CONNECTION_TILES });
  });

  it('keeps a trace through its bytes unchanged', () => {
    const tile = syntheticWindow({ width: 50, height: 50, seed: 2 }, 10, 20, 33, 17);
    const trace = traceTile(tile);
    expect(decodeTrace(encodeTrace(trace))).toEqual(trace);
  });
});
