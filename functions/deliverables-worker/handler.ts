import { deliverableDeps } from '../../shared/adapters/deliverables-wiring';
import { packageRenderers } from '../../shared/adapters/renderers/package-renderers';
import { deliverableRunner } from '../../shared/application/deliverables/deliverable-jobs';
import { jobQueueConsumer } from '../../shared/application/jobs/harness';
import { observedHandler } from '../../shared/observability/metrics';

/**
 * Deliverable packages: the deliverable queue delivers the start POST
 * /assessments/{id}/deliverables sent (or the sweep sent again); the package is built here, under
 * its lease, with a longer timeout than the API's.
 */
export const handler = observedHandler(jobQueueConsumer([deliverableRunner(deliverableDeps, async () => packageRenderers())]));
