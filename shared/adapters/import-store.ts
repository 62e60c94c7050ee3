import { DeleteCommand, GetCommand, PutCommand } from './dynamo-commands';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from './s3-commands';
import { dynamo, s3 } from './aws-clients';
import { userKeyedMap } from './user-keyed-map';
import { queryAll } from './query-all';
import { DynamoLeasedJobRecords } from './job-lease';
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
const importKey = (accountId: string, importId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `ASSETIMPORT#${importId}` });

function toRecord(item: Record<string, unknown>): ImportRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, entity: _e, ...record } = item;
  return record as unknown as ImportRecord;
}

export class DynamoImportStore implements ImportStore {
  private readonly records: DynamoLeasedJobRecords<ImportRecord>;

  constructor(private readonly table = requiredSetting('TABLE_NAME')) {
    this.records = new DynamoLeasedJobRecords(table, { key: importKey, leasedPartition: LEASED, waiting: 'pending', running: 'processing', toRecord });
  }

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
    return this.records.claim(accountId, importId, newLease(lease.owner, lease.now, lease.leaseMs), lease.now, {
      progress: { phase: 'validating', rows_processed: 0 }, deadline: lease.deadline.toISOString(),
    });
  }

  async takeOver(expired: ImportRecord, lease: ClaimLease): Promise<ImportRecord | undefined> {
    // Only the lease that was seen expired is taken over: of two sweepers, one wins.
    const taken = newLease(lease.owner, lease.now, lease.leaseMs, (expired.lease?.attempt ?? 1) + 1);
    return this.records.takeOver(expired.account_id, expired.import_id, expired.lease, taken, lease.now);
  }

  async progress(accountId: string, importId: string, owner: string, progress: ImportRecord['progress'], now: Date, leaseMs: number): Promise<boolean> {
    return this.records.renew(accountId, importId, owner, new Date(now.getTime() + leaseMs).toISOString(), now, { progress });
  }

  async finish(accountId: string, importId: string, outcome: { report: ImportReport } | { error: { code: string; detail: string } }, now: Date, owner?: string): Promise<boolean> {
    // A failed import keeps the rows it got through; a complete one counts them all.
    const fields = 'report' in outcome
      ? { status: 'complete', report: outcome.report, error: null, progress: { phase: 'done', rows_processed: outcome.report.total_rows } }
      : { status: 'failed', report: null, error: outcome.error, 'progress.phase': 'done' };
    return this.records.finish(accountId, importId, fields, now, owner === undefined ? undefined : { owner });
  }

  listExpiredLeases(now: Date): Promise<ImportRecord[]> {
    return this.records.listExpiredLeases(now);
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
