import { GetCommand, PutCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { clearOutbox, outboxAttributes } from './outbox';
import { requiredSetting } from '../config';
import type { QueuedEvent } from '../ports';
import type { DueReminder, ReminderLedger } from '../domain/webhooks/deadline-reminders';

/** Records outlive their deadline by this much (TTL), then nothing can fire for them again anyway. */
const RETENTION_DAYS_AFTER_DEADLINE = 30;

const keyOf = (accountId: string, reminder: DueReminder) => ({
  pk: `REMINDER#${accountId}`,
  sk: `${reminder.deadline_id}#${reminder.deadline_date}#${reminder.days_before}`,
});

/**
 * One item per (account, deadline, date, offset). The claim carries the event in the item's
 * outbox, so if the send is lost the outbox relays (stream consumer, local sweeper) deliver it;
 * an item without a pending outbox has been sent.
 */
export class DynamoReminderLedger implements ReminderLedger {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async claim(event: QueuedEvent, reminder: DueReminder): Promise<'claimed' | 'unsent' | 'sent'> {
    const key = keyOf(event.account_id, reminder);
    try {
      await dynamo().send(new PutCommand({
        TableName: this.tableName,
        Item: {
          ...key,
          type: 'deadline_reminder',
          account_id: event.account_id,
          ...reminder,
          ...outboxAttributes(event),
          created_at: event.timestamp,
          expires_at: Math.floor(Date.parse(`${reminder.deadline_date}T00:00:00Z`) / 1000) + RETENTION_DAYS_AFTER_DEADLINE * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }));
      return 'claimed';
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'pk, outbox' }));
    return Item?.outbox ? 'unsent' : 'sent';
  }

  async markSent(event: QueuedEvent, reminder: DueReminder): Promise<void> {
    await clearOutbox(this.tableName, keyOf(event.account_id, reminder), event.event_id);
  }
}
