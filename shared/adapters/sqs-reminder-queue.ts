import { SendMessageCommand } from './sqs-commands';
import { sqs } from './aws-clients';
import { requiredSetting } from '../config';
import type { AccountReminderBatch, ReminderBatchQueue } from '../application/reminders/reminder-fan-out';

/** The reminder queue: one message per page of accounts, consumed by the reminder worker. */
export class SqsReminderQueue implements ReminderBatchQueue {
  constructor(private readonly queueUrl = requiredSetting('REMINDER_QUEUE_URL')) {}

  async send(batch: AccountReminderBatch): Promise<void> {
    await sqs().send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(batch) }));
  }
}
