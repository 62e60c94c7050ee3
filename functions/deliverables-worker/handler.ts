import { randomUUID } from 'node:crypto';
import type { DynamoDBStreamEvent } from 'aws-lambda';
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
export const handler = observedHandler(async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || image?.type?.S !== 'deliverable_job') continue;
    const job = image.job?.M;
    const ref = { account_id: job!.account_id!.S!, assessment_id: job!.assessment_id!.S!, deliverable_id: job!.deliverable_id!.S! };
    const before = await deliverableDeps().jobs.get(ref);
    await runDeliverableJob(workerDeps(), ref, OWNER);
    const after = await deliverableDeps().jobs.get(ref);
    countJobEnd(before?.status, after?.status, { succeeded: METRIC.deliverablesRun, failed: METRIC.deliverablesFailed });
  }
});

/** Local entry: the background worker polls open jobs (and takes over those whose lease expired). */
export function runOpenJobs(): Promise<void> {
  return runOpenDeliverableJobs(workerDeps(), OWNER);
}
