import { logger } from '../shared/http/logger';

export interface ReminderTimer {
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;
// A little after midnight UTC, like a daily schedule expression `cron(1 0 * * ? *)`.
const FIRE_OFFSET_MS = 60_000;

/**
 * The local stand-in for the daily EventBridge schedule: fires once at start (a machine that is
 * off at midnight still gets the day's reminders; firing is idempotent) and then every day just
 * after midnight UTC, while the local server runs.
 */
export function startReminderTimer(fire: (time: Date) => Promise<unknown>, clock: () => Date = () => new Date()): ReminderTimer {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  let stopped = false;

  const run = () => {
    inFlight = fire(clock()).catch((error: unknown) => logger.error('Deadline reminders failed', { error: error as Error }));
    scheduleNext();
  };
  const scheduleNext = () => {
    if (stopped) return;
    const now = clock().getTime();
    const next = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + FIRE_OFFSET_MS;
    timer = setTimeout(run, next - now);
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
