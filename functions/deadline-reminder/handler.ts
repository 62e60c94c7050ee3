import type { ScheduledEvent } from 'aws-lambda';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { SqsReminderQueue } from '../../shared/adapters/sqs-reminder-queue';
import { fanOutReminders, type ReminderFanOut } from '../../shared/application/reminders/reminder-fan-out';
import { floridaDate } from '../../shared/domain/florida-time';
import { logger } from '../../shared/observability/logger';
import { observedHandler } from '../../shared/observability/metrics';

/**
 * The daily EventBridge schedule: on a day with `deadline_reminder`s due (30, 7 and 1 days before
 * each program deadline) it fans out, one reminder-queue message per page of accounts; the
 * reminder worker sends them. The day is the Florida date of the schedule's own `time`, so a late
 * or repeated invocation fans out for its day (and sends nothing twice).
 */
export const handler = observedHandler(async (event: Pick<ScheduledEvent, 'time'>): Promise<ReminderFanOut> => {
  const accounts = new DynamoAccountStore();
  const run = await fanOutReminders(floridaDate(new Date(event.time)), {
    accountIdPages: (pageSize) => accounts.accountIdPages(pageSize),
    queue: new SqsReminderQueue(),
  });
  logger.info('Deadline reminders fanned out', { date: run.date, due: run.due.length, accounts: run.accounts, messages: run.messages });
  return run;
});
