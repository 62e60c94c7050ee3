import { logger } from '../shared/observability/logger';
import { floridaDate } from '../shared/domain/florida-time';

export interface ReminderTimer {
  stop(): Promise<void>;
}

// Checked hourly: the schedule fires once per Florida date, whenever that date begins.
const CHECK_INTERVAL_MS = 3_600_000;

/**
 * The local stand-in for the daily EventBridge schedule: fires once at start (a machine that is
 * off at midnight still gets the day's reminders; firing is idempotent) and then again within an
 * hour of each new Florida (Eastern) date, while the local server runs.
 */
export function startReminderTimer(fire: (time: Date) => Promise<unknown>, clock: () => Date = () => new Date()): ReminderTimer {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let firedFor = '';

  const run = () => {
    const now = clock();
    if (floridaDate(now) !== firedFor) {
      firedFor = floridaDate(now);
      inFlight = fire(now).catch((error: unknown) => logger.error('Deadline reminders failed', { error: error as Error }));
    }
    scheduleNext();
  };
  const scheduleNext = () => {
    if (stopped) return;
    timer = setTimeout(run, CHECK_INTERVAL_MS);
    timer.unref();
  };

  run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
