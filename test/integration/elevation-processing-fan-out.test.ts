import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { processDem, processStoredDem, type ProcessedDem } from '../../shared/adapters/elevation/geotiff-dem';
import { accountModelPrefix, elevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import { S3RangedBlobStore } from '../../shared/adapters/s3-ranged-blob-store';
import {
  discardWindowBatches, runModelProcessing, type ProcessingRunStart,
} from '../../shared/application/elevation-models/processing-fan-out';
import { processClaimedModel, recordRunOutcome, type WorkerDeps } from '../../shared/application/elevation-models/processing-jobs';
import { PROCESSING_FAN_OUT_LEASE_MS } from '../../shared/domain/elevation-models/processing-job';
import type { UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';
import { handler } from '../../functions/elevation-window-worker/handler';
import { PooledProcessingSteps } from '../../local/processing-fan-out';
import { startTestApp } from '../helpers/local-app';
import { writeTiff } from '../helpers/tiff-writer';

/**
 * The processing fan-out against the emulators: the steps the state machine invokes (the window
 * worker's handler) and the local pool of threads, each turning a claimed model into the model one
 * run makes, tile for tile, and recording it on the model's record.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;
let store: DynamoElevationModelStore;
let blobs: S3RangedBlobStore;
let single: ProcessedDem;

const NAVD88_M = { vertical_datum: 'NAVD88', units: 'm' } as const;
const terrain = (row: number, col: number) => 2 + Math.sin(row / 7) * Math.cos(col / 5) + ((row * 7919 + col * 104_729) % 1000) / 997;
/** 700 × 600 cells: 3 × 3 windows of one tile, in five batches of two. */
const UPLOAD = writeTiff({ width: 700, height: 600, epsg: 26917, origin: [340_000, 3_090_000], cellSize: [3, 3], nodata: '-9999', compression: 'deflate', layout: { tile: 128 }, value: terrain });

beforeAll(async () => {
  app = await startTestApp({ backgroundWorkers: false });
  store = new DynamoElevationModelStore();
  blobs = new S3RangedBlobStore();
  single = await processDem(UPLOAD, NAVD88_M);
}, 120_000);
afterAll(async () => { await app?.stop(); });

let counter = 0;
/** A model whose upload is in the bucket, claimed by `worker_a`. */
async function claimedModel(accountId: string): Promise<UploadedElevationModel> {
  const id = `em_${(++counter).toString().padStart(32, 'f')}`;
  const now = new Date();
  await store.create({
    elevation_model_id: id, account_id: accountId, name: 'lidar', source: 'upload', status: 'pending', vertical_datum: 'NAVD88', units: 'm',
    vertical_accuracy_m: 0.1, ngvd29_to_navd88_m: null, upload_key: elevationUploadKey(accountId, id), upload_expires_at: new Date(now.getTime() + 300_000).toISOString(),
    crs: null, resolution_m: null, bbox: null, vertical_conversion: null, model_key: null, error: null, processing_started_at: null,
    created_at: now.toISOString(), updated_at: now.toISOString(),
  });
  await blobs.put(elevationUploadKey(accountId, id), Buffer.from(UPLOAD), 'image/tiff');
  return (await store.claim(accountId, id, now, 'worker_a'))!;
}

/** The worker over the emulators, its fan-out recording the run it is asked to start. */
function workerDeps(started: ProcessingRunStart[]): WorkerDeps {
  return {
    models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs),
    fanOut: { leaseMs: 60_000, start: async () => undefined },
    processing: { fanOut: { leaseMs: PROCESSING_FAN_OUT_LEASE_MS, start: async (start) => { started.push(start); } }, windowTiles: 1, windowsPerRun: 2, windowsPerBatch: 2 },
  };
}

async function expectSingleRunModel(model: UploadedElevationModel) {
  const prefix = accountModelPrefix(model.account_id, model.elevation_model_id);
  const stored = await store.get(model.account_id, model.elevation_model_id);
  expect(stored).toMatchObject({ status: 'ready', model_key: `${prefix}model.json`, crs: { epsg: 26917 }, error: null });
  expect(JSON.parse((await blobs.get(`${prefix}model.json`))!.toString('utf8')).pyramid).toEqual(single.index);
  for (const [key, tile] of single.tiles) expect({ key, same: Buffer.compare((await blobs.get(`${prefix}${key}`))!, Buffer.from(tile)) === 0 }).toEqual({ key, same: true });
  expect(await blobs.exists(model.upload_key)).toBe(false);
}

describe('processing fan-out (S3 and DynamoDB emulators)', () => {
  it('hands a model of more windows than one run to the fan-out under a lease as long as the run may take, and the state machine\'s steps make it ready', async () => {
    const model = await claimedModel('acct_fanout');
    const started: ProcessingRunStart[] = [];
    const before = Date.now();
    await processClaimedModel(workerDeps(started), model);
    expect(started).toHaveLength(1);
    const [{ run, batches }] = started as [ProcessingRunStart];
    expect(batches.map((batch) => batch.count)).toEqual([2, 2, 2, 2, 1]);
    const held = await store.get(model.account_id, model.elevation_model_id);
    expect(held).toMatchObject({ status: 'processing', lease: { owner: 'worker_a', attempt: 1, expires_at: run.lease.expires_at } });
    expect(Date.parse(run.lease.expires_at) - before).toBeGreaterThanOrEqual(PROCESSING_FAN_OUT_LEASE_MS);
    // As the Distributed Map runs them: every batch (here all at once), then the join.
    await Promise.all(batches.map((batch) => handler({ step: 'batch', run, batch })));
    await handler({ step: 'join', run, batches });
    await expectSingleRunModel(model);
    expect(await blobs.exists(`${run.model_prefix}processing/${run.run_id}/batch-0.bin`)).toBe(false);
  }, 120_000);

  it('takes the failure path: the batches\' tiles and results removed, the model failed, the upload removed', async () => {
    const model = await claimedModel('acct_fanout_fail');
    const started: ProcessingRunStart[] = [];
    await processClaimedModel(workerDeps(started), model);
    const [{ run, batches }] = started as [ProcessingRunStart];
    await handler({ step: 'batch', run, batch: batches[0]! });
    const firstTile = `${run.model_prefix}0/0-0.bin.gz`;
    expect(await blobs.exists(firstTile)).toBe(true);
    await handler({ step: 'fail', run, batches, failure: { Error: 'Lambda.Unknown', Cause: 'The Lambda function timed out' } });
    expect(await store.get(model.account_id, model.elevation_model_id)).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
    expect(await blobs.exists(firstTile)).toBe(false);
    expect(await blobs.exists(`${run.model_prefix}processing/${run.run_id}/batch-0.bin`)).toBe(false);
    expect(await blobs.exists(model.upload_key)).toBe(false);
  }, 120_000);

  it('runs the same steps locally on a pool of threads', async () => {
    const model = await claimedModel('acct_fanout_pool');
    const started: ProcessingRunStart[] = [];
    const deps = workerDeps(started);
    await processClaimedModel(deps, model);
    const steps = new PooledProcessingSteps(2);
    try {
      await runModelProcessing({
        steps, concurrency: steps.concurrency, now: () => new Date(),
        record: (run, outcome) => recordRunOutcome(deps, run, outcome),
        discard: (run, batches) => discardWindowBatches(blobs, run, batches),
        letGo: async () => undefined,
      }, started[0]!, 600_000);
    } finally {
      await steps.close();
    }
    await expectSingleRunModel(model);
  }, 120_000);
});

describe('bucket deletes in bulk (S3 emulator)', () => {
  it('removes more keys than one DeleteObjects request takes, missing ones included, and leaves every other object', async () => {
    const keys = Array.from({ length: 1_003 }, (_, i) => `elevation-models/acct_bulk/em_bulk/0/${i}.bin.gz`);
    for (let at = 0; at < keys.length; at += 50) await Promise.all(keys.slice(at, at + 50).map((key) => blobs.put(key, Buffer.of(1), 'application/gzip')));
    await blobs.put('elevation-models/acct_bulk/em_bulk/model.json', '{}', 'application/json');
    await blobs.deleteMany([...keys, 'elevation-models/acct_bulk/em_bulk/never-written.bin']);
    const left = await Promise.all([keys[0]!, keys[999]!, keys[1_000]!, keys[1_002]!].map((key) => blobs.exists(key)));
    expect(left).toEqual([false, false, false, false]);
    expect(await blobs.exists('elevation-models/acct_bulk/em_bulk/model.json')).toBe(true);
  }, 120_000);
});
