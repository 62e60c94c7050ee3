import { readFileSync } from 'node:fs';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, Context } from 'aws-lambda';
import { s3, sqs } from '../../shared/adapters/aws-clients';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoDeliverableStore } from '../../shared/adapters/deliverable-store';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import type { UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';
import { DynamoHazardJobStore, HAZARD_JOB_LEASE_MS } from '../../shared/adapters/hazard-job-store';
import { DynamoImportStore } from '../../shared/adapters/import-store';
import { elevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import { hashApiKey } from '../../shared/domain/api-keys';
import { DELIVERABLE_LEASE_MS, MAX_ATTEMPTS as MAX_DELIVERABLE_ATTEMPTS, type DeliverableRef } from '../../shared/domain/deliverables/jobs';
import { MODEL_LEASE_MS } from '../../shared/domain/elevation-models/processing-job';
import type { ImportRecord } from '../../shared/domain/assets/ports';
import { IMPORT_LEASE_MS } from '../../shared/application/assets/import-jobs';
import { deliverableJobs } from '../../shared/application/deliverables/deliverable-jobs';
import { hazardJobs } from '../../shared/application/hazards/hazard-jobs';
import { SqsJobStarter } from '../../shared/adapters/sqs-job-starter';
import { sweepLapsedJobs, WAITING_GRACE_MS } from '../../shared/application/jobs/sweep';
import type { JobKindName } from '../../shared/application/jobs/job-start';
import { handler as sweepHandler } from '../../functions/job-sweep/handler';
import { handler as hazardWorker } from '../../functions/hazard-job-worker/handler';
import { handler as importWorker } from '../../functions/asset-import-worker/handler';
import { handler as deliverablesWorker } from '../../functions/deliverables-worker/handler';
import { handler as elevationModelWorker } from '../../functions/elevation-model-worker/handler';
import { deliver } from '../helpers/job-messages';
import { newAssessmentBody } from '../helpers/assessment-fixtures';
import { TAMPA_CLIP, TAMPA_SHIFT_M } from '../helpers/dem-fixture';
import { startTestApp } from '../helpers/local-app';
import { waitFor } from '../helpers/wait-for';

/**
 * The worker of each job kind killed mid-run: it claimed the job under a lease and never finished
 * it. Once the lease has lapsed (the claim is dated that far back), the one lost-job sweep either
 * sends the job to its kind's queue again — its worker, fed by the queue as the event source
 * would, runs it to its end — or, after the last attempt, ends it `failed` with `worker_lost`; the
 * job view a client polls never stays `running`. A job whose start message was lost is started by
 * the sweep once its grace period has passed. The local app runs here without its job pollers, so
 * the test hands each queue's messages to its worker itself.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;
let accountId: string;
const key = () => app.keys.pro;
/** What the schedule sends. */
const SCHEDULE = { source: 'aws.events' };

const WORKERS: Record<JobKindName, (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>> = {
  hazard_job: hazardWorker, asset_import: importWorker, elevation_model: elevationModelWorker, deliverable: deliverablesWorker,
};

/** Hands every message waiting on `kind`'s queue to its worker, as the event source does; resolves with how many. */
async function drainJobQueue(kind: JobKindName): Promise<number> {
  const queueUrl = app.resources.jobQueueUrls[kind];
  let delivered = 0;
  for (;;) {
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) return delivered;
    const answer = await deliver(WORKERS[kind], Messages[0]!.Body!);
    expect(answer.batchItemFailures).toEqual([]);
    await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: Messages[0]!.ReceiptHandle! }));
    delivered++;
  }
}

/** Drops what waits on `kind`'s queue: the start messages that were lost. */
async function loseStarts(kind: JobKindName): Promise<void> {
  const queueUrl = app.resources.jobQueueUrls[kind];
  for (;;) {
    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) return;
    for (const message of Messages) await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
  }
}

/** The scheduled sweep, then its retries run by the kind's worker. */
async function sweepAndRun(kind: JobKindName): Promise<void> {
  await sweepHandler(SCHEDULE);
  await drainJobQueue(kind);
}

beforeAll(async () => {
  app = await startTestApp({ backgroundWorkers: false });
  accountId = (await new DynamoAccountStore().findByKeyHash(hashApiKey(key())))!.accountId;
}, 120_000);
afterAll(async () => { await app?.stop(); });

/** A moment whose lease of `leaseMs` has run out by now. */
const lapsed = (leaseMs: number, extraMs = 0) => new Date(Date.now() - leaseMs - 60_000 - extraMs);

/** The job view at `path` once it no longer says the job is under way. */
const settledView = (path: string, underWay: string[]) => waitFor(async () => {
  const answer = await app.request('GET', path, { key: key() });
  expect(answer.status).toBe(200);
  return underWay.includes(answer.json.status) ? undefined : answer.json;
}, `${path} to settle`);

describe('a flood-analysis job whose worker was killed', () => {
  it('ends failed (worker_lost) at the next sweep: an analysis is started again by its caller', async () => {
    const jobs = new DynamoHazardJobStore();
    const jobId = 'hjob_fault0000000000001';
    const started = lapsed(HAZARD_JOB_LEASE_MS);
    await jobs.create({
      job_id: jobId, account_id: accountId, kind: 'flood_analysis', status: 'queued', progress: 0, error: null, result_key: null,
      created_at: started.toISOString(), updated_at: started.toISOString(), request_key: 'hazard-jobs/none.json',
    });
    // The killed worker: it took the job and reported some progress, then nothing more.
    expect(await jobs.start(accountId, jobId, 0.3, started)).toBe(true);
    expect((await app.request('GET', `/hazards/jobs/${jobId}`, { key: key() })).json.status).toBe('running');

    await sweepAndRun('hazard_job');
    const view = await settledView(`/hazards/jobs/${jobId}`, ['queued', 'running']);
    expect(view).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining('start it again') } });
    expect((await jobs.listExpiredLeases(new Date())).map((j) => j.job_id)).not.toContain(jobId);
  });
});

describe('an asset import whose worker was killed', () => {
  const csv = 'name,type,lat,lon\nStation 1,Fire Station,24.56,-81.77\nStation 2,Fire Station,24.57,-81.76\n';
  const imports = { get store() { return new DynamoImportStore(); } };

  /** An upload import claimed by a worker that then died; the file arrives after the claim, so the local watcher never sees it pending. */
  async function killedImport(importId: string): Promise<ImportRecord> {
    const objectKey = `uploads/${accountId}/${importId}/assets.csv`;
    const now = new Date();
    await imports.store.create({
      import_id: importId, account_id: accountId, status: 'pending', mode: 'upload', filename: 'assets.csv', format: 'csv',
      jurisdiction: { id: 'county:12087', name: 'Monroe County' }, asset_category: null, object_key: objectKey,
      progress: { phase: 'waiting_for_upload', rows_processed: 0 }, report: null, error: null,
      created_at: now.toISOString(), updated_at: now.toISOString(), upload_expires_at: new Date(now.getTime() + 600_000).toISOString(),
    });
    const claimed = await imports.store.claim(accountId, importId, { owner: 'worker_killed', now: lapsed(IMPORT_LEASE_MS), leaseMs: IMPORT_LEASE_MS, deadline: new Date(now.getTime() + 3_600_000) });
    await s3().send(new PutObjectCommand({ Bucket: app.resources.bucketName, Key: objectKey, Body: csv }));
    return claimed!;
  }

  it('is resumed by the sweep under a new lease and completes', async () => {
    await killedImport('imp_fault00000000001');
    await sweepAndRun('asset_import');
    const view = await settledView('/assets/imports/imp_fault00000000001', ['pending', 'processing']);
    expect(view).toMatchObject({ status: 'complete', report: { asset_count: 2 } });
  });

  it('ends failed (worker_lost) when its worker was killed on the last attempt', async () => {
    let record = await killedImport('imp_fault00000000002');
    // Taken over twice more, by workers killed as well.
    for (const attempt of [2, 3]) {
      record = (await imports.store.takeOver(record, { owner: `worker_killed_${attempt}`, now: lapsed(IMPORT_LEASE_MS), leaseMs: IMPORT_LEASE_MS }))!;
      expect(record.lease).toMatchObject({ attempt });
    }
    await sweepAndRun('asset_import');
    const view = await settledView('/assets/imports/imp_fault00000000002', ['pending', 'processing']);
    expect(view).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining('attempt 3') } });
  });
});

describe('an elevation model whose worker was killed', () => {
  const models = { get store() { return new DynamoElevationModelStore(); } };

  /** A model whose GeoTIFF arrived and was claimed by a worker that then died. */
  async function killedModel(name: string): Promise<UploadedElevationModel> {
    const created = await app.request('POST', '/hazards/elevation-models', {
      key: key(), json: { name, vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M, vertical_accuracy_m: 0.2 },
    });
    expect(created.status).toBe(201);
    const modelId = created.json.elevation_model_id as string;
    const claimed = await models.store.claim(accountId, modelId, lapsed(MODEL_LEASE_MS), 'worker_killed');
    expect(claimed).toMatchObject({ status: 'processing', lease: { attempt: 1 } });
    await s3().send(new PutObjectCommand({ Bucket: app.resources.bucketName, Key: elevationUploadKey(accountId, modelId), Body: readFileSync(TAMPA_CLIP) }));
    return claimed!;
  }

  it('is processed again by the sweep and becomes ready', async () => {
    const model = await killedModel('Tampa quad (killed once)');
    await sweepAndRun('elevation_model');
    const view = await settledView(`/hazards/elevation-models/${model.elevation_model_id}`, ['pending', 'processing']);
    expect(view).toMatchObject({ status: 'ready', error: null });
  });

  it('ends failed (worker_lost) when its worker was killed on the last attempt', async () => {
    const model = await killedModel('Tampa quad (killed twice)');
    const retried = await models.store.takeOver(model, 'worker_killed_again', lapsed(MODEL_LEASE_MS));
    expect(retried).toMatchObject({ lease: { attempt: 2 } });
    await sweepAndRun('elevation_model');
    const view = await settledView(`/hazards/elevation-models/${model.elevation_model_id}`, ['pending', 'processing']);
    expect(view).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining('attempt 2') } });
  });
});

describe('a deliverable package whose worker was killed', () => {
  const deliverables = { get store() { return new DynamoDeliverableStore(); } };

  /** A package requested over HTTP and claimed, `attempts` times, by workers that then died. */
  async function killedPackage(attempts: number): Promise<{ path: string; ref: DeliverableRef }> {
    const assessment = await app.request('POST', '/assessments', { key: key(), json: newAssessmentBody() });
    expect(assessment.status).toBe(201);
    const requested = await app.request('POST', `/assessments/${assessment.json.assessment_id}/deliverables`, { key: key() });
    expect(requested.status).toBe(202);
    // The start it sent is not delivered: the killed workers below took the job instead.
    await loseStarts('deliverable');
    const ref: DeliverableRef = { account_id: accountId, assessment_id: assessment.json.assessment_id, deliverable_id: requested.json.deliverable_id };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      // Each claim is dated further back, so each lease has lapsed before the next takes the job over.
      const claimed = await deliverables.store.claim(ref, `worker_killed_${attempt}`, lapsed(DELIVERABLE_LEASE_MS, (attempts - attempt) * 2 * DELIVERABLE_LEASE_MS), DELIVERABLE_LEASE_MS);
      expect(claimed).toMatchObject({ status: 'running', lease: { attempt } });
    }
    return { path: `/assessments/${ref.assessment_id}/deliverables/${ref.deliverable_id}`, ref };
  }

  it('is run again by the sweep under a new lease and succeeds', async () => {
    const { path } = await killedPackage(1);
    await sweepAndRun('deliverable');
    const view = await settledView(path, ['queued', 'running']);
    expect(view.status).toBe('succeeded');
    expect(new Set(view.files.map((file: { kind: string }) => file.kind))).toEqual(new Set(['asset_list_xlsx', 'gis_package', 'report_pdf']));
  }, 120_000);

  it('ends failed (worker_lost) when its worker was killed on the last attempt', async () => {
    const { path } = await killedPackage(MAX_DELIVERABLE_ATTEMPTS);
    await sweepAndRun('deliverable');
    const view = await settledView(path, ['queued', 'running']);
    expect(view).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining(`attempt ${MAX_DELIVERABLE_ATTEMPTS} of ${MAX_DELIVERABLE_ATTEMPTS}`) } });
  });
});

describe('a job whose start message was lost', () => {
  /** A sweep as it runs once the grace period of jobs created now has passed. */
  const sweepAfterGrace = (kinds: Parameters<typeof sweepLapsedJobs>[0]) => sweepLapsedJobs(kinds, new SqsJobStarter(), new Date(Date.now() + WAITING_GRACE_MS + 1000));

  it('a deliverable package stays queued until the sweep starts it again, then succeeds', async () => {
    const assessment = await app.request('POST', '/assessments', { key: key(), json: newAssessmentBody() });
    const requested = await app.request('POST', `/assessments/${assessment.json.assessment_id}/deliverables`, { key: key() });
    expect(requested.status).toBe(202);
    await loseStarts('deliverable');
    const path = `/assessments/${assessment.json.assessment_id}/deliverables/${requested.json.deliverable_id}`;
    expect((await app.request('GET', path, { key: key() })).json.status).toBe('queued');
    // Within the grace period the sweep leaves it to its start; past it, the sweep sends the start again.
    expect((await sweepLapsedJobs([deliverableJobs(new DynamoDeliverableStore())], new SqsJobStarter(), new Date())).deliverable).toMatchObject({ restarted: 0 });
    expect((await sweepAfterGrace([deliverableJobs(new DynamoDeliverableStore())])).deliverable).toMatchObject({ restarted: 1 });
    expect(await drainJobQueue('deliverable')).toBe(1);
    expect((await settledView(path, ['queued', 'running'])).status).toBe('succeeded');
  }, 120_000);

  it('a flood analysis stays queued until the sweep starts it again, then succeeds', async () => {
    const keyWestBox = { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.57], [-81.81, 24.57], [-81.81, 24.54]]] };
    const jobs = new DynamoHazardJobStore();
    const jobId = 'hjob_faultlost000000001';
    const now = new Date().toISOString();
    await jobs.create({
      job_id: jobId, account_id: accountId, kind: 'flood_analysis', status: 'queued', progress: 0, error: null, result_key: null, created_at: now, updated_at: now,
      request_key: await jobs.putDocument(accountId, jobId, 'request', { boundary_geojson: keyWestBox, components: ['tidal'], scenarios: ['intermediate'], planning_horizons: [2050], link: {} }),
    });
    expect((await sweepAfterGrace([hazardJobs(jobs)])).hazard_job).toMatchObject({ restarted: 1 });
    expect(await drainJobQueue('hazard_job')).toBe(1);
    const view = await settledView(`/hazards/jobs/${jobId}`, ['queued', 'running']);
    expect(view).toMatchObject({ status: 'succeeded' });
    expect(view.result.components.tidal).toBeDefined();
  }, 120_000);
});
