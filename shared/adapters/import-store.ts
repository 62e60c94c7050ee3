import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { dynamo, s3 } from './aws-clients';
import { userKeyedMap } from './user-keyed-map';
import { queryAll } from './query-all';
import { leasedIndexKeys, queryExpiredLeases } from './job-lease';
import { newLease } from '../domain/job-lease';
import { requiredSetting } from '../config';
import type { ClaimLease, ImportRecord, ImportReport, ImportStore } from '../domain/assets/ports';

/**
 * Asset imports in their account's partition (sk `ASSETIMPORT#<id>`). While an upload is awaited
 * the item also sits in the sparse gsi1 partition `ASSET_IMPORTS#pending` (sort key: creation time),
 * so the local upload watcher finds pending imports with a Query. Claiming the import moves it to
 * `ASSET_IMPORTS#leased` sorted by lease expiry, so a sweeper finds imports whose worker was lost;
 * finishing removes it from both.
 */

const PENDING = 'ASSET_IMPORTS#pending';
const LEASED = 'ASSET_IMPORTS#leased';
const leaseSortKey = (expiresAt: string, accountId: string, importId: string) => leasedIndexKeys(LEASED, expiresAt, accountId, importId).gsi1sk;
const importKey = (accountId: string, importId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `ASSETIMPORT#${importId}` });

function toRecord(item: Record<string, unknown>): ImportRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, entity: _e, ...record } = item;
  return record as unknown as ImportRecord;
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as Error).name === 'ConditionalCheckFailedException';

export class DynamoImportStore implements ImportStore {
  constructor(private readonly table = requiredSetting('TABLE_NAME')) {}

  async create(record: ImportRecord): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.table,
      Item: {
        ...importKey(record.account_id, record.import_id),
        ...(record.status === 'pending' ? { gsi1pk: PENDING, gsi1sk: `${record.created_at}#${record.account_id}#${record.import_id}` } : {}),
        entity: 'asset_import',
        ...record,
        ...(record.options?.column_map ? { options: { ...record.options, column_map: userKeyedMap(record.options.column_map) } } : {}),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, importId: string): Promise<ImportRecord | undefined> {
    const result = await dynamo().send(new GetCommand({ TableName: this.table, Key: importKey(accountId, importId), ConsistentRead: true }));
    return result.Item ? toRecord(result.Item) : undefined;
  }

  async claim(accountId: string, importId: string, lease: ClaimLease & { deadline: Date }): Promise<ImportRecord | undefined> {
    return this.lease(accountId, importId, lease, 1, '#status = :pending', {
      update: ', progress = :progress, deadline = :deadline',
      values: { ':pending': 'pending', ':progress': { phase: 'validating', rows_processed: 0 }, ':deadline': lease.deadline.toISOString() },
    });
  }

  async takeOver(expired: ImportRecord, lease: ClaimLease): Promise<ImportRecord | undefined> {
    // Only the lease that was seen expired is taken over: of two sweepers, one wins.
    return this.lease(expired.account_id, expired.import_id, lease, (expired.lease?.attempt ?? 1) + 1, '#status = :processing AND lease.expires_at = :seen', {
      update: '',
      values: { ':seen': expired.lease?.expires_at ?? '' },
    });
  }

  private async lease(accountId: string, importId: string, lease: ClaimLease, attempt: number, condition: string, extra: { update: string; values: Record<string, unknown> }): Promise<ImportRecord | undefined> {
    const taken = newLease(lease.owner, lease.now, lease.leaseMs, attempt);
    const expiresAt = taken.expires_at;
    try {
      const result = await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: importKey(accountId, importId),
        UpdateExpression: `SET #status = :processing, lease = :lease, gsi1pk = :leased, gsi1sk = :sk, updated_at = :now${extra.update}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':processing': 'processing',
          ':lease': taken,
          ':leased': LEASED,
          ':sk': leaseSortKey(expiresAt, accountId, importId),
          ':now': lease.now.toISOString(),
          ...extra.values,
        },
        ReturnValues: 'ALL_NEW',
      }));
      return toRecord(result.Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async progress(accountId: string, importId: string, owner: string, progress: ImportRecord['progress'], now: Date, leaseMs: number): Promise<boolean> {
    const expiresAt = new Date(now.getTime() + leaseMs).toISOString();
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: importKey(accountId, importId),
        UpdateExpression: 'SET progress = :progress, lease.expires_at = :expires, gsi1sk = :sk, updated_at = :now',
        ConditionExpression: '#status = :processing AND lease.#owner = :owner',
        ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
        ExpressionAttributeValues: {
          ':progress': progress, ':expires': expiresAt, ':sk': leaseSortKey(expiresAt, accountId, importId), ':now': now.toISOString(),
          ':processing': 'processing', ':owner': owner,
        },
      }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async finish(accountId: string, importId: string, outcome: { report: ImportReport } | { error: { code: string; detail: string } }, now: Date, owner?: string): Promise<boolean> {
    const done = 'report' in outcome;
    // A failed import keeps the rows it got through; a complete one counts them all.
    const progress = done ? 'progress = :progress' : 'progress.phase = :phase';
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: importKey(accountId, importId),
        UpdateExpression: `SET #status = :status, report = :report, #error = :error, ${progress}, lease = :nolease, updated_at = :now REMOVE gsi1pk, gsi1sk`,
        ...(owner ? { ConditionExpression: '#status = :processing AND lease.#owner = :owner' } : {}),
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error', ...(owner ? { '#owner': 'owner' } : {}) },
        ExpressionAttributeValues: {
          ':status': done ? 'complete' : 'failed',
          ':report': done ? outcome.report : null,
          ':error': done ? null : outcome.error,
          ':nolease': null,
          ...(done ? { ':progress': { phase: 'done', rows_processed: outcome.report.total_rows } } : { ':phase': 'done' }),
          ':now': now.toISOString(),
          ...(owner ? { ':processing': 'processing', ':owner': owner } : {}),
        },
      }));
      return true;
    } catch (error) {
      if (owner && isConditionFailure(error)) return false;
      throw error;
    }
  }

  async listExpiredLeases(now: Date): Promise<ImportRecord[]> {
    return (await queryExpiredLeases(this.table, LEASED, now)).map(toRecord);
  }

  async delete(accountId: string, importId: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: importKey(accountId, importId) }));
  }

  async listPending(since: Date): Promise<ImportRecord[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk > :since',
      ExpressionAttributeValues: { ':p': PENDING, ':since': since.toISOString() },
    });
    return items.map(toRecord);
  }
}

/** Streams an uploaded file from the bucket (the import reads it twice: validate, then write). */
export class S3UploadReader {
  constructor(private readonly bucket = requiredSetting('BUCKET_NAME')) {}

  async open(key: string): Promise<Readable> {
    const result = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return result.Body as Readable;
  }
}
