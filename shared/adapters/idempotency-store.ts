import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { requiredSetting } from '../config';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../ports';

/** Keys are remembered this long (`expires_at`, the table's TTL attribute). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** An `in_progress` claim older than this is abandoned (its Lambda died) and may be taken over. */
export const CLAIM_LEASE_MS = 30_000;
/**
 * One item holds 400 KB, and a first response can be larger (an import report lists up to 1,000
 * rows, twice): a response past this size is kept gzipped (`response_gzip`, binary), as text below it.
 */
const PLAIN_RESPONSE_MAX_BYTES = 64 * 1024;

const keyOf = (accountId: string, key: string) => ({ pk: `IDEMPOTENCY#${accountId}`, sk: `KEY#${key}` });
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async claim(accountId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
    try {
      await dynamo().send(new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keyOf(accountId, key),
          entity: 'idempotency_key',
          request_hash: requestHash,
          state: 'in_progress',
          lease_until: now.getTime() + CLAIM_LEASE_MS,
          expires_at: epochSeconds(now) + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now OR (#state = :in_progress AND lease_until < :nowMs)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': epochSeconds(now), ':nowMs': now.getTime(), ':in_progress': 'in_progress' },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async find(accountId: string, key: string, now: Date): Promise<IdempotencyRecord | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: keyOf(accountId, key), ConsistentRead: true }));
    if (!Item || Number(Item.expires_at) < epochSeconds(now)) return undefined;
    return {
      requestHash: Item.request_hash as string,
      state: Item.state as IdempotencyRecord['state'],
      response: storedResponse(Item),
    };
  }

  async complete(accountId: string, key: string, requestHash: string, response: StoredResponse, now: Date): Promise<void> {
    const text = JSON.stringify(response);
    const gzipped = Buffer.byteLength(text) > PLAIN_RESPONSE_MAX_BYTES;
    await dynamo().send(new UpdateCommand({
      TableName: this.tableName,
      Key: keyOf(accountId, key),
      // Serialised as is, so a replay is byte-for-byte the first response.
      UpdateExpression: 'SET #state = :completed, #response = :response, expires_at = :exp REMOVE lease_until',
      ConditionExpression: 'request_hash = :hash AND #state = :in_progress',
      ExpressionAttributeNames: { '#state': 'state', '#response': gzipped ? 'response_gzip' : 'response' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':in_progress': 'in_progress',
        ':response': gzipped ? gzipSync(text) : text,
        ':hash': requestHash,
        ':exp': epochSeconds(now) + IDEMPOTENCY_TTL_SECONDS,
      },
    }));
  }

  async release(accountId: string, key: string, requestHash: string): Promise<void> {
    try {
      await dynamo().send(new DeleteCommand({
        TableName: this.tableName,
        Key: keyOf(accountId, key),
        ConditionExpression: 'request_hash = :hash AND #state = :in_progress',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':hash': requestHash, ':in_progress': 'in_progress' },
      }));
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }
}

function storedResponse(item: Record<string, unknown>): StoredResponse | undefined {
  if (item.response_gzip instanceof Uint8Array) return JSON.parse(gunzipSync(item.response_gzip).toString('utf8')) as StoredResponse;
  return typeof item.response === 'string' ? JSON.parse(item.response) as StoredResponse : undefined;
}
