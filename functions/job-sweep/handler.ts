import { sweepLapsedJobs, type SweepReport } from '../../shared/application/jobs/sweep';
import { logger } from '../../shared/observability/logger';
import { countMetric, METRIC, observedHandler } from '../../shared/observability/metrics';
import type { JobKindName } from '../../shared/application/jobs/job-start';
import { jobSweepDeps } from './deps';

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
  const { kinds, starter } = jobSweepDeps();
  const report = await sweepLapsedJobs(kinds, starter, new Date());
  for (const [kind, counts] of Object.entries(report) as [JobKindName, { failed: number }][]) countMetric(FAILED_METRIC[kind], counts.failed);
  if (Object.values(report).some((counts) => counts.retried + counts.failed + counts.restarted > 0)) logger.info('Lost jobs swept', { report });
  return report;
});
