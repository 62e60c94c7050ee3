import type { HazardJob, HazardJobRunner, HazardJobStore } from '../../domain/hazards/jobs';
import { METRIC } from '../../observability/metrics';
import type { JobRunner } from '../jobs/harness';
import type { JobRef, JobStart, JobStarter } from '../jobs/job-start';
import type { SweptJobs } from '../jobs/sweep';
import { startRecordedJob } from '../jobs/starter';

/** Why a flood analysis whose worker was lost ended `failed`. */
export const LOST_ANALYSIS_ERROR = {
  code: 'worker_lost',
  detail: 'The analysis stopped when its worker ended unexpectedly (a crash or a timeout); start it again with POST /hazards/flood-analysis.',
};

/** The start of a queued flood analysis. */
export const hazardJobStart = (job: Pick<HazardJob, 'account_id' | 'job_id'>): JobStart => ({ kind: 'hazard_job', ref: { account_id: job.account_id, job_id: job.job_id } });

/** Queued analyses: the job's start goes to the hazard job queue, whose worker runs it (in AWS and locally). */
export const queuedHazardJobs = (starter: JobStarter): HazardJobRunner => ({ start: (job) => startRecordedJob(hazardJobStart(job), starter) });

/**
 * The flood-analysis kind of the job harness: `analyze` claims the queued job under its lease,
 * runs the analysis and records its end (a retry never reaches it: an analysis is not retried).
 */
export function hazardJobRunner(store: () => HazardJobStore, analyze: (ref: Pick<HazardJob, 'account_id' | 'job_id'>) => Promise<void>): JobRunner {
  return {
    kind: 'hazard_job',
    status: async (ref: JobRef) => (await store().get(ref.account_id, ref.job_id))?.status,
    run: async (start) => {
      if (!start.retry_of) await analyze(start.ref);
    },
    metrics: { succeeded: METRIC.analysesRun, failed: METRIC.analysesFailed },
  };
}

/**
 * Flood analyses for the sweep: one whose worker was lost is failed `worker_lost` at once (its
 * attempt budget is one: an analysis writes nothing but its result, and its caller starts it
 * again); one still queued past the grace period is started again.
 */
export function hazardJobs(store: HazardJobStore): SweptJobs {
  return {
    kind: 'hazard_job',
    listLapsed: async (now) => (await store.listExpiredLeases(now)).flatMap((job) => (job.lease
      ? [{ ref: hazardJobStart(job).ref, lease: job.lease, retryable: false, failure: LOST_ANALYSIS_ERROR }]
      : [])),
    failLost: async (job, now) => {
      const current = await store.get(job.ref.account_id, job.ref.job_id);
      return current ? store.failLost({ ...current, lease: job.lease }, job.failure, now) : false;
    },
    listWaiting: async (before) => (await store.listQueued(before)).map(hazardJobStart),
  };
}
