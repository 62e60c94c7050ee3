import { randomUUID } from 'node:crypto';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { jobInsertConsumer } from '../../shared/adapters/job-stream';
import { countJobEnd, countMetric, METRIC, observedHandler } from '../../shared/observability/metrics';
import { packageRenderers } from '../../shared/adapters/renderers/package-renderers';
import { runDeliverableJob, runOpenDeliverableJobs, type DeliverableWorkerDeps } from '../../shared/application/deliverables/build-package';
import { deliverableDeps } from '../deliverables/deps';

/** This worker instance, as lease owner. */
const OWNER = `deliverables-${randomUUID()}`;

const renderers = packageRenderers();
const workerDeps = (): DeliverableWorkerDeps => ({ ...deliverableDeps(), renderers });

const runInsertedJob = jobInsertConsumer('deliverable_job', async (item) => {
  const job = item.job as { account_id: string; assessment_id: string; deliverable_id: string };
  const ref = { account_id: job.account_id, assessment_id: job.assessment_id, deliverable_id: job.deliverable_id };
  const before = await deliverableDeps().jobs.get(ref);
  await runDeliverableJob(workerDeps(), ref, OWNER);
  const after = await deliverableDeps().jobs.get(ref);
  countJobEnd(before?.status, after?.status, { succeeded: METRIC.deliverablesRun, failed: METRIC.deliverablesFailed });
});

/**
 * AWS entry: the table's stream delivers the insert of each deliverable job item (filtered on
 * `type = deliverable_job`); the job runs here, under its lease, with a longer timeout than the
 * API's. The lost-job schedule calls it as well: a job whose worker was lost (a timeout, a crash)
 * is run again under a new lease, or failed once its attempts are spent, never left `running`.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent | { source?: string }, context?: Context): Promise<DynamoDBBatchResponse | void> => {
  if (!('Records' in event)) {
    countMetric(METRIC.deliverablesFailed, await runOpenJobs());
    return;
  }
  return runInsertedJob(event, context);
});

/** Runs every open job whose turn it is, taking over those whose lease expired; resolves with how many were failed for good. */
export function runOpenJobs(): Promise<number> {
  return runOpenDeliverableJobs(workerDeps(), OWNER);
}
