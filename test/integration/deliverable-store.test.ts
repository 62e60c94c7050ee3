import { startTestApp } from '../helpers/local-app';
import { DynamoDeliverableStore } from '../../shared/adapters/deliverable-store';
import { isRunnable, MAX_ATTEMPTS, type DeliverableJob } from '../../shared/domain/deliverables/jobs';
import { deliverableJobs } from '../../shared/application/deliverables/deliverable-jobs';
import { sweepLapsedJobs } from '../../shared/application/jobs/sweep';

let app: Awaited<ReturnType<typeof startTestApp>>;

// No background workers: the poller would take these jobs itself.
beforeAll(async () => { app = await startTestApp({ backgroundWorkers: false }); });
afterAll(async () => { await app?.stop(); });

const job = (id: string, at: string): DeliverableJob => ({
  deliverable_id: id, assessment_id: 'va_1', account_id: 'acct_1', status: 'queued', created_at: at, updated_at: at,
  error: null, files: [], lease: null,
});

describe('deliverable job store', () => {
  it('lets one worker claim a job, keeps it from the other until the lease expires, and finishes it for the holder only', async () => {
    const store = new DynamoDeliverableStore();
    const ref = job('dlv_lease_once', '2026-11-23T10:00:00.000Z');
    await store.open(ref, `inputs of ${ref.deliverable_id}`, new Date(ref.created_at));
    const t0 = new Date('2026-11-23T10:00:01.000Z');
    const claims = await Promise.all([store.claim(ref, 'a', t0, 60_000), store.claim(ref, 'b', t0, 60_000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const holder = claims[0] ? 'a' : 'b';
    const other = holder === 'a' ? 'b' : 'a';
    expect(await store.claim(ref, other, new Date(t0.getTime() + 30_000), 60_000)).toBeUndefined();
    // The holder is lost: after the lease the other takes it over, one attempt more.
    const takeover = await store.claim(ref, other, new Date(t0.getTime() + 61_000), 60_000);
    expect(takeover).toMatchObject({ status: 'running', lease: { owner: other, attempt: 2, expires_at: new Date(t0.getTime() + 121_000).toISOString() } });
    expect(await store.finish(ref, { owner: holder }, { files: [] }, new Date())).toBe(false);
    expect(await store.finish(ref, { owner: other }, { files: [] }, new Date())).toBe(true);
    expect(await store.get(ref)).toMatchObject({ status: 'succeeded', lease: null });
    expect((await store.listOpen()).map((j) => j.deliverable_id)).not.toContain('dlv_lease_once');
  });

  it('stops taking over a job after the last attempt', async () => {
    const store = new DynamoDeliverableStore();
    const ref = job('dlv_attempts', '2026-11-23T11:00:00.000Z');
    await store.open(ref, `inputs of ${ref.deliverable_id}`, new Date(ref.created_at));
    let now = new Date('2026-11-23T11:00:01.000Z');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await store.claim(ref, `w${attempt}`, now, 1000)).toMatchObject({ lease: { owner: `w${attempt}`, attempt } });
      now = new Date(now.getTime() + 2000);
    }
    const stuck = (await store.get(ref))!;
    expect(isRunnable(stuck, now)).toBe(false);
    expect(await store.claim(ref, 'late', now, 1000)).toBeUndefined();
    expect((await store.listOpen()).map((j) => j.deliverable_id)).toContain('dlv_attempts');
    // The sweep fails it for good once its last lease has run out (it starts nothing here).
    await sweepLapsedJobs([deliverableJobs(store)], { start: async () => undefined }, now);
    expect(await store.get(ref)).toMatchObject({ status: 'failed', error: { code: 'worker_lost' } });
    expect((await store.listOpen()).map((j) => j.deliverable_id)).not.toContain('dlv_attempts');
  });
});

describe('the lost-job sweep in AWS', () => {
  it('fails through the sweep function a job whose worker was lost on its last attempt', async () => {
    const store = new DynamoDeliverableStore();
    const ref = job('dlv_swept_aws', '2026-11-23T12:00:00.000Z');
    await store.open(ref, `inputs of ${ref.deliverable_id}`, new Date(ref.created_at));
    let at = new Date('2026-11-23T12:00:01.000Z');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await store.claim(ref, `lost-${attempt}`, at, 1000)).toMatchObject({ lease: { attempt } });
      at = new Date(at.getTime() + 2000);
    }
    const { handler } = await import('../../functions/job-sweep/handler');
    await handler({ source: 'aws.events' });
    expect(await store.get(ref)).toMatchObject({ status: 'failed', error: { code: 'worker_lost', detail: expect.stringContaining(`attempt ${MAX_ATTEMPTS} of ${MAX_ATTEMPTS}`) } });
  });
});

describe('the open-job slot of an assessment', () => {
  const forAssessment = (assessmentId: string, id: string, at: string): DeliverableJob => ({ ...job(id, at), assessment_id: assessmentId });

  it('of 20 concurrent openings with the same inputs creates one job; the others answer it', async () => {
    const store = new DynamoDeliverableStore();
    const at = '2026-11-23T13:00:00.000Z';
    const now = new Date(at);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => store.open(forAssessment('va_burst', `dlv_burst_${String(i).padStart(2, '0')}`, at), 'version:3', now)));
    const ids = new Set(answers.map((a) => a.deliverable_id));
    expect(ids.size).toBe(1);
    const [created] = ids;
    const open = (await store.listOpen()).filter((j) => j.assessment_id === 'va_burst');
    expect(open.map((j) => j.deliverable_id)).toEqual([created]);
  });

  it('starts a new job once the open one finished, or when the inputs changed', async () => {
    const store = new DynamoDeliverableStore();
    const at = '2026-11-23T14:00:00.000Z';
    const now = new Date(at);
    const first = await store.open(forAssessment('va_next', 'dlv_next_1', at), 'version:1', now);
    expect(first.deliverable_id).toBe('dlv_next_1');
    // Same inputs while queued: joined.
    expect((await store.open(forAssessment('va_next', 'dlv_next_2', at), 'version:1', now)).deliverable_id).toBe('dlv_next_1');
    // The assessment changed: a job of its own.
    expect((await store.open(forAssessment('va_next', 'dlv_next_3', at), 'version:2', now)).deliverable_id).toBe('dlv_next_3');
    // Once that job ended, the same inputs start another.
    await store.claim(forAssessment('va_next', 'dlv_next_3', at), 'w', now, 60_000);
    await store.finish(forAssessment('va_next', 'dlv_next_3', at), { owner: 'w' }, { files: [] }, now);
    expect((await store.open(forAssessment('va_next', 'dlv_next_4', at), 'version:2', now)).deliverable_id).toBe('dlv_next_4');
  });
});
