import { assetAdapters } from '../../shared/adapters/asset-wiring';
import { DynamoDeliverableStore } from '../../shared/adapters/deliverable-store';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { DynamoHazardJobStore } from '../../shared/adapters/hazard-job-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { importJobs } from '../../shared/application/assets/import-jobs';
import { deliverableJobs } from '../../shared/application/deliverables/deliverable-jobs';
import { elevationModelJobs } from '../../shared/application/elevation-models/processing-jobs';
import { hazardJobs } from '../../shared/application/hazards/hazard-jobs';
import { jobStarter } from '../../shared/application/jobs/starter';
import { sweepLapsedJobs, type SweepReport, type SweptJobs } from '../../shared/application/jobs/sweep';
import { logger } from '../../shared/observability/logger';
import { countMetric, METRIC, observedHandler } from '../../shared/observability/metrics';
import type { JobKindName } from '../../shared/application/jobs/job-start';

let kinds: SweptJobs[] | undefined;

/** The failure metric of each kind, for the jobs the sweep ended `worker_lost`. */
const FAILED_METRIC = {
  hazard_job: METRIC.analysesFailed,
  asset_import: METRIC.importsFailed,
  elevation_model: METRIC.elevationModelsFailed,
  deliverable: METRIC.deliverablesFailed,
} as const satisfies Record<JobKindName, string>;

/**
 * The one lost-job sweep (a schedule every few minutes in AWS, a timer locally): every job kind
 * whose lease lapsed is sent to its worker again or failed `worker_lost`, and every job left
 * waiting past the grace period is started again.
 */
export const handler = observedHandler(async (_event?: unknown): Promise<Partial<SweepReport>> => {
  kinds ??= [
    hazardJobs(new DynamoHazardJobStore()),
    importJobs(assetAdapters),
    elevationModelJobs({ models: new DynamoElevationModelStore(), blobs: new S3BlobStore() }),
    deliverableJobs(new DynamoDeliverableStore()),
  ];
  const report = await sweepLapsedJobs(kinds, jobStarter(), new Date());
  for (const [kind, counts] of Object.entries(report) as [JobKindName, { failed: number }][]) countMetric(FAILED_METRIC[kind], counts.failed);
  if (Object.values(report).some((counts) => counts.retried + counts.failed + counts.restarted > 0)) logger.info('Lost jobs swept', { report });
  return report;
});
