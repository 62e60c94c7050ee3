import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { decodeCursor, encodeCursor } from './dynamo-cursor';
import { requiredSetting } from '../config';
import type { DeliveryAttempt } from '../domain/webhooks/delivery';
import type { DeliveryStore, Page } from '../domain/webhooks/ports';

/** Attempts are kept this long (TTL), long enough to debug a failed delivery. */
export const DELIVERY_RETENTION_DAYS = 30;
/** A repeat of an event later than this fans out again (longer than any relay or retry takes). */
export const FAN_OUT_MEMORY_DAYS = 7;

/**
 * One item per attempt: pk `WEBHOOK#{id}`, sk `ATTEMPT#{attempted_at}#{delivery_id}`, so a
 * descending query lists a webhook's attempts newest first; beside them `EVENT#{event_id}` marks
 * an event already fanned out to the webhook.
 */
const pkOf = (webhookId: string) => `WEBHOOK#${webhookId}`;
const fanOutKey = (webhookId: string, eventId: string) => ({ pk: pkOf(webhookId), sk: `EVENT#${eventId}` });
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export class DynamoDeliveryStore implements DeliveryStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME'), private readonly clock: () => Date = () => new Date()) {}

  async claimFanOut(webhookId: string, eventId: string, now: Date): Promise<boolean> {
    try {
      await dynamo().send(new PutCommand({
        TableName: this.tableName,
        Item: { ...fanOutKey(webhookId, eventId), type: 'webhook_fan_out', expires_at: epochSeconds(now) + FAN_OUT_MEMORY_DAYS * 86_400 },
        // An expired marker counts as absent (TTL deletion is lazy, or missing locally).
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': epochSeconds(now) },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async releaseFanOut(webhookId: string, eventId: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.tableName, Key: fanOutKey(webhookId, eventId) }));
  }

  async record(attempt: DeliveryAttempt): Promise<void> {
    const expiresAt = epochSeconds(new Date(attempt.attempted_at)) + DELIVERY_RETENTION_DAYS * 86_400;
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { pk: pkOf(attempt.webhook_id), sk: `ATTEMPT#${attempt.attempted_at}#${attempt.delivery_id}`, type: 'webhook_delivery', expires_at: expiresAt, ...attempt },
    }));
  }

  async list(webhookId: string, limit: number, cursor?: string): Promise<Page<DeliveryAttempt>> {
    const pk = pkOf(webhookId);
    const page = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      // TTL deletion is lazy in AWS and absent locally: expired attempts are skipped here.
      FilterExpression: 'expires_at > :now',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': 'ATTEMPT#', ':now': epochSeconds(this.clock()) },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, { pk }),
    }));
    return { items: (page.Items ?? []).map(toAttempt), nextCursor: encodeCursor(page.LastEvaluatedKey) };
  }
}

function toAttempt(item: Record<string, unknown>): DeliveryAttempt {
  const { pk: _pk, sk: _sk, type: _type, expires_at: _expires, ...attempt } = item;
  return attempt as unknown as DeliveryAttempt;
}
