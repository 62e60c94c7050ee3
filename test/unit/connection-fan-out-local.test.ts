import { PooledTilePasses } from '../../shared/adapters/elevation/connection-threads';
import { readCachedSpill, readConnectionStatus } from '../../shared/adapters/elevation/connection-cache';
import { writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import { MODEL_FILE } from '../../shared/adapters/elevation/tiled-model';
import {
  IN_PROCESS_PASSES, InProcessConnectionFanOut, connectionTiles, startModelConnection, type ModelConnectionRun,
} from '../../shared/application/elevation-models/model-connection';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { MemoryConnectionRecords, pendingRun } from '../helpers/memory-connection-records';
import { syntheticModel, syntheticWindow } from '../helpers/synthetic-surface';

/** The sea surface these runs are traced for (a run carries its own; the start takes the lowest MSL of the gauges over the model). */
const SEA_SURFACE_NAVD88_M = 0;

/**
 * The local fan-out: a model's connection run in the background, its tile passes on a pool of two
 * threads, its objects in the bucket. The cache equals the flood of the whole grid, computed here
 * from the synthetic cells alone; the run records its own outcome on the model.
 */
const width = 700, height = 520;
const ACCOUNT = 'acct_test', MODEL = 'em_pool';
const prefix = `elevation-models/${ACCOUNT}/${MODEL}/`;
const surface = syntheticWindow({ width, height, seed: 11 }, 0, 0, width, height, SEA_SURFACE_NAVD88_M);

let passes: PooledTilePasses;
beforeAll(() => { passes = new PooledTilePasses(2); });
afterAll(() => passes.close());

async function setUp() {
  const blobs = new MemoryBlobs();
  const { record, tiles } = syntheticModel(MODEL, surface.values, width, height);
  await writeProcessedModel(blobs, prefix, record, tiles);
  const records = new MemoryConnectionRecords([MODEL]);
  const fanOut = new InProcessConnectionFanOut({ blobs, records, now: () => new Date('2026-11-23T21:05:00.000Z') }, passes);
  return { blobs, record, records, fanOut };
}

const pending = pendingRun;

describe('the connection fan-out on a thread pool', () => {
  it('caches every cell\'s spill level over the model, tile by tile, equal to the single grid\'s, and records it ready', async () => {
    const { blobs, record, records, fanOut } = await setUp();
    const tiles = connectionTiles(record, 256);
    expect(tiles).toHaveLength(9);
    const run: ModelConnectionRun = { account_id: ACCOUNT, elevation_model_id: MODEL, run_id: 'conn_a', model_prefix: prefix, sea_surface_navd88_m: SEA_SURFACE_NAVD88_M };
    await records.startConnection(ACCOUNT, MODEL, pending('conn_a', tiles.length));
    await fanOut.start({ run, tiles });
    await fanOut.idle();

    const single = spillLevels(surface, (i) => surface.water[i] === 1);
    let differing = 0, compared = 0;
    for (const tile of tiles) {
      const spill = (await readCachedSpill(blobs, prefix, tile))!;
      for (let r = 0; r < tile.height; r++) {
        for (let c = 0; c < tile.width; c++) {
          compared++;
          if (!Object.is(spill[r * tile.width + c], single[(tile.row + r) * width + tile.col + c])) differing++;
        }
      }
    }
    expect(compared).toBe(width * height);
    expect(differing).toBe(0);
    expect(records.connections.get(MODEL)).toEqual({ ...pending('conn_a', 9), status: 'ready', finished_at: '2026-11-23T21:05:00.000Z', lease: null });
    expect(await readConnectionStatus(blobs, prefix)).toEqual({ status: 'ready', tiles: 9, sea_surface_navd88_m: 0 });
  }, 120_000);

  it('starts from a ready model\'s record: pending at once, ready when its run ends', async () => {
    const { blobs, records, fanOut } = await setUp();
    const run = await startModelConnection({ blobs, records, fanOut, now: () => new Date('2026-11-23T21:00:00.000Z') }, { account_id: ACCOUNT, elevation_model_id: MODEL, model_key: `${prefix}${MODEL_FILE}` });
    expect(run!.model_prefix).toBe(prefix);
    expect(records.connections.get(MODEL)!.status).toBe('pending');
    // The run's tiles listed beside the model, where a fan-out's steps read them: the one tile of 700 × 520.
    expect(JSON.parse(blobs.objects.get(`${prefix}connection/tiles.json`)!.toString('utf8'))).toEqual([{ row: 0, col: 0, width, height }]);
    await fanOut.idle();
    expect(records.connections.get(MODEL)).toMatchObject({ status: 'ready', tiles: 1, run_id: run!.run_id, error: null });
  }, 120_000);

  it('records a run failed, never started, when its tile list cannot be written beside the model', async () => {
    const { blobs, records } = await setUp();
    const put = blobs.put.bind(blobs);
    blobs.put = async (key, body) => {
      if (key === `${prefix}connection/tiles.json`) throw new Error('S3 is unreachable');
      return put(key, body);
    };
    const started: unknown[] = [];
    const fanOut = { leaseMs: 60_000, start: async (start: unknown) => { started.push(start); } };
    await startModelConnection({ blobs, records, fanOut, now: () => new Date('2026-11-23T21:00:00.000Z') }, { account_id: ACCOUNT, elevation_model_id: MODEL, model_key: `${prefix}${MODEL_FILE}` });
    expect(started).toEqual([]);
    expect(records.connections.get(MODEL)).toMatchObject({ status: 'failed', lease: null, error: { code: 'connection_not_started' } });
  });

  it('records the run failed, naming what was missing, when a tile cannot be read', async () => {
    const { blobs, record, records, fanOut } = await setUp();
    const tiles = connectionTiles(record, 256);
    // The pyramid's tiles gone (the record kept): the first tile pass cannot read its cells.
    for (const key of [...blobs.objects.keys()]) if (key !== `${prefix}${MODEL_FILE}`) blobs.objects.delete(key);
    await records.startConnection(ACCOUNT, MODEL, pending('conn_b', tiles.length));
    await fanOut.start({ run: { account_id: ACCOUNT, elevation_model_id: MODEL, run_id: 'conn_b', model_prefix: prefix, sea_surface_navd88_m: 0 }, tiles });
    await fanOut.idle();
    expect(records.connections.get(MODEL)).toMatchObject({ status: 'failed', error: { code: 'tile_pass_failed', detail: expect.stringContaining('is missing') } });
    expect(await readConnectionStatus(blobs, prefix)).toMatchObject({ status: 'failed' });
  }, 120_000);

  /** Tile passes that hold every trace until `release` (or `fail`) is called: a run that goes on as long as the test wants. */
  function heldPasses() {
    let release!: () => void, fail!: (error: Error) => void;
    const held = new Promise<void>((resolve, reject) => { release = resolve; fail = reject; });
    return {
      concurrency: 1, release, fail,
      trace: async (tile: Parameters<typeof IN_PROCESS_PASSES.trace>[0]) => { await held; return IN_PROCESS_PASSES.trace(tile); },
      settle: IN_PROCESS_PASSES.settle,
    };
  }

  it('renews the lease of a run while it goes on, and stops renewing once it ended', async () => {
    const { blobs, record, records } = await setUp();
    const held = heldPasses();
    let clock = Date.parse('2026-11-23T21:01:00.000Z');
    const fanOut = new InProcessConnectionFanOut({ blobs, records, now: () => new Date(clock) }, held, { leaseMs: 120_000, renewEveryMs: 5 });
    const tiles = connectionTiles(record, 256);
    await records.startConnection(ACCOUNT, MODEL, pending('conn_c', tiles.length));
    await fanOut.start({ run: { account_id: ACCOUNT, elevation_model_id: MODEL, run_id: 'conn_c', model_prefix: prefix, sea_surface_navd88_m: 0 }, tiles });
    while (records.renewals.length < 2) {
      clock += 1000;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Each renewal moves the lease to two minutes past the clock it ran at.
    for (const renewal of records.renewals) expect(renewal.runId).toBe('conn_c');
    const last = records.renewals.at(-1)!;
    expect(Date.parse(last.expiresAt) - Date.parse('2026-11-23T21:01:00.000Z')).toBeGreaterThanOrEqual(120_000 + 1000);
    expect(records.connections.get(MODEL)!.lease).toEqual({ owner: 'conn_c', expires_at: last.expiresAt, attempt: 1 });
    held.release();
    await fanOut.idle();
    expect(records.connections.get(MODEL)).toMatchObject({ status: 'ready', lease: null });
    const renewed = records.renewals.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(records.renewals).toHaveLength(renewed);
  }, 120_000);

  it('lets the lease of a run stopped with its process go at once, recording no failure, and of one started after', async () => {
    const { blobs, record, records } = await setUp();
    const held = heldPasses();
    const stoppedAt = new Date('2026-11-23T21:07:00.000Z');
    const fanOut = new InProcessConnectionFanOut({ blobs, records, now: () => stoppedAt }, held);
    const tiles = connectionTiles(record, 256);
    const run: ModelConnectionRun = { account_id: ACCOUNT, elevation_model_id: MODEL, run_id: 'conn_d', model_prefix: prefix, sea_surface_navd88_m: 0 };
    await records.startConnection(ACCOUNT, MODEL, pending('conn_d', tiles.length));
    await fanOut.start({ run, tiles });
    fanOut.stop();
    // The pool's threads end under the pass it was running.
    held.fail(new Error('The connection threads were closed.'));
    await fanOut.idle();
    expect(records.connections.get(MODEL)).toEqual({ ...pending('conn_d', tiles.length), lease: { owner: 'conn_d', expires_at: stoppedAt.toISOString(), attempt: 1 } });
    expect(await readConnectionStatus(blobs, prefix)).toBeUndefined();
    // A run started once the process is stopping is let go the same way, not run nor failed.
    const later = { ...run, run_id: 'conn_e' };
    await records.startConnection(ACCOUNT, MODEL, pending('conn_e', tiles.length));
    await fanOut.start({ run: later, tiles });
    await fanOut.idle();
    expect(records.connections.get(MODEL)).toEqual({ ...pending('conn_e', tiles.length), lease: { owner: 'conn_e', expires_at: stoppedAt.toISOString(), attempt: 1 } });
  }, 120_000);
});
