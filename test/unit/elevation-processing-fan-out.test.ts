import { processDem, processStoredDem, type ProcessedDem } from '../../shared/adapters/elevation/geotiff-dem';
import { accountModelPrefix, processingBatchKey } from '../../shared/adapters/elevation/processed-keys';
import {
  discardWindowBatches, InProcessProcessingFanOut, inProcessSteps, processWindowBatch, type ProcessingRunStart,
} from '../../shared/application/elevation-models/processing-fan-out';
import { failedRunOutcome, processElevationUpload, recordRunOutcome, type WorkerDeps } from '../../shared/application/elevation-models/processing-jobs';
import { ACCOUNT, entry, fakeFanOut, fakeStore, MODEL } from '../helpers/elevation-worker-fakes';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { writeTiff } from '../helpers/tiff-writer';

/**
 * A model of more windows than one run takes is processed in batches of windows (the Distributed
 * Map in AWS, a thread pool locally), each batch on its own, then joined: the model is the one a
 * single run makes, tile for tile.
 */
const PREFIX = accountModelPrefix(ACCOUNT, MODEL);
const NAVD88_M = { vertical_datum: 'NAVD88', units: 'm' } as const;
const terrain = (row: number, col: number) => 2 + Math.sin(row / 7) * Math.cos(col / 5) + ((row * 7919 + col * 104_729) % 1000) / 997;
/** 1,000 × 800 cells: in windows of one tile (256 cells a side), 4 × 4 windows, batches of 3. */
const raster = (value = terrain) => writeTiff({
  width: 1000, height: 800, epsg: 26917, origin: [340_000, 3_090_000], cellSize: [3, 3], nodata: '-9999', compression: 'deflate', layout: { tile: 128 }, value,
});
const LEASE = { owner: 'worker_1', attempt: 1, expires_at: '2026-11-23T21:16:00.000Z' };
const NOW = new Date('2026-11-23T21:00:00.000Z');

/** The worker with an in-process fan-out over `blobs`, three batches at a time; the runs it started. */
function fannedOutWorker(blobs: MemoryBlobs, store = fakeStore(entry({ vertical_datum: 'NAVD88', units: 'm', ngvd29_to_navd88_m: null, lease: LEASE }))) {
  const started: ProcessingRunStart[] = [];
  const extended: string[] = [];
  Object.assign(store, { extendLease: async (_account: string, _id: string, owner: string, expiresAt: string) => { extended.push(`${owner} ${expiresAt}`); return true; } });
  const connections = fakeFanOut();
  const outcomeDeps = { models: store, blobs, now: () => NOW, fanOut: connections };
  const fanOut = new InProcessProcessingFanOut({
    steps: inProcessSteps(blobs), concurrency: 3, now: () => NOW,
    record: (run, outcome) => recordRunOutcome(outcomeDeps, run, outcome),
    discard: (run, batches) => discardWindowBatches(blobs, run, batches),
    letGo: async (run) => { await store.release(run.account_id, run.elevation_model_id, run.lease.owner); },
  });
  const recording = { leaseMs: fanOut.leaseMs, start: async (start: ProcessingRunStart) => { started.push(start); await fanOut.start(start); } };
  const deps: WorkerDeps = { ...outcomeDeps, processDem: processStoredDem(blobs), processing: { fanOut: recording, windowTiles: 1, windowsPerRun: 3, windowsPerBatch: 3 } };
  return { deps, store, started, extended, connections, idle: () => fanOut.idle() };
}

/** `upload` put in `blobs` and processed by the fanned-out worker (as `configure` sets it) to the end. */
async function processUpload(blobs: MemoryBlobs, upload = raster(), configure?: (deps: WorkerDeps) => void) {
  blobs.objects.set(entry().upload_key, Buffer.from(upload));
  const worker = fannedOutWorker(blobs);
  configure?.(worker.deps);
  await processElevationUpload(worker.deps, entry().upload_key, upload.byteLength);
  await worker.idle();
  return worker;
}

const leftUnder = (blobs: MemoryBlobs, prefix: string) => [...blobs.objects.keys()].filter((key) => key.startsWith(prefix));

describe('a model processed in batches of windows', () => {
  let single: ProcessedDem;
  beforeAll(async () => {
    // The same file in one run, in its default windows (16 tiles a side: one window here).
    single = await processDem(raster(), NAVD88_M);
  }, 120_000);

  it('is fanned out past one run\'s windows, under a lease held as long as a fanned-out run, and becomes the single run\'s model tile for tile', async () => {
    const blobs = new MemoryBlobs();
    const worker = await processUpload(blobs);
    expect(worker.started).toHaveLength(1);
    const [{ run, batches }] = worker.started as [ProcessingRunStart];
    expect(batches).toEqual([{ first: 0, count: 3 }, { first: 3, count: 3 }, { first: 6, count: 3 }, { first: 9, count: 3 }, { first: 12, count: 3 }, { first: 15, count: 1 }]);
    // 2 h 10 min from the start: longer than a run may take.
    expect(worker.extended).toEqual(['worker_1 2026-11-23T23:10:00.000Z']);
    expect(run).toMatchObject({ lease: { owner: 'worker_1', attempt: 1, expires_at: '2026-11-23T23:10:00.000Z' }, model_prefix: PREFIX, window_tiles: 1 });
    expect(worker.store.finished).toEqual([{ ready: expect.objectContaining({ model_key: `${PREFIX}model.json` }) }]);
    const record = JSON.parse(blobs.objects.get(`${PREFIX}model.json`)!.toString('utf8'));
    expect(record.pyramid).toEqual(single.index);
    // Every tile of the single run, byte for byte, and nothing else but the tile list of the
    // connection run the ready model started: the batches' results are gone.
    const kept = [...[...single.tiles.keys()].map((key) => `${PREFIX}${key}`), `${PREFIX}model.json`, `${PREFIX}connection/tiles.json`];
    expect(leftUnder(blobs, PREFIX).sort()).toEqual(kept.sort());
    for (const [key, tile] of single.tiles) expect({ key, same: Buffer.compare(blobs.objects.get(`${PREFIX}${key}`)!, Buffer.from(tile)) === 0 }).toEqual({ key, same: true });
    // The uploads are removed and the ready model's connection run started.
    expect(blobs.objects.has(entry().upload_key)).toBe(false);
    expect(worker.connections.started).toHaveLength(1);
  }, 120_000);

  it('fails the model with a refusal found in one batch, keeping none of the tiles the other batches wrote', async () => {
    const blobs = new MemoryBlobs();
    // One window of the fourth batch is 9,500 m high.
    const worker = await processUpload(blobs, raster((row, col) => (row > 600 && col > 700 ? 9_500 : terrain(row, col))));
    expect(worker.store.finished).toEqual([{ error: { code: 'elevation_out_of_range', detail: expect.stringContaining('9500') } }]);
    expect(leftUnder(blobs, PREFIX)).toEqual([]);
    expect(blobs.objects.has(entry().upload_key)).toBe(false);
    expect(worker.connections.started).toEqual([]);
  }, 120_000);

  it('lets the lease go when a batch cannot read the upload from storage, the upload kept and no batch\'s tiles left', async () => {
    /** Storage failing every read once 12 ranges were served (each batch opens the file again): some batches finish, others do not. */
    class FailingBlobs extends MemoryBlobs {
      override async readRange(key: string, start: number, end: number) {
        if (this.ranges.length >= 12) throw Object.assign(new Error('Service unavailable'), { name: 'ServiceUnavailable' });
        return super.readRange(key, start, end);
      }
    }
    const blobs = new FailingBlobs();
    const worker = await processUpload(blobs);
    expect({ released: worker.store.released, finished: worker.store.finished }).toEqual({ released: ['worker_1'], finished: [] });
    expect(blobs.objects.has(entry().upload_key)).toBe(true);
    expect(leftUnder(blobs, PREFIX)).toEqual([]);
  }, 120_000);

  it('processes a model of at most one run\'s windows in that run, never fanned out', async () => {
    const worker = await processUpload(new MemoryBlobs(), raster(), (deps) => { deps.processing = { ...deps.processing, windowsPerRun: 16 }; });
    expect(worker.started).toEqual([]);
    expect(worker.store.finished).toEqual([{ ready: expect.anything() }]);
  }, 120_000);
});

describe('the failure path of a fanned-out run', () => {
  const run = { elevation_model_id: MODEL, run_id: 'proc_1' } as Parameters<typeof failedRunOutcome>[0];

  it('reads a storage failure from the Lambda error Step Functions passes on, anything else is an internal error', () => {
    expect(failedRunOutcome(run, { Error: 'UploadReadError', Cause: JSON.stringify({ errorType: 'UploadReadError', errorMessage: 'Reading the stored upload failed: Slow Down' }) }))
      .toEqual({ unreadable: 'Reading the stored upload failed: Slow Down' });
    expect(failedRunOutcome(run, { Error: 'UploadReadError', Cause: 'not JSON' })).toEqual({ unreadable: 'not JSON' });
    expect(failedRunOutcome(run, { Error: 'States.Timeout' })).toEqual({ error: { code: 'internal_error', detail: expect.stringContaining(MODEL) } });
  });
});

describe('the leftovers of a failed fanned-out run', () => {
  /** A run handed to the fan-out and not started: its batches are then run (or not) by the test. */
  async function plannedRun(blobs: MemoryBlobs): Promise<ProcessingRunStart> {
    blobs.objects.set(entry().upload_key, Buffer.from(raster()));
    const worker = fannedOutWorker(blobs);
    const started: ProcessingRunStart[] = [];
    worker.deps.processing = { ...worker.deps.processing!, fanOut: { leaseMs: 60_000, start: async (start) => { started.push(start); } } };
    await processElevationUpload(worker.deps, entry().upload_key, raster().byteLength);
    expect(started).toHaveLength(1);
    return started[0]!;
  }

  /** Batch 0 ran to its result; batch 1 wrote its tiles and died before its result (and part of its last window); the rest never ran. */
  async function diedPartWay(blobs: MemoryBlobs, { run, batches }: ProcessingRunStart) {
    expect(batches.length).toBeGreaterThan(2);
    await processWindowBatch(blobs, run, batches[0]!);
    await processWindowBatch(blobs, run, batches[1]!);
    blobs.objects.delete(processingBatchKey(run.model_prefix, run.run_id, batches[1]!.first));
    const orphans = leftUnder(blobs, PREFIX).filter((key) => !key.includes('/processing/'));
    blobs.objects.delete(orphans.at(-1)!);
    return orphans.length;
  }

  it('removes every tile a batch that died part-way may have written, as well as the finished batches\' tiles and results', async () => {
    const blobs = new MemoryBlobs();
    const start = await plannedRun(blobs);
    // Two batches of three windows of one tile each wrote their tiles (the model's finer levels only).
    expect(await diedPartWay(blobs, start)).toBe(6);
    await discardWindowBatches(blobs, start.run, start.batches);
    expect(leftUnder(blobs, PREFIX)).toEqual([]);
    expect(blobs.objects.has(entry().upload_key)).toBe(true);
  }, 120_000);

  it('without the uploads, still removes every tile a dead batch may have written, named from the lattice the run carries', async () => {
    const blobs = new MemoryBlobs();
    const start = await plannedRun(blobs);
    expect(await diedPartWay(blobs, start)).toBe(6);
    blobs.objects.delete(entry().upload_key);
    await discardWindowBatches(blobs, start.run, start.batches);
    expect(leftUnder(blobs, PREFIX)).toEqual([]);
  }, 120_000);

  it('for a run started before its lattice was recorded, without the uploads to plan from, leaves only the dead batch\'s tiles', async () => {
    const blobs = new MemoryBlobs();
    const start = await plannedRun(blobs);
    const { lattice, ...olderRun } = start.run;
    expect(lattice).toBeDefined();
    await diedPartWay(blobs, start);
    const dead = start.batches[1]!;
    blobs.objects.delete(entry().upload_key);
    await discardWindowBatches(blobs, olderRun, start.batches);
    const left = leftUnder(blobs, PREFIX);
    expect(left.length).toBeGreaterThan(0);
    expect(left.some((key) => key.includes('/processing/'))).toBe(false);
    // The dead batch's windows are windows first..first+count−1 of 1-tile windows, 4 a row: level-0 tiles named by them alone.
    const level0 = left.filter((key) => key.includes('/0/')).map((key) => /\/0\/(\d+)-(\d+)\.bin\.gz$/.exec(key)!.slice(1).map(Number));
    for (const [tx, ty] of level0) expect(ty! * 4 + tx!).toBeGreaterThanOrEqual(dead.first);
    for (const [tx, ty] of level0) expect(ty! * 4 + tx!).toBeLessThan(dead.first + dead.count);
  }, 120_000);
});
