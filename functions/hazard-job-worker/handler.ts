import { hazardJobRunner } from '../../shared/application/hazards/hazard-jobs';
import { jobQueueConsumer } from '../../shared/application/jobs/harness';
import { observedHandler } from '../../shared/observability/metrics';
import { hazardDeps, runAccountFloodAnalysisJob } from '../hazards/jobs';

/** Flood analyses through the job harness. */
export const hazardRunner = hazardJobRunner(hazardDeps.jobs, (ref) => runAccountFloodAnalysisJob(hazardDeps, ref));

/**
 * Flood analysis jobs: the hazard job queue delivers the start POST /hazards/flood-analysis sent
 * (or the sweep sent again); the job runs here with a longer timeout than the API's.
 */
export const handler = observedHandler(jobQueueConsumer([hazardRunner]));
