import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { dynamo, s3 } from './aws-clients';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { ImportRecord, ImportReport, ImportStore } from '../domain/assets/ports';

/**
 * Asset imports in their account's partition (sk `ASSETIMPORT#<id>`). While an upload is awaited
 * the item also sits in the sparse gsi1 partition `ASSET_IMPORTS#pending` (sort key: creation time),
 * so the local upload watcher finds pending imports with a Query; claiming the import removes it.
 */

const PENDING = 'ASSET_IMPORTS#pending';
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
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, importId: string): Promise<ImportRecord | undefined> {
    const result = await dynamo().send(new GetCommand({ TableName: this.table, Key: importKey(accountId, importId), ConsistentRead: true }));
    return result.Item ? toRecord(result.Item) : undefined;
  }

  async claim(accountId: string, importId: string, now: Date): Promise<ImportRecord | undefined> {
    try {
      const result = await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: importKey(accountId, importId),
        UpdateExpression: 'SET #status = :processing, progress = :progress, updated_at = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':processing': 'processing', ':pending': 'pending', ':progress': { phase: 'validating', rows_processed: 0 }, ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }));
      return toRecord(result.Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async progress(accountId: string, importId: string, progress: ImportRecord['progress'], now: Date): Promise<void> {
    await dynamo().send(new UpdateCommand({
      TableName: this.table,
      Key: importKey(accountId, importId),
      UpdateExpression: 'SET progress = :progress, updated_at = :now',
      ExpressionAttributeValues: { ':progress': progress, ':now': now.toISOString() },
    }));
  }

  async finish(accountId: string, importId: string, outcome: { report: ImportReport } | { error: { code: string; detail: string } }, now: Date): Promise<void> {
    const done = 'report' in outcome;
    // A failed import keeps the rows it got through; a complete one counts them all.
    const progress = done ? 'progress = :progress' : 'progress.phase = :phase';
    await dynamo().send(new UpdateCommand({
      TableName: this.table,
      Key: importKey(accountId, importId),
      UpdateExpression: `SET #status = :status, report = :report, #error = :error, ${progress}, updated_at = :now REMOVE gsi1pk, gsi1sk`,
      ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
      ExpressionAttributeValues: {
        ':status': done ? 'complete' : 'failed',
        ':report': done ? outcome.report : null,
        ':error': done ? null : outcome.error,
        ...(done ? { ':progress': { phase: 'done', rows_processed: outcome.report.total_rows } } : { ':phase': 'done' }),
        ':now': now.toISOString(),
      },
    }));
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
