import { hazardAdapters } from '../../shared/adapters/hazard-wiring';
import { runAccountFloodAnalysisJob } from '../../shared/application/hazards/flood-analysis';
import { hazardJobRunner } from '../../shared/application/hazards/hazard-jobs';
import { jobQueueConsumer } from '../../shared/application/jobs/harness';
import { observedHandler } from '../../shared/observability/metrics';

const deps = hazardAdapters();

/** Flood analyses through the job harness. */
export const hazardRunner = hazardJobRunner(deps.jobs, (ref) => runAccountFloodAnalysisJob(deps, ref));

/**
 * Flood analysis jobs: the hazard job queue delivers the start POST /hazards/flood-analysis sent
 * (or the sweep sent again); the job runs here with a longer timeout than the API's.
 */
export const handler = observedHandler(jobQueueConsumer([hazardRunner]));
