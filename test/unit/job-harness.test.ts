import { jobQueueConsumer, startsOf, type JobRunner } from '../../shared/application/jobs/harness';
import { parseJobStart, type JobStart } from '../../shared/application/jobs/job-start';
import { sweepLapsedJobs, type LapsedJob, type SweptJobs } from '../../shared/application/jobs/sweep';
import { deliver, recordingStarter, s3Notification } from '../helpers/job-messages';

/** A runner over an in-memory status map: `run` moves a queued job to `outcome`, or throws for `bad`. */
function memoryRunner(kind: JobRunner['kind'], statuses: Map<string, string>, outcome = 'succeeded'): JobRunner & { runs: JobStart[] } {
  const runs: JobStart[] = [];
  return {
    kind,
    runs,
    status: async (ref) => statuses.get(ref.job_id),
    run: async (start) => {
      runs.push(start);
      if (start.ref.job_id === 'bad') throw new Error('the table was unreachable');
      if (statuses.get(start.ref.job_id) === 'queued') statuses.set(start.ref.job_id, outcome);
    },
    startOfUpload: (key, size) => (key.startsWith('uploads/') ? { kind, ref: { account_id: 'acct', job_id: key.split('/')[2]! }, upload: { key, ...(size === undefined ? {} : { size }) } } : undefined),
    metrics: { failed: 'ImportsFailed' },
  };
}

describe('the job harness on a queue', () => {
  it('runs each start on its own and reports back only the message whose run threw', async () => {
    const statuses = new Map([['a', 'queued'], ['b', 'queued']]);
    const runner = memoryRunner('hazard_job', statuses);
    const consumer = jobQueueConsumer([runner]);
    const answer = await deliver(consumer,
      { kind: 'hazard_job', ref: { account_id: 'acct', job_id: 'a' } },
      { kind: 'hazard_job', ref: { account_id: 'acct', job_id: 'bad' } },
      { kind: 'hazard_job', ref: { account_id: 'acct', job_id: 'b' } });
    expect(runner.runs.map((start) => start.ref.job_id)).toEqual(['a', 'bad', 'b']);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'msg-1' }]);
    expect([...statuses.values()]).toEqual(['succeeded', 'succeeded']);
  });

  it('reads an S3 notification as the start of the upload\'s job, URL-decoded, and ignores what starts nothing', async () => {
    const runner = memoryRunner('asset_import', new Map());
    const starts = startsOf(JSON.stringify(s3Notification('bucket', 'uploads/acct/imp_1/my assets.csv', 42)), [runner]);
    expect(starts.map(({ start }) => start)).toEqual([{ kind: 'asset_import', ref: { account_id: 'acct', job_id: 'imp_1' }, upload: { key: 'uploads/acct/imp_1/my assets.csv', size: 42 } }]);
    expect(startsOf(JSON.stringify({ Event: 's3:TestEvent' }), [runner])).toEqual([]);
    expect(startsOf('not json', [runner])).toEqual([]);
    // A start of another kind is not this worker's.
    expect(startsOf(JSON.stringify({ kind: 'deliverable', ref: { account_id: 'a', job_id: 'd' } }), [runner])).toEqual([]);
  });

  it('accepts only well-formed starts', () => {
    const lease = { owner: 'w', expires_at: '2026-01-01T00:00:00.000Z', attempt: 1 };
    expect(parseJobStart({ kind: 'deliverable', ref: { account_id: 'a', job_id: 'd', assessment_id: 'va' }, retry_of: lease, extra: 1 }))
      .toEqual({ kind: 'deliverable', ref: { account_id: 'a', job_id: 'd', assessment_id: 'va' }, retry_of: lease });
    for (const body of [null, 'x', { kind: 'nope', ref: { account_id: 'a', job_id: 'j' } }, { kind: 'hazard_job', ref: { account_id: '', job_id: 'j' } },
      { kind: 'hazard_job', ref: { account_id: 'a', job_id: 'j' }, retry_of: { owner: 'w' } }, { kind: 'hazard_job', ref: { account_id: 'a', job_id: 'j'.repeat(300) } }]) {
      expect(parseJobStart(body)).toBeUndefined();
    }
  });
});

describe('the one lost-job sweep', () => {
  const lease = (attempt: number) => ({ owner: `worker-${attempt}`, expires_at: '2026-01-01T00:00:00.000Z', attempt });
  /** A kind with these lapsed and waiting jobs; failing a lapsed job records it. */
  function memoryKind(kind: SweptJobs['kind'], lapsed: LapsedJob[], waiting: JobStart[]): SweptJobs & { failed: string[]; asked: Date[] } {
    const failed: string[] = [];
    const asked: Date[] = [];
    return {
      kind, failed, asked,
      listLapsed: async () => lapsed,
      failLost: async (job) => { failed.push(job.ref.job_id); return true; },
      listWaiting: async (before) => { asked.push(before); return waiting; },
    };
  }
  const lapsedJob = (id: string, attempt: number, retryable: boolean): LapsedJob => ({
    ref: { account_id: 'acct', job_id: id }, lease: lease(attempt), retryable, failure: { code: 'worker_lost', detail: `attempt ${attempt}` },
  });

  it('sends a retry (naming the lapsed lease) within the budget, fails the rest, and restarts waiting jobs — on every kind', async () => {
    const imports = memoryKind('asset_import', [lapsedJob('imp_1', 1, true), lapsedJob('imp_2', 3, false)], []);
    const hazards = memoryKind('hazard_job', [lapsedJob('hjob_1', 1, false)], [{ kind: 'hazard_job', ref: { account_id: 'acct', job_id: 'hjob_2' } }]);
    const starter = recordingStarter();
    const now = new Date('2026-01-01T01:00:00.000Z');
    const report = await sweepLapsedJobs([imports, hazards], starter, now, 120_000);
    expect(report).toEqual({ asset_import: { retried: 1, failed: 1, restarted: 0 }, hazard_job: { retried: 0, failed: 1, restarted: 1 } });
    expect(starter.starts).toEqual([
      { kind: 'asset_import', ref: { account_id: 'acct', job_id: 'imp_1' }, retry_of: lease(1) },
      { kind: 'hazard_job', ref: { account_id: 'acct', job_id: 'hjob_2' } },
    ]);
    expect([...imports.failed, ...hazards.failed]).toEqual(['imp_2', 'hjob_1']);
    // Waiting jobs are those older than the grace period.
    expect(hazards.asked).toEqual([new Date('2026-01-01T00:58:00.000Z')]);
  });

  it('leaves a job whose start cannot be sent for the next sweep, and goes on with the others', async () => {
    const kind = memoryKind('deliverable', [lapsedJob('dlv_1', 1, true)], [{ kind: 'deliverable', ref: { account_id: 'acct', job_id: 'dlv_2' } }]);
    let calls = 0;
    const report = await sweepLapsedJobs([kind], { start: async () => { calls++; throw new Error('queue unreachable'); } }, new Date());
    expect(calls).toBe(2);
    expect(report.deliverable).toEqual({ retried: 0, failed: 0, restarted: 0 });
    expect(kind.failed).toEqual([]);
  });
});
