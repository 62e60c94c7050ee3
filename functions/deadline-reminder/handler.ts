import type { ScheduledEvent } from 'aws-lambda';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoReminderLedger } from '../../shared/adapters/reminder-ledger';
import { SqsEventQueue } from '../../shared/adapters/sqs-event-queue';
import { floridaDate } from '../../shared/domain/florida-time';
import { fireDeadlineReminders, type ReminderRun } from '../../shared/domain/webhooks/deadline-reminders';
import { logger } from '../../shared/observability/logger';
import { observedHandler } from '../../shared/observability/metrics';

/**
 * The daily EventBridge schedule: emits `deadline_reminder` 30, 7 and 1 days before each program
 * deadline to every account, once per account, deadline and offset however often it fires.
 * The day is the Florida date of the schedule's own `time`, so a late or repeated invocation fires
 * for its day.
 */
export const handler = observedHandler(async (event: Pick<ScheduledEvent, 'time'>): Promise<ReminderRun> => {
  const run = await fireDeadlineReminders(floridaDate(new Date(event.time)), {
    accounts: new DynamoAccountStore(),
    ledger: new DynamoReminderLedger(),
    events: new SqsEventQueue(),
    now: () => new Date(),
  });
  logger.info('Deadline reminders fired', { date: run.date, due: run.due.length, accounts: run.accounts, emitted: run.emitted, already_sent: run.already_sent });
  return run;
});
