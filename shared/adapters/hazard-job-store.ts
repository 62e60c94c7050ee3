import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws-clients';
import { leasedIndexKeys, queryExpiredLeases } from './job-lease';
import { requiredSetting } from '../config';
import type { BlobStore } from '../ports';
import { S3BlobStore } from './s3-blob-store';
import { JOB_RETENTION_SECONDS, type HazardJob, type HazardJobStatus, type HazardJobStore } from '../domain/hazards/jobs';
import { newLease } from '../domain/job-lease';

export const HAZARD_JOB_PREFIX = 'hazard-jobs/';
const jobKey = (accountId: string, jobId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `HAZARDJOB#${jobId}` });
const LEASED = 'HAZARD_JOBS#leased';
/** Longer than the worker's 10-minute timeout, and renewed with every progress report. */
export const HAZARD_JOB_LEASE_MS = 11 * 60 * 1000;
/** This process, as the holder of the leases it takes. */
const WORKER_ID = `worker_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as Error).name === 'ConditionalCheckFailedException';

/**
 * Job records in the table under the owning account (another account's job is simply not found),
 * request and result documents in the bucket (they can exceed an item's 400 KB). Status changes are conditional writes.
 * Starting a job (→ running) takes a lease for this process, listed in the sparse gsi1 partition
 * `HAZARD_JOBS#leased` by expiry; progress renews it; the end of the job removes it. A sweeper
 * fails the running jobs whose lease expired (their worker was lost).
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
    const { pk: _pk, sk: _sk, type: _type, expires_at: _exp, gsi1pk: _g1, gsi1sk: _g2, ...job } = Item;
    return job as HazardJob;
  }

  async transition(accountId: string, jobId: string, from: HazardJobStatus[], changes: Partial<Pick<HazardJob, 'status' | 'progress' | 'error' | 'result_key'>>, now: Date): Promise<boolean> {
    const taken = newLease(WORKER_ID, now, HAZARD_JOB_LEASE_MS);
    const expiresAt = taken.expires_at;
    const lease: Record<string, unknown> = {};
    const removals: string[] = [];
    if (changes.status === 'running') {
      Object.assign(lease, { lease: taken, ...leasedIndexKeys(LEASED, expiresAt, accountId, jobId) });
    } else if (changes.status === 'succeeded' || changes.status === 'failed') {
      lease.lease = null;
      removals.push('gsi1pk', 'gsi1sk');
    } else if (changes.status === undefined && from.length === 1 && from[0] === 'running') {
      // Progress of a running job renews its lease.
      Object.assign(lease, { 'lease.expires_at': expiresAt, gsi1sk: leasedIndexKeys(LEASED, expiresAt, accountId, jobId).gsi1sk });
    }
    const entries = Object.entries({ ...changes, ...lease, updated_at: now.toISOString() });
    const path = (name: string, i: number) => name.split('.').map((_, j) => `#f${i}_${j}`).join('.');
    const names = Object.fromEntries(entries.flatMap(([name], i) => name.split('.').map((part, j) => [`#f${i}_${j}`, part])));
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: jobKey(accountId, jobId),
        UpdateExpression: `SET ${entries.map(([name], i) => `${path(name, i)} = :v${i}`).join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status', ...names },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
          ...Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
        },
      }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async listExpiredLeases(now: Date): Promise<HazardJob[]> {
    const items = await queryExpiredLeases(this.tableName, LEASED, now);
    return items.map((item) => {
      const { pk: _pk, sk: _sk, type: _type, expires_at: _exp, gsi1pk: _g1, gsi1sk: _g2, ...job } = item;
      return job as unknown as HazardJob;
    });
  }

  async failLost(job: HazardJob, error: { code: string; detail: string }, now: Date): Promise<boolean> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: jobKey(job.account_id, job.job_id),
        UpdateExpression: 'SET #status = :failed, #error = :error, lease = :none, updated_at = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :running AND lease.expires_at = :seen',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: { ':failed': 'failed', ':error': error, ':none': null, ':now': now.toISOString(), ':running': 'running', ':seen': job.lease?.expires_at ?? '' },
      }));
      return true;
    } catch (failure) {
      if (isConditionFailure(failure)) return false;
      throw failure;
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
