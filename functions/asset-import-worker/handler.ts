import { assetAdapters } from '../../shared/adapters/asset-wiring';
import { importRunner } from '../../shared/application/assets/import-jobs';
import { jobQueueConsumer, lambdaBudget } from '../../shared/application/jobs/harness';
import { observedHandler } from '../../shared/observability/metrics';

/** Time kept back from Lambda's timeout to record an import's outcome. */
const SAFETY_MS = 30_000;

/**
 * Large imports: the bucket's ObjectCreated notification for `uploads/` goes to the import queue,
 * which starts the import here with a longer timeout than API Gateway allows the assets API
 * function; the sweep's retries of imports whose worker was lost arrive on the same queue.
 */
export const handler = observedHandler(jobQueueConsumer([importRunner(assetAdapters)], lambdaBudget(SAFETY_MS)));
