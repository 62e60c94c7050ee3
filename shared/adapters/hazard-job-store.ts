import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import type { BlobStore } from '../ports';
import { S3BlobStore } from './s3-blob-store';
import { JOB_RETENTION_SECONDS, type HazardJob, type HazardJobStatus, type HazardJobStore } from '../domain/hazards/jobs';

export const HAZARD_JOB_PREFIX = 'hazard-jobs/';
const jobKey = (accountId: string, jobId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `HAZARDJOB#${jobId}` });

/**
 * Job records in the table under the owning account (another account's job is simply not found),
 * request and result documents in the bucket (they can exceed an item's 400 KB). Status changes are conditional writes.
 */
export class DynamoHazardJobStore implements HazardJobStore {
  constructor(
    private readonly tableName = requiredSetting('TABLE_NAME'),
    private readonly blobs: BlobStore = new S3BlobStore(),
  ) {}

  async create(job: HazardJob): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...jobKey(job.account_id, job.job_id), type: 'hazard_job', ...job, expires_at: Math.floor(Date.parse(job.created_at) / 1000) + JOB_RETENTION_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, jobId: string): Promise<HazardJob | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: jobKey(accountId, jobId) }));
    if (!Item || (typeof Item.expires_at === 'number' && Item.expires_at * 1000 < Date.now())) return undefined;
    const { pk: _pk, sk: _sk, type: _type, expires_at: _exp, ...job } = Item;
    return job as HazardJob;
  }

  async transition(accountId: string, jobId: string, from: HazardJobStatus[], changes: Partial<Pick<HazardJob, 'status' | 'progress' | 'error' | 'result_key'>>, now: Date): Promise<boolean> {
    const entries = Object.entries({ ...changes, updated_at: now.toISOString() });
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: jobKey(accountId, jobId),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])) },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
          ...Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
        },
      }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || (error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async putDocument(accountId: string, jobId: string, kind: 'request' | 'result', value: unknown): Promise<string> {
    const key = `${HAZARD_JOB_PREFIX}${accountId}/${jobId}/${kind}.json`;
    await this.blobs.put(key, JSON.stringify(value), 'application/json');
    return key;
  }

  async getDocument(key: string): Promise<unknown> {
    const body = await this.blobs.get(key);
    return body ? JSON.parse(body.toString('utf8')) : undefined;
  }
}
