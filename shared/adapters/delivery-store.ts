import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { decodeCursor, encodeCursor } from './dynamo-cursor';
import { requiredSetting } from '../config';
import type { DeliveryAttempt, DeliveryMessage } from '../domain/webhooks/delivery';
import { queryAll } from './query-all';
import { DELIVERY_ERROR_CLASSES, type DeliveryErrorClass, type DeliveryStore, type Page } from '../domain/webhooks/ports';

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
const attemptKey = (webhookId: string, ref: string) => ({ pk: pkOf(webhookId), sk: `ATTEMPT#${ref}` });
/**
 * An attempt that scheduled a retry keeps the retry's message (`next_message`) and sits on this
 * gsi2 partition, sorted by due time, until the retry is made.
 */
export const PENDING_RETRY_PARTITION = 'WEBHOOK_RETRY';
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

  async record(attempt: DeliveryAttempt, retry?: DeliveryMessage): Promise<void> {
    const expiresAt = epochSeconds(new Date(attempt.attempted_at)) + DELIVERY_RETENTION_DAYS * 86_400;
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...attemptKey(attempt.webhook_id, `${attempt.attempted_at}#${attempt.delivery_id}`),
        type: 'webhook_delivery',
        expires_at: expiresAt,
        ...attempt,
        ...(retry ? { next_message: retry, gsi2pk: PENDING_RETRY_PARTITION, gsi2sk: `${retry.due_at}#${attempt.delivery_id}` } : {}),
      },
    }));
  }

  async claimRetry(webhookId: string, ref: string, now: Date, leaseMs: number): Promise<boolean> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: attemptKey(webhookId, ref),
        UpdateExpression: 'SET retry_claimed_until = :until',
        ConditionExpression: 'attribute_exists(next_message) AND (attribute_not_exists(retry_claimed_until) OR retry_claimed_until < :now)',
        ExpressionAttributeValues: { ':until': now.getTime() + leaseMs, ':now': now.getTime() },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async completeRetry(webhookId: string, ref: string): Promise<void> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: attemptKey(webhookId, ref),
        UpdateExpression: 'REMOVE next_message, gsi2pk, gsi2sk, retry_claimed_until',
        ConditionExpression: 'attribute_exists(pk)',
      }));
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async overdueRetries(dueBefore: Date): Promise<DeliveryMessage[]> {
    const items = await queryAll({
      TableName: this.tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pending AND gsi2sk < :cutoff',
      ExpressionAttributeValues: { ':pending': PENDING_RETRY_PARTITION, ':cutoff': dueBefore.toISOString() },
    });
    return items.filter((item) => item.next_message).map((item) => item.next_message as DeliveryMessage);
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
  const {
    pk: _pk, sk: _sk, type: _type, expires_at: _expires, next_message: _next, gsi2pk: _gpk, gsi2sk: _gsk, retry_claimed_until: _claim, ...attempt
  } = item;
  return { ...attempt, error: errorClassOf(attempt.error) } as unknown as DeliveryAttempt;
}

/**
 * Attempts recorded before errors were classed kept the raw network error (kept 30 days): they are
 * answered with its class, so no raw socket error leaves the table.
 */
function errorClassOf(error: unknown): DeliveryErrorClass | null {
  if (error === null || error === undefined) return null;
  const text = String(error);
  if ((DELIVERY_ERROR_CLASSES as readonly string[]).includes(text)) return text as DeliveryErrorClass;
  if (/^HTTP \d{3}/.test(text)) return 'http_status';
  if (text.startsWith('refused: ')) return 'blocked';
  if (/^DNS lookup/.test(text)) return 'dns';
  if (/timed out|ETIMEDOUT/.test(text)) return 'timeout';
  if (/TLS|SSL|CERT|EPROTO/.test(text)) return 'tls';
  return 'refused';
}
