import type { LocalResources } from './bootstrap';
import { startQueuePoller } from './queue-poller';
import { startReminderTimer } from './reminder-timer';

export interface BackgroundWorkers {
  stop(): Promise<void>;
}

/**
 * What AWS runs beside the API: the SQS event source feeding the webhook dispatcher, and the
 * daily schedule of the deadline reminder. The handlers load on first use, like a cold start.
 */
export function startBackgroundWorkers(resources: LocalResources): BackgroundWorkers {
  const poller = startQueuePoller({
    queueUrl: resources.queueUrl,
    loadHandler: async () => (await import('../functions/webhook-dispatcher/handler')).handler,
  });
  const timer = startReminderTimer(async (time) => (await import('../functions/deadline-reminder/handler')).handler({ time: time.toISOString() }));
  return {
    async stop() {
      await timer.stop();
      await poller.stop();
    },
  };
}
