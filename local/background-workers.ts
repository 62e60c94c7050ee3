import type { LocalResources } from './bootstrap';
import { startJobWorkers } from './job-workers';
import { startQueuePoller } from './queue-poller';
import { startReminderTimer } from './reminder-timer';

export interface BackgroundWorkers {
  stop(): Promise<void>;
}

/**
 * What AWS runs beside the API: the job workers on their queues with the lost-job sweep, and —
 * unless `outbound` is off — the SQS event source feeding the webhook dispatcher, the daily
 * schedule of the deadline reminder fan-out and the reminder queue feeding the reminder worker.
 * Without `outbound`, nothing is delivered or sent.
 */
export function startBackgroundWorkers(resources: LocalResources, { outbound = true } = {}): BackgroundWorkers {
  const jobs = startJobWorkers(resources);
  const pollers = outbound
    ? [
      startQueuePoller({ queueUrl: resources.queueUrl, functionName: 'webhook-dispatcher', loadHandler: async () => (await import('../functions/webhook-dispatcher/handler')).handler }),
      startQueuePoller({ queueUrl: resources.reminderQueueUrl, functionName: 'reminder-worker', loadHandler: async () => (await import('../functions/reminder-worker/handler')).handler }),
    ]
    : [];
  const timer = outbound
    ? startReminderTimer(async (time) => (await import('../functions/deadline-reminder/handler')).handler({ time: time.toISOString() }))
    : undefined;
  return {
    async stop() {
      await timer?.stop();
      await jobs.stop();
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
}
