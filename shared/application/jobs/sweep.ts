import type { JobLease } from '../../domain/job-lease';
import type { JobFailure } from '../../domain/job-failure';
import { logger } from '../../observability/logger';
import type { JobKindName, JobRef, JobStart, JobStarter } from './job-start';

/** A job left waiting this long after it was created lost its start message: it is started again. */
export const WAITING_GRACE_MS = 2 * 60_000;

/** A running job whose lease lapsed: its worker was lost (a crash, a timeout, a killed process). */
export interface LapsedJob {
  ref: JobRef;
  lease: JobLease;
  /** Whether it is run again (an attempt left, and what it reads still there) rather than failed. */
  retryable: boolean;
  /** What it ends with when it is not run again (`worker_lost`). */
  failure: JobFailure;
}

/** What the sweep needs of a job kind's records. */
export interface SweptJobs {
  kind: JobKindName;
  /** Running jobs whose lease lapsed before `now`. */
  listLapsed(now: Date): Promise<LapsedJob[]>;
  /** Ends the job `failed` with its failure if its lease is still the lapsed one seen; false if it moved on. */
  failLost(job: LapsedJob, now: Date): Promise<boolean>;
  /** Jobs still waiting to be claimed that were created before `before` and could run now (their upload arrived). */
  listWaiting(before: Date, now: Date): Promise<JobStart[]>;
}

export interface SweepCounts {
  /** Lapsed jobs sent to run again, under a new lease. */
  retried: number;
  /** Lapsed jobs ended `failed` (`worker_lost`). */
  failed: number;
  /** Waiting jobs whose start was sent again. */
  restarted: number;
}

export type SweepReport = Record<JobKindName, SweepCounts>;

/**
 * The one sweep over every job kind (a schedule in AWS, a timer locally): a job whose lease lapsed
 * is sent to its worker again within its attempt budget, else ended `failed` `worker_lost`; a job
 * left waiting past the grace period (its start message was lost: the send failed after the
 * record was written, or the message expired) is started again. No job stays `running` or waits
 * until its record expires. A start that cannot be sent is left for the next sweep.
 */
export async function sweepLapsedJobs(kinds: readonly SweptJobs[], starter: JobStarter, now: Date, graceMs = WAITING_GRACE_MS): Promise<Partial<SweepReport>> {
  const report: Partial<SweepReport> = {};
  const send = async (start: JobStart): Promise<boolean> => {
    try {
      await starter.start(start);
      return true;
    } catch (error) {
      logger.warn('A job start could not be sent; the next sweep tries again', { kind: start.kind, jobId: start.ref.job_id, error: error as Error });
      return false;
    }
  };
  for (const kind of kinds) {
    const counts: SweepCounts = { retried: 0, failed: 0, restarted: 0 };
    for (const lapsed of await kind.listLapsed(now)) {
      if (lapsed.retryable) {
        if (await send({ kind: kind.kind, ref: lapsed.ref, retry_of: lapsed.lease })) counts.retried++;
      } else if (await kind.failLost(lapsed, now)) {
        counts.failed++;
      }
    }
    for (const waiting of await kind.listWaiting(new Date(now.getTime() - graceMs), now)) {
      if (await send(waiting)) counts.restarted++;
    }
    report[kind.kind] = counts;
  }
  return report;
}
