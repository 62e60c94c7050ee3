import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { DynamoReminderLedger } from '../../shared/adapters/reminder-ledger';
import { SqsEventQueue } from '../../shared/adapters/sqs-event-queue';
import { remindAccounts, type AccountReminderBatch } from '../../shared/application/reminders/reminder-fan-out';
import { IsoDate } from '../../shared/schemas/common';
import { logger } from '../../shared/observability/logger';
import { observedHandler } from '../../shared/observability/metrics';

const processor = new BatchProcessor(EventType.SQS);
let deps: Parameters<typeof remindAccounts>[1] | undefined;

function batchOf(body: string): AccountReminderBatch | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<AccountReminderBatch>;
    const valid = IsoDate().safeParse(parsed.date).success && Array.isArray(parsed.account_ids) && parsed.account_ids.every((id) => typeof id === 'string');
    return valid ? parsed as AccountReminderBatch : undefined;
  } catch {
    return undefined;
  }
}

async function remind(record: SQSRecord): Promise<void> {
  const batch = batchOf(record.body);
  if (!batch) {
    logger.warn('Ignoring a reminder message that names no accounts', { messageId: record.messageId });
    return;
  }
  deps ??= { ledger: new DynamoReminderLedger(), events: new SqsEventQueue(), now: () => new Date() };
  const run = await remindAccounts(batch, deps);
  logger.info('Deadline reminders sent', { date: batch.date, accounts: batch.account_ids.length, ...run });
}

/**
 * One page of accounts' deadline reminders, as the daily fan-out put it on the reminder queue. A
 * page that fails (the event queue unreachable) is reported back and received again; what it had
 * already sent is not sent twice (the ledger), and past its receive count it waits in the
 * reminder dead-letter queue, which is alarmed.
 */
export const handler = observedHandler((event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, remind, processor, context ? { context } : undefined));
