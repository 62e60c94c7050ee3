import type { LocalResources } from './bootstrap';
import { localElevationWorker } from './processing-fan-out';
import { startQueuePoller, type QueuePoller, type SqsHandler } from './queue-poller';
import type { JobKindName } from '../shared/application/jobs/job-start';
import type { ChildJobKind } from './job-process';
import { logger } from '../shared/observability/logger';

/** How often the one lost-job sweep runs, as the schedule does in AWS (more often: a local restart should resume quickly). */
const SWEEP_EVERY_MS = 15_000;

/** Pollers per kind: the local counterpart of each kind's `maxConcurrency` on its event source. */
const POLLERS: Record<JobKindName, number> = { hazard_job: 2, asset_import: 2, elevation_model: 1, deliverable: 1 };

export interface JobWorkers {
  stop(): Promise<void>;
}

/**
 * What AWS runs for the job kinds: each kind's queue feeding its worker (the queue poller on the
 * emulated queue, in place of the SQS event source), and the schedule of the one lost-job sweep.
 * Workers load on first message, like a cold start. Imports, packages and elevation models run as
 * in AWS but off the server's event loop: imports and packages each in a process of their own
 * (an import stops at its next row when the server stops, a package is ended; their leases lapse
 * and the next start's sweep resumes them), rasters decode in a worker thread.
 */
export function startJobWorkers(resources: LocalResources): JobWorkers {
  const stopping = new AbortController();
  const consumerInChild = async (kind: ChildJobKind): Promise<SqsHandler> => {
    const [{ jobQueueConsumer }, { runnerInChild }] = await Promise.all([import('../shared/application/jobs/harness'), import('./job-process')]);
    return jobQueueConsumer([runnerInChild(kind)], () => ({ signal: stopping.signal }));
  };
  const handlers: Record<JobKindName, () => Promise<SqsHandler>> = {
    hazard_job: async () => (await import('../functions/hazard-job-worker/handler')).handler,
    deliverable: () => consumerInChild('deliverable'),
    asset_import: () => consumerInChild('asset_import'),
    elevation_model: async () => {
      const [{ jobQueueConsumer }, { elevationModelRunner }] = await Promise.all([import('../shared/application/jobs/harness'), import('../shared/application/elevation-models/processing-jobs')]);
      return jobQueueConsumer([elevationModelRunner(localElevationWorker())]);
    },
  };
  const pollers: QueuePoller[] = (Object.keys(POLLERS) as JobKindName[]).flatMap((kind) => Array.from({ length: POLLERS[kind] }, () => startQueuePoller({
    queueUrl: resources.jobQueueUrls[kind],
    functionName: `${kind}-worker`,
    loadHandler: handlers[kind],
    batchSize: 1,
  })));

  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    sweeping ??= import('../functions/job-sweep/handler')
      .then(async ({ handler }) => { await handler({ source: 'local.schedule' }); })
      .catch((error: unknown) => logger.error('Lost-job sweep failed', { error: error as Error }))
      .finally(() => { sweeping = undefined; });
  };
  // At once, too: the jobs a previous process was running when it stopped resume now.
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await sweeping;
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
}
