import { DynamoHazardJobStore } from '../../shared/adapters/hazard-job-store';
import type { HazardJob } from '../../shared/domain/hazards/jobs';
import { sweepLostHazardJobs } from '../../functions/hazard-job-worker/sweep';
import { startTestApp } from '../helpers/local-app';

/** Hazard jobs carry a lease: a job whose worker was lost ends `failed`, never `running` for good. */
describe('hazard job leases (emulators)', () => {
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
      expect(await store.transition('acct-leases', id, ['queued'], { status: 'running', progress: 0.05 }, longAgo)).toBe(true);
    }
    expect(await store.transition('acct-leases', 'hjob_live00000001', ['running'], { progress: 0.5 }, now)).toBe(true);
    expect(await store.transition('acct-leases', 'hjob_done00000001', ['running'], { status: 'succeeded', progress: 1, result_key: 'k' }, longAgo)).toBe(true);
    expect((await store.get('acct-leases', 'hjob_lost00000001'))!.lease).toMatchObject({ attempt: 1, expires_at: expect.any(String) });

    expect((await store.listExpiredLeases(now)).map((j) => j.job_id)).toEqual(['hjob_lost00000001']);
    expect(await sweepLostHazardJobs(store, now)).toBe(1);
    expect(await store.get('acct-leases', 'hjob_lost00000001')).toMatchObject({
      status: 'failed', lease: null, error: { code: 'worker_lost', detail: expect.stringContaining('start it again') },
    });
    expect(await store.get('acct-leases', 'hjob_live00000001')).toMatchObject({ status: 'running', progress: 0.5 });
    expect(await store.get('acct-leases', 'hjob_done00000001')).toMatchObject({ status: 'succeeded', lease: null });
    // The lost worker's late result no longer lands.
    expect(await store.transition('acct-leases', 'hjob_lost00000001', ['running'], { status: 'succeeded', progress: 1 }, now)).toBe(false);
    expect(await sweepLostHazardJobs(store, now)).toBe(0);
  });
});
