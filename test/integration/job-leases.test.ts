import { DynamoHazardJobStore } from '../../shared/adapters/hazard-job-store';
import { DynamoDeliverableStore } from '../../shared/adapters/deliverable-store';
import { DynamoImportStore } from '../../shared/adapters/import-store';
import type { DeliverableJob } from '../../shared/domain/deliverables/jobs';
import type { ImportRecord } from '../../shared/domain/assets/ports';
import type { HazardJob } from '../../shared/domain/hazards/jobs';
import { hazardJobs } from '../../shared/application/hazards/hazard-jobs';
import { sweepLapsedJobs } from '../../shared/application/jobs/sweep';
import { recordingStarter } from '../helpers/job-messages';
import { startTestApp } from '../helpers/local-app';

/**
 * Every background job carries the same lease (owner, expiry, attempt): a hazard job whose worker
 * was lost ends `failed`, an import or a deliverable job is taken over, and the lost worker's late
 * result never lands.
 */
describe('job leases (emulators)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  const job = (id: string, at: Date): HazardJob => ({
    job_id: id, account_id: 'acct-leases', kind: 'flood_analysis', status: 'queued', progress: 0,
    created_at: at.toISOString(), updated_at: at.toISOString(), request_key: 'hazard-jobs/none.json', error: null, result_key: null,
  });

  it('fails a running job whose worker stopped renewing its lease, and leaves live and finished jobs alone', async () => {
    const store = new DynamoHazardJobStore();
    const longAgo = new Date(Date.now() - 60 * 60 * 1000);
    const now = new Date();
    for (const id of ['hjob_lost00000001', 'hjob_live00000001', 'hjob_done00000001']) await store.create(job(id, longAgo));
    // All three started an hour ago; the live one reported progress just now, the finished one ended.
    for (const id of ['hjob_lost00000001', 'hjob_live00000001', 'hjob_done00000001']) {
      expect(await store.start('acct-leases', id, 0.05, longAgo)).toBe(true);
    }
    expect(await store.progress('acct-leases', 'hjob_live00000001', 0.5, now)).toBe(true);
    expect(await store.finish('acct-leases', 'hjob_done00000001', { result_key: 'k' }, longAgo)).toBe(true);
    expect((await store.get('acct-leases', 'hjob_lost00000001'))!.lease).toMatchObject({ attempt: 1, expires_at: expect.any(String) });

    expect((await store.listExpiredLeases(now)).map((j) => j.job_id)).toEqual(['hjob_lost00000001']);
    // The sweep fails it: an analysis is not run again.
    const sweep = () => sweepLapsedJobs([hazardJobs(store)], recordingStarter(), now);
    expect((await sweep()).hazard_job).toMatchObject({ retried: 0, failed: 1 });
    expect(await store.get('acct-leases', 'hjob_lost00000001')).toMatchObject({
      status: 'failed', lease: null, error: { code: 'worker_lost', detail: expect.stringContaining('start it again') },
    });
    expect(await store.get('acct-leases', 'hjob_live00000001')).toMatchObject({ status: 'running', progress: 0.5 });
    expect(await store.get('acct-leases', 'hjob_done00000001')).toMatchObject({ status: 'succeeded', lease: null });
    // The lost worker's late result no longer lands.
    expect(await store.finish('acct-leases', 'hjob_lost00000001', { result_key: 'late' }, now)).toBe(false);
    expect((await sweep()).hazard_job).toMatchObject({ retried: 0, failed: 0 });
  });

  it('deliverable jobs and imports hold the same lease as hazard jobs: taken over after expiry with one attempt more', async () => {
    // Now, to the second: a hazard job older than its retention (7 days) reads as gone.
    const t0 = new Date(Math.floor(Date.now() / 1000) * 1000);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const deliverables = new DynamoDeliverableStore();
    const dlv: DeliverableJob = {
      deliverable_id: 'dlv_sharedlease01', assessment_id: 'va_1', account_id: 'acct-leases', status: 'queued',
      created_at: t0.toISOString(), updated_at: t0.toISOString(), error: null, files: [], lease: null,
    };
    await deliverables.open(dlv, 'version:1', t0);
    expect((await deliverables.claim(dlv, 'w1', t0, 1000))!.lease).toEqual({ owner: 'w1', expires_at: at(1000).toISOString(), attempt: 1 });
    expect(await deliverables.claim(dlv, 'w2', at(500), 1000)).toBeUndefined();
    expect((await deliverables.claim(dlv, 'w2', at(2000), 1000))!.lease).toEqual({ owner: 'w2', expires_at: at(3000).toISOString(), attempt: 2 });
    expect(await deliverables.finish(dlv, { owner: 'w1' }, { files: [] }, at(2500))).toBe(false);
    expect(await deliverables.finish(dlv, { owner: 'w2' }, { files: [] }, at(2500))).toBe(true);

    const imports = new DynamoImportStore();
    const record: ImportRecord = {
      import_id: 'imp_sharedlease01', account_id: 'acct-leases', status: 'pending', mode: 'upload', filename: 'a.csv', format: 'csv',
      jurisdiction: { id: 'county:12087', name: 'Monroe County' }, asset_category: null, object_key: 'uploads/x', progress: { phase: 'waiting_for_upload', rows_processed: 0 },
      report: null, error: null, created_at: t0.toISOString(), updated_at: t0.toISOString(), upload_expires_at: at(60_000).toISOString(),
    };
    await imports.create(record);
    const claimed = await imports.claim('acct-leases', record.import_id, { owner: 'w1', now: t0, leaseMs: 1000, deadline: at(3_600_000) });
    expect(claimed!.lease).toEqual({ owner: 'w1', expires_at: at(1000).toISOString(), attempt: 1 });
    expect((await imports.listExpiredLeases(at(2000))).map((r) => r.import_id)).toContain(record.import_id);
    const taken = await imports.takeOver(claimed!, { owner: 'w2', now: at(2000), leaseMs: 1000 });
    expect(taken!.lease).toEqual({ owner: 'w2', expires_at: at(3000).toISOString(), attempt: 2 });
    expect(await imports.takeOver(claimed!, { owner: 'w3', now: at(2000), leaseMs: 1000 })).toBeUndefined();
    expect(await imports.progress('acct-leases', record.import_id, 'w1', { phase: 'writing', rows_processed: 1 }, at(2100), 1000)).toBe(false);

    const hazard = new DynamoHazardJobStore();
    await hazard.create(job('hjob_sharedlease1', t0));
    await hazard.start('acct-leases', 'hjob_sharedlease1', 0.05, t0);
    const keys = (lease: object | null | undefined) => Object.keys(lease ?? {}).sort();
    expect(keys((await hazard.get('acct-leases', 'hjob_sharedlease1'))!.lease)).toEqual(keys(taken!.lease));
    // Ended, a deliverable job releases its lease as every kind does.
    expect(await deliverables.get(dlv)).toMatchObject({ status: 'succeeded', lease: null });
  });
});
