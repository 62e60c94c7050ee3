import type { LocalResources } from './bootstrap';
import { startQueuePoller } from './queue-poller';
import { startReminderTimer } from './reminder-timer';
import { logger } from '../shared/observability/logger';

/** How often running hazard jobs are checked for a lost worker, as the schedule does in AWS. */
const HAZARD_SWEEP_EVERY_MS = 15_000;

export interface BackgroundWorkers {
  stop(): Promise<void>;
}

/**
 * What AWS runs beside the API: the SQS event source feeding the webhook dispatcher, the daily
 * schedule of the deadline reminder, and the schedule that fails hazard jobs whose worker was lost
 * (after a restart, the jobs the previous process was running). The handlers load on first use,
 * like a cold start. Without `outbound`, only the job workers run: nothing is delivered or sent.
 */
export function startBackgroundWorkers(resources: LocalResources, { outbound = true } = {}): BackgroundWorkers {
  const poller = outbound
    ? startQueuePoller({
      queueUrl: resources.queueUrl,
      loadHandler: async () => (await import('../functions/webhook-dispatcher/handler')).handler,
    })
    : undefined;
  const timer = outbound
    ? startReminderTimer(async (time) => (await import('../functions/deadline-reminder/handler')).handler({ time: time.toISOString() }))
    : undefined;
  const deliverables = startDeliverablePoller();
  let sweeping: Promise<void> | undefined;
  const sweeper = setInterval(() => {
    sweeping ??= import('../functions/hazard-job-worker/handler')
      .then(async ({ handler }) => {
        await handler({ source: 'local.schedule' });
      })
      .catch((error: unknown) => logger.error('Hazard job sweep failed', { error: error as Error }))
      .finally(() => {
        sweeping = undefined;
      });
  }, HAZARD_SWEEP_EVERY_MS);
  sweeper.unref();
  return {
    async stop() {
      clearInterval(sweeper);
      await sweeping;
      await deliverables.stop();
      await timer?.stop();
      await poller?.stop();
    },
  };
}

/** Deliverable jobs: what the table stream starts in AWS, a poll of the open jobs here. */
function startDeliverablePoller(intervalMs = 500): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = (async () => {
      try {
        await (await import('../functions/deliverables-worker/handler')).runOpenJobs();
      } catch (error) {
        console.error('Deliverable poll failed', (error as Error).message);
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    })();
  };
  let timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
