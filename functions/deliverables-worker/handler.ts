import { randomUUID } from 'node:crypto';
import { jobInsertConsumer } from '../../shared/adapters/job-stream';
import { countJobEnd, METRIC, observedHandler } from '../../shared/observability/metrics';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import { ResvgPngRenderer } from '../../shared/adapters/png-renderer';
import { runDeliverableJob, runOpenDeliverableJobs, type DeliverableWorkerDeps } from '../../shared/domain/deliverables/service';
import { deliverableDeps } from '../deliverables/deps';

/** This worker instance, as lease owner. */
const OWNER = `deliverables-${randomUUID()}`;

const renderers = { geoPackage: new SqlJsGeoPackageWriter(), png: new ResvgPngRenderer() };
const workerDeps = (): DeliverableWorkerDeps => ({ ...deliverableDeps(), renderers });

/**
 * AWS entry: the table's stream delivers the insert of each deliverable job item (filtered on
 * `type = deliverable_job`); the job runs here, under its lease, with a longer timeout than the API's.
 */
export const handler = observedHandler(jobInsertConsumer('deliverable_job', async (item) => {
  const job = item.job as { account_id: string; assessment_id: string; deliverable_id: string };
  const ref = { account_id: job.account_id, assessment_id: job.assessment_id, deliverable_id: job.deliverable_id };
  const before = await deliverableDeps().jobs.get(ref);
  await runDeliverableJob(workerDeps(), ref, OWNER);
  const after = await deliverableDeps().jobs.get(ref);
  countJobEnd(before?.status, after?.status, { succeeded: METRIC.deliverablesRun, failed: METRIC.deliverablesFailed });
}));

/** Local entry: the background worker polls open jobs (and takes over those whose lease expired). */
export function runOpenJobs(): Promise<void> {
  return runOpenDeliverableJobs(workerDeps(), OWNER);
}
