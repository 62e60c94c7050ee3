import { readFileSync } from 'node:fs';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../shared/adapters/aws-clients';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoDeliverableStore } from '../../shared/adapters/deliverable-store';
import { DynamoElevationModelStore, type ElevationModelEntry } from '../../shared/adapters/elevation-model-store';
import { DynamoHazardJobStore, HAZARD_JOB_LEASE_MS } from '../../shared/adapters/hazard-job-store';
import { DynamoImportStore } from '../../shared/adapters/import-store';
import { elevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import { hashApiKey } from '../../shared/domain/api-keys';
import { DELIVERABLE_LEASE_MS, MAX_ATTEMPTS as MAX_DELIVERABLE_ATTEMPTS, type DeliverableRef } from '../../shared/domain/deliverables/jobs';
import { MODEL_LEASE_MS } from '../../shared/domain/elevation-models/processing-job';
import type { ImportRecord } from '../../shared/domain/assets/ports';
import { IMPORT_LEASE_MS } from '../../functions/assets/import-runs';
import { handler as hazardWorker } from '../../functions/hazard-job-worker/handler';
import { handler as importWorker } from '../../functions/asset-import-worker/handler';
import { handler as deliverablesWorker } from '../../functions/deliverables-worker/handler';
import { handler as elevationModelWorker } from '../../functions/elevation-model-worker/handler';
import { newAssessmentBody } from '../helpers/assessment-fixtures';
import { TAMPA_CLIP, TAMPA_SHIFT_M } from '../helpers/dem-fixture';
import { startTestApp } from '../helpers/local-app';
import { waitFor } from '../helpers/wait-for';

/**
 * The worker of each job kind killed mid-run: it claimed the job under a lease and never finished
 * it. Once the lease has lapsed (the claim is dated that far back), the lost-job schedule's call of
 * the kind's AWS worker entry either runs the job again to its end or, after the last attempt,
 * ends it `failed` with `worker_lost`; the job view a client polls never stays `running`.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;
let accountId: string;
const key = () => app.keys.pro;
/** What the schedule sends (any event without `Records`). */
const SCHEDULE = { source: 'aws.events' };

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

    await hazardWorker(SCHEDULE);
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
    await importWorker(SCHEDULE);
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
    await importWorker(SCHEDULE);
    const view = await settledView('/assets/imports/imp_fault00000000002', ['pending', 'processing']);
    expect(view).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining('attempt 3') } });
  });
});

describe('an elevation model whose worker was killed', () => {
  const models = { get store() { return new DynamoElevationModelStore(); } };

  /** A model whose GeoTIFF arrived and was claimed by a worker that then died. */
  async function killedModel(name: string): Promise<ElevationModelEntry> {
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
    await elevationModelWorker(SCHEDULE);
    const view = await settledView(`/hazards/elevation-models/${model.elevation_model_id}`, ['pending', 'processing']);
    expect(view).toMatchObject({ status: 'ready', error: null });
  });

  it('ends failed (worker_lost) when its worker was killed on the last attempt', async () => {
    const model = await killedModel('Tampa quad (killed twice)');
    const retried = await models.store.takeOver(model, 'worker_killed_again', lapsed(MODEL_LEASE_MS));
    expect(retried).toMatchObject({ lease: { attempt: 2 } });
    await elevationModelWorker(SCHEDULE);
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
    await deliverablesWorker(SCHEDULE);
    const view = await settledView(path, ['queued', 'running']);
    expect(view.status).toBe('succeeded');
    expect(new Set(view.files.map((file: { kind: string }) => file.kind))).toEqual(new Set(['asset_list_xlsx', 'gis_package', 'report_pdf']));
  }, 120_000);

  it('ends failed (worker_lost) when its worker was killed on the last attempt', async () => {
    const { path } = await killedPackage(MAX_DELIVERABLE_ATTEMPTS);
    await deliverablesWorker(SCHEDULE);
    const view = await settledView(path, ['queued', 'running']);
    expect(view).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining(`attempt ${MAX_DELIVERABLE_ATTEMPTS} of ${MAX_DELIVERABLE_ATTEMPTS}`) } });
  });
});
