import { randomUUID } from 'node:crypto';
import { MAX_ATTEMPTS, type DeliverableRef, type DeliverableStore } from '../../domain/deliverables/jobs';
import { runDeliverableJob, type DeliverableDeps } from './build-package';
import type { PackageRenderers } from './ports';
import { leaseExpired } from '../../domain/job-lease';
import { METRIC } from '../../observability/metrics';
import type { JobRunner } from '../jobs/harness';
import type { JobRef } from '../jobs/job-start';
import type { LapsedJob, SweptJobs } from '../jobs/sweep';
import { deliverableStart } from './deliverable-start';

/** This worker instance, as lease owner. */
const OWNER = `deliverables-${randomUUID()}`;

const deliverableOf = (ref: JobRef): DeliverableRef => ({ account_id: ref.account_id, assessment_id: ref.assessment_id ?? '', deliverable_id: ref.job_id });

/**
 * The deliverable kind of the job harness: the package is built under its lease (claimed when
 * queued, or taken over when a lost worker's lease lapsed with attempts left). The renderers are
 * the worker's alone, obtained for each run: the API function never loads them, nor does a process
 * that only reads a job's status.
 */
export function deliverableRunner(deps: () => DeliverableDeps, renderers: () => Promise<PackageRenderers>): JobRunner {
  return {
    kind: 'deliverable',
    status: async (ref) => (await deps().jobs.get(deliverableOf(ref)))?.status,
    run: async (start) => runDeliverableJob({ ...deps(), renderers: await renderers() }, deliverableOf(start.ref), OWNER),
    metrics: { succeeded: METRIC.deliverablesRun, failed: METRIC.deliverablesFailed },
  };
}

/** Deliverable jobs for the sweep: run again within MAX_ATTEMPTS, else failed `worker_lost`; queued ones past the grace started again. */
export function deliverableJobs(store: DeliverableStore): SweptJobs {
  return {
    kind: 'deliverable',
    listLapsed: async (now) => (await store.listOpen()).flatMap((job): LapsedJob[] => (job.status === 'running' && job.lease && leaseExpired(job.lease, now)
      ? [{
        ref: deliverableStart(job).ref,
        lease: job.lease,
        retryable: job.lease.attempt < MAX_ATTEMPTS,
        failure: {
          code: 'worker_lost',
          detail: `The package stopped when its worker ended unexpectedly (a crash or a timeout), on attempt ${job.lease.attempt} of ${MAX_ATTEMPTS}; request it again, and quote ${job.deliverable_id} if it happens again.`,
        },
      }]
      : [])),
    failLost: (job, now) => store.finish(deliverableOf(job.ref), { seen: job.lease }, { error: job.failure }, now),
    listWaiting: async (before) => (await store.listOpen()).filter((job) => job.status === 'queued' && job.created_at < before.toISOString()).map(deliverableStart),
  };
}
