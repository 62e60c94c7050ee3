import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/adapters/aws-clients';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import type { UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';
import type { ModelConnection } from '../../shared/domain/elevation-models/connection';
import { requiredSetting } from '../../shared/config';
import { elevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import { modelView } from '../../shared/application/elevation-models/use-cases';
import { elevationModelJobs, type WorkerDeps } from '../../shared/application/elevation-models/processing-jobs';
import { sweepLapsedJobs } from '../../shared/application/jobs/sweep';
import { recordingStarter } from '../helpers/job-messages';
import { MODEL_LEASE_MS } from '../../shared/domain/elevation-models/processing-job';
import type { RangedBlobStore } from '../../shared/ports';
import { startTestApp } from '../helpers/local-app';
import { processDemInThread } from '../../shared/adapters/elevation/dem-thread';
import { UploadReadError } from '../../shared/domain/elevation-models/raster-error';

let app: Awaited<ReturnType<typeof startTestApp>>;
let store: DynamoElevationModelStore;

beforeAll(async () => {
  app = await startTestApp({ backgroundWorkers: false });
  store = new DynamoElevationModelStore();
});
afterAll(async () => { await app?.stop(); });

let counter = 0;
function pending(accountId: string, createdAt = new Date()): UploadedElevationModel {
  const id = `em_${(++counter).toString().padStart(32, '0')}`;
  return {
    elevation_model_id: id, account_id: accountId, name: `model ${counter}`, source: 'upload', status: 'pending', vertical_datum: 'NAVD88', units: 'm',
    vertical_accuracy_m: null, ngvd29_to_navd88_m: null, upload_key: elevationUploadKey(accountId, id),
    upload_expires_at: new Date(createdAt.getTime() + 300_000).toISOString(),
    crs: null, resolution_m: null, bbox: null, vertical_conversion: null, model_key: null, error: null, processing_started_at: null,
    created_at: createdAt.toISOString(), updated_at: createdAt.toISOString(),
  };
}

const READY = { crs: { epsg: 2237, name: 'NAD83 / Florida West (ftUS)' }, resolution_m: 30.46, bbox: [-82.47, 27.92, -82.44, 27.94] as [number, number, number, number], vertical_conversion: 'NAVD88 metres', model_key: 'elevation-models/a/b/model.json' };

describe('elevation model store (DynamoDB emulator)', () => {
  it('is claimed once: a second claim (a repeated notification) gets nothing, and the model leaves the pending index', async () => {
    const since = new Date(Date.now() - 1000);
    const model = pending('acct_claim');
    await store.create(model);
    expect((await store.listPending(since)).map((m) => m.elevation_model_id)).toContain(model.elevation_model_id);
    const [first, second] = await Promise.all([store.claim('acct_claim', model.elevation_model_id, new Date(), 'worker_a'), store.claim('acct_claim', model.elevation_model_id, new Date(), 'worker_a')]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect((first ?? second)!.status).toBe('processing');
    expect((await store.listPending(since)).map((m) => m.elevation_model_id)).not.toContain(model.elevation_model_id);
  });

  it('finishes only a model being processed, and lists only ready ones as usable', async () => {
    const model = pending('acct_finish');
    await store.create(model);
    expect(await store.finish('acct_finish', model.elevation_model_id, { ready: READY }, new Date(), undefined)).toBe(false);
    const claimed = (await store.claim('acct_finish', model.elevation_model_id, new Date(), 'worker_a'))!;
    expect(await store.finish('acct_finish', model.elevation_model_id, { ready: READY }, new Date(), claimed.lease)).toBe(true);
    expect(await store.finish('acct_finish', model.elevation_model_id, { error: { code: 'internal_error', detail: 'late' } }, new Date(), claimed.lease)).toBe(false);
    const failed = pending('acct_finish');
    await store.create(failed);
    const claimedFailed = (await store.claim('acct_finish', failed.elevation_model_id, new Date(), 'worker_a'))!;
    await store.finish('acct_finish', failed.elevation_model_id, { error: { code: 'not_a_geotiff', detail: 'x' } }, new Date(), claimedFailed.lease);
    const ready = await store.listReady('acct_finish');
    expect(ready.map((m) => m.elevation_model_id)).toEqual([model.elevation_model_id]);
    expect(ready[0]).toMatchObject({ ...READY, status: 'ready', error: null });
    expect(await store.listReady('acct_other')).toEqual([]);
  });

  it('lets a lease go at once for its holder only, so the sweep finds the model lapsed with its attempt unchanged', async () => {
    const model = pending('acct_release');
    await store.create(model);
    const claimed = (await store.claim('acct_release', model.elevation_model_id, new Date(), 'worker_a'))!;
    const lapsed = async () => (await store.listExpiredLeases(new Date(Date.now() + 1))).map((m) => m.elevation_model_id);
    expect(await lapsed()).not.toContain(model.elevation_model_id);
    expect(await store.release('acct_release', model.elevation_model_id, 'worker_b', new Date())).toBe(false);
    expect(await store.release('acct_release', model.elevation_model_id, 'worker_a', new Date())).toBe(true);
    expect(await lapsed()).toContain(model.elevation_model_id);
    expect((await store.get('acct_release', model.elevation_model_id))).toMatchObject({ status: 'processing', lease: { owner: 'worker_a', attempt: claimed.lease!.attempt } });
  });

  it('has the processing thread report an upload gone from the bucket as a storage failure, not a corrupt file', async () => {
    const gone = { key: elevationUploadKey('acct_gone', `em_${'9'.repeat(32)}`), size: 500_000 };
    const error = await processDemInThread([gone], { vertical_datum: 'NAVD88', units: 'm' }).then(() => undefined, (e: Error) => e);
    expect(error).toBeInstanceOf(UploadReadError);
    expect(error!.message).toMatch(/^Reading the stored upload failed: the object is no longer in the bucket/);
  });

  it('refuses to delete a model being processed unless its worker was seen lost at that version', async () => {
    const model = pending('acct_delete');
    await store.create(model);
    const claimed = (await store.claim('acct_delete', model.elevation_model_id, new Date(), 'worker_a'))!;
    expect(await store.delete('acct_delete', model.elevation_model_id)).toBe(false);
    expect(await store.delete('acct_delete', model.elevation_model_id, '2000-01-01T00:00:00.000Z')).toBe(false);
    expect(await store.delete('acct_delete', model.elevation_model_id, claimed.updated_at)).toBe(true);
    expect(await store.get('acct_delete', model.elevation_model_id)).toBeUndefined();
    expect(await store.delete('acct_delete', model.elevation_model_id)).toBe(false);
  });

  it('reads a COG registered by URL without the upload fields it never uses, and an item stored before sources as an upload', async () => {
    const cogId = `em_${'c'.repeat(32)}`;
    const legacyId = `em_${'d'.repeat(32)}`;
    const now = new Date().toISOString();
    // As items were stored before the two shapes were told apart: a COG with an upload key, an upload with no source.
    await dynamo().send(new PutCommand({ TableName: requiredSetting('TABLE_NAME'), Item: {
      pk: 'ACCOUNT#acct_shapes', sk: `ELEVMODEL#${cogId}`, entity: 'elevation_model', ...pending('acct_shapes'), elevation_model_id: cogId,
      ...READY, model_key: null, status: 'ready', source: 'cog_url', cog_url: 'https://lidar.example.org/dem.tif', nodata: -9999, created_at: now,
    } }));
    const { source: _source, ...legacy } = { ...pending('acct_shapes'), elevation_model_id: legacyId };
    await dynamo().send(new PutCommand({ TableName: requiredSetting('TABLE_NAME'), Item: { pk: 'ACCOUNT#acct_shapes', sk: `ELEVMODEL#${legacyId}`, entity: 'elevation_model', ...legacy } }));

    const cog = await store.get('acct_shapes', cogId);
    expect(cog).toMatchObject({ source: 'cog_url', cog_url: 'https://lidar.example.org/dem.tif', nodata: -9999, status: 'ready' });
    for (const field of ['upload_key', 'upload_expires_at', 'model_key', 'processing_started_at', 'lease', 'error']) expect(cog).not.toHaveProperty(field);
    const upload = await store.get('acct_shapes', legacyId);
    expect(upload).toMatchObject({ source: 'upload', upload_key: legacy.upload_key, status: 'pending' });
    expect(upload).not.toHaveProperty('cog_url');
    expect((await store.listReady('acct_shapes')).map((m) => m.source)).toEqual(['cog_url']);
  });

  it('pages the account\'s models with a cursor that only that account can use', async () => {
    for (let i = 0; i < 3; i++) await store.create(pending('acct_pages'));
    const first = await store.list('acct_pages', 2);
    expect(first.items).toHaveLength(2);
    const rest = await store.list('acct_pages', 2, first.nextCursor);
    expect(rest.items).toHaveLength(1);
    expect(new Set([...first.items, ...rest.items].map((m) => m.elevation_model_id)).size).toBe(3);
    await expect(store.list('acct_claim', 2, first.nextCursor)).rejects.toThrow(/cursor/);
  });
});

describe('the status a client sees', () => {
  it('shows a pending model whose upload never came as failed (upload_expired) 15 minutes after its URL expired', () => {
    const model = pending('acct_view', new Date('2026-11-23T10:00:00Z'));
    expect(modelView(model, new Date('2026-11-23T10:19:00Z'))).toMatchObject({ status: 'pending', error: null });
    expect(modelView(model, new Date('2026-11-23T10:21:00Z'))).toMatchObject({ status: 'failed', error: { code: 'upload_expired', detail: 'The file was not uploaded before the upload URLs expired; create the model again.' } });
    const inParts = { ...model, upload_keys: [model.upload_key, `${model.upload_key}.2`, `${model.upload_key}.3`] };
    expect(modelView(inParts, new Date('2026-11-23T10:21:00Z')).error).toEqual({ code: 'upload_expired', detail: 'Not every one of the 3 parts was uploaded before the upload URLs expired; create the model again.' });
  });

  it('shows a model stored before leases, processing for more than 20 minutes, as failed (worker_lost)', () => {
    const model = { ...pending('acct_view'), status: 'processing' as const, processing_started_at: '2026-11-23T10:00:00.000Z' };
    expect(modelView(model, new Date('2026-11-23T10:15:00Z'))).toMatchObject({ status: 'processing', error: null });
    expect(modelView(model, new Date('2026-11-23T10:21:00Z'))).toMatchObject({ status: 'failed', error: { code: 'worker_lost' } });
  });
});

describe('a model whose worker was lost (leases, as the other jobs)', () => {
  const MINUTE = 60_000;
  /** Uploads present in the bucket; the sweep only needs to know they are there. */
  const uploads = new Set<string>();
  const blobs = { exists: async (key: string) => uploads.has(key) } as unknown as RangedBlobStore;
  const deps: Pick<WorkerDeps, 'models' | 'blobs'> = { get models() { return store; }, blobs };
  /** The retries one sweep at `now` sends, by model id. */
  const sweep = async (now: Date) => {
    const starter = recordingStarter();
    await sweepLapsedJobs([elevationModelJobs(deps)], starter, now);
    return starter.starts.filter((start) => start.retry_of);
  };

  it('is taken over once when its lease lapses (the lost worker\'s late result does not land), then failed worker_lost', async () => {
    const t0 = new Date();
    const model = pending('acct_lost', t0);
    await store.create(model);
    uploads.add(model.upload_key);
    const first = (await store.claim('acct_lost', model.elevation_model_id, t0, 'worker_lost_one'))!;
    expect(first.lease).toMatchObject({ owner: 'worker_lost_one', attempt: 1 });
    // Within the lease the sweep leaves it alone, and the client sees it processing.
    const within = new Date(t0.getTime() + MODEL_LEASE_MS - MINUTE);
    expect((await sweep(within)).map((start) => start.ref.job_id)).not.toContain(model.elevation_model_id);
    expect(modelView(first, within)).toMatchObject({ status: 'processing' });

    const lapsed = new Date(t0.getTime() + MODEL_LEASE_MS + MINUTE);
    expect(modelView(first, lapsed)).toMatchObject({ status: 'processing', error: null });
    const retry = (await sweep(lapsed)).find((start) => start.ref.job_id === model.elevation_model_id)!;
    expect(retry).toMatchObject({ kind: 'elevation_model', retry_of: first.lease });
    // The worker the retry reaches takes the lapsed lease over, one attempt more.
    const retried = (await store.takeOver({ ...first, lease: retry.retry_of }, 'worker_retry', lapsed))!;
    expect(retried.lease).toMatchObject({ owner: 'worker_retry', attempt: 2 });
    expect(await store.finish('acct_lost', model.elevation_model_id, { ready: READY }, lapsed, first.lease)).toBe(false);
    // A second delivery of the same retry finds nothing to take, and the next sweep sends none.
    expect(await store.takeOver({ ...first, lease: retry.retry_of }, 'worker_retry_twice', lapsed)).toBeUndefined();
    expect((await sweep(lapsed)).map((start) => start.ref.job_id)).not.toContain(model.elevation_model_id);

    const lostAgain = new Date(lapsed.getTime() + MODEL_LEASE_MS + MINUTE);
    expect(modelView(retried, lostAgain)).toMatchObject({ status: 'failed', error: { code: 'worker_lost' } });
    expect((await sweep(lostAgain)).map((start) => start.ref.job_id)).not.toContain(model.elevation_model_id);
    expect(await store.get('acct_lost', model.elevation_model_id)).toMatchObject({
      status: 'failed', lease: null, error: { code: 'worker_lost', detail: expect.stringContaining('attempt 2') },
    });
    expect((await store.listExpiredLeases(new Date(lostAgain.getTime() + MODEL_LEASE_MS))).map((m) => m.elevation_model_id)).not.toContain(model.elevation_model_id);
  });

  it('is failed at once when its upload is gone, as nothing is left to process again', async () => {
    const t0 = new Date();
    const model = pending('acct_lost', t0);
    await store.create(model);
    await store.claim('acct_lost', model.elevation_model_id, t0, 'worker_lost_two');
    const lapsed = new Date(t0.getTime() + MODEL_LEASE_MS + MINUTE);
    expect((await sweep(lapsed)).map((start) => start.ref.job_id)).not.toContain(model.elevation_model_id);
    expect(await store.get('acct_lost', model.elevation_model_id)).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining('attempt 1') } });
  });
});

describe('a ready model whose connection run was lost (leased as the other jobs)', () => {
  const HOUR = 3_600_000;
  // The sweep lists connections without reading the bucket; other tests' waiting models have no upload.
  const deps: Pick<WorkerDeps, 'models' | 'blobs'> = { get models() { return store; }, blobs: { exists: async () => false } as unknown as RangedBlobStore };
  const sweep = async (now: Date) => {
    const starter = recordingStarter();
    await sweepLapsedJobs([elevationModelJobs(deps)], starter, now);
    return starter.starts.filter((start) => start.retry_of);
  };
  const run = (runId: string, at: Date, attempt: number): ModelConnection => ({
    status: 'pending', tiles: 4, run_id: runId, started_at: at.toISOString(), finished_at: null, error: null,
    lease: { owner: runId, expires_at: new Date(at.getTime() + HOUR).toISOString(), attempt },
  });
  async function readyModel(): Promise<UploadedElevationModel> {
    const model = pending('acct_conn');
    await store.create(model);
    const claimed = (await store.claim('acct_conn', model.elevation_model_id, new Date(), 'worker_conn'))!;
    await store.finish('acct_conn', model.elevation_model_id, { ready: READY }, new Date(), claimed.lease);
    return model;
  }
  const retriesOf = (starts: Awaited<ReturnType<typeof sweep>>, id: string) => starts.filter((start) => start.ref.job_id === id);

  it('is run again twice, each retry taking the lapsed run over once, and its last loss ends it failed connection_lost', async () => {
    const { elevation_model_id: id } = await readyModel();
    const t0 = new Date();
    const first = run('conn_first', t0, 1);
    expect(await store.startConnection('acct_conn', id, first)).toBe(true);
    expect(retriesOf(await sweep(new Date(t0.getTime() + HOUR - 1000)), id)).toEqual([]);

    // Lapsed: the sweep sends the run's lease to the model's worker, which replaces the run.
    const t1 = new Date(t0.getTime() + HOUR + 1000);
    expect(retriesOf(await sweep(t1), id)).toEqual([expect.objectContaining({ kind: 'elevation_model', retry_of: first.lease })]);
    const second = run('conn_second', t1, 2);
    expect(await store.restartConnection('acct_conn', id, first.lease!, second)).toBe(true);
    expect(await store.restartConnection('acct_conn', id, first.lease!, run('conn_twice', t1, 2))).toBe(false);
    // The lost run's late outcome and renewals no longer land; the new run's renewal does.
    expect(await store.endConnection('acct_conn', id, { owner: 'conn_first' }, { status: 'ready', finished_at: t1.toISOString(), error: null })).toBe(false);
    expect(await store.renewConnection('acct_conn', id, 'conn_first', new Date(t1.getTime() + 2 * HOUR).toISOString(), t1)).toBe(false);
    const renewedTo = new Date(t1.getTime() + 2 * HOUR);
    expect(await store.renewConnection('acct_conn', id, 'conn_second', renewedTo.toISOString(), t1)).toBe(true);
    expect(retriesOf(await sweep(new Date(t1.getTime() + HOUR + 1000)), id)).toEqual([]);
    expect((await store.get('acct_conn', id) as UploadedElevationModel).connection).toMatchObject({ run_id: 'conn_second', status: 'pending', lease: { expires_at: renewedTo.toISOString(), attempt: 2 } });

    const t2 = new Date(renewedTo.getTime() + 1000);
    const [retry] = retriesOf(await sweep(t2), id);
    const third = run('conn_third', t2, 3);
    expect(await store.restartConnection('acct_conn', id, retry!.retry_of!, third)).toBe(true);

    // The last attempt lost: the sweep sends no retry and ends the run; the model stays ready.
    const t3 = new Date(t2.getTime() + HOUR + 1000);
    expect(retriesOf(await sweep(t3), id)).toEqual([]);
    const ended = await store.get('acct_conn', id) as UploadedElevationModel;
    expect(ended.status).toBe('ready');
    expect(ended.connection).toMatchObject({
      status: 'failed', run_id: 'conn_third', lease: null, finished_at: t3.toISOString(), error: { code: 'connection_lost', detail: expect.stringContaining('attempt 3 of 3') },
    });
    expect((await store.listLapsedConnections(new Date(t3.getTime() + 10 * HOUR))).map((model) => model.elevation_model_id)).not.toContain(id);
  });

  it('leaves the sweep\'s list once its run ends, and a sweep that saw a run lapse does not fail one that ended meanwhile', async () => {
    const { elevation_model_id: id } = await readyModel();
    const t0 = new Date();
    const only = run('conn_only', t0, 3);
    expect(await store.startConnection('acct_conn', id, only)).toBe(true);
    const lapsed = new Date(t0.getTime() + HOUR + 1000);
    expect((await store.listLapsedConnections(lapsed)).map((model) => model.elevation_model_id)).toContain(id);
    // The run's own outcome lands just after the sweep listed it: the sweep's failure does not.
    expect(await store.endConnection('acct_conn', id, { owner: 'conn_only' }, { status: 'ready', finished_at: lapsed.toISOString(), error: null })).toBe(true);
    expect(await store.endConnection('acct_conn', id, { seen: only.lease! }, { status: 'failed', finished_at: lapsed.toISOString(), error: { code: 'connection_lost', detail: 'x' } })).toBe(false);
    expect((await store.get('acct_conn', id) as UploadedElevationModel).connection).toMatchObject({ status: 'ready', lease: null, error: null });
    expect((await store.listLapsedConnections(lapsed)).map((model) => model.elevation_model_id)).not.toContain(id);
  });
});
