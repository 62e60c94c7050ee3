import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { DynamoLeasedJobRecords } from './job-lease';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { BlobStore } from '../ports';
import { S3BlobStore } from './s3-blob-store';
import { JOB_RETENTION_SECONDS, type HazardJob, type HazardJobStore } from '../domain/hazards/jobs';
import { newLease } from '../domain/job-lease';

export const HAZARD_JOB_PREFIX = 'hazard-jobs/';
const jobKey = (accountId: string, jobId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `HAZARDJOB#${jobId}` });
const LEASED = 'HAZARD_JOBS#leased';
/** Queued jobs sit in this sparse gsi1 partition by creation time until claimed (the claim moves them to LEASED). */
const QUEUED = 'HAZARD_JOBS#queued';
/** Longer than the worker's 10-minute timeout, and renewed with every progress report. */
export const HAZARD_JOB_LEASE_MS = 11 * 60 * 1000;
/** This process, as the holder of the leases it takes. */
const WORKER_ID = `worker_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

function toJob(item: Record<string, unknown>): HazardJob {
  const { pk: _pk, sk: _sk, type: _type, expires_at: _exp, gsi1pk: _g1, gsi1sk: _g2, ...job } = item;
  return job as unknown as HazardJob;
}

/**
 * Job records in the table under the owning account (another account's job is simply not found),
 * request and result documents in the bucket (they can exceed an item's 400 KB). Status changes are conditional writes.
 * Starting a job (→ running) takes a lease for this process, listed in the sparse gsi1 partition
 * `HAZARD_JOBS#leased` by expiry; progress renews it; the end of the job removes it. A sweeper
 * fails the running jobs whose lease expired (their worker was lost) and starts again the jobs
 * left in `HAZARD_JOBS#queued` (their start message was lost).
 */
export class DynamoHazardJobStore implements HazardJobStore {
  private readonly records: DynamoLeasedJobRecords<HazardJob>;

  constructor(
    private readonly tableName = requiredSetting('TABLE_NAME'),
    private readonly blobs: BlobStore = new S3BlobStore(),
  ) {
    this.records = new DynamoLeasedJobRecords(tableName, { key: jobKey, leasedPartition: LEASED, waiting: 'queued', running: 'running', toRecord: toJob });
  }

  async create(job: HazardJob): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...jobKey(job.account_id, job.job_id),
        type: 'hazard_job',
        ...(job.status === 'queued' ? { gsi1pk: QUEUED, gsi1sk: `${job.created_at}#${job.account_id}#${job.job_id}` } : {}),
        ...job,
        expires_at: Math.floor(Date.parse(job.created_at) / 1000) + JOB_RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, jobId: string): Promise<HazardJob | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: jobKey(accountId, jobId) }));
    if (!Item || (typeof Item.expires_at === 'number' && Item.expires_at * 1000 < Date.now())) return undefined;
    return toJob(Item);
  }

  start(accountId: string, jobId: string, progress: number, now: Date): Promise<boolean> {
    return this.records.claim(accountId, jobId, newLease(WORKER_ID, now, HAZARD_JOB_LEASE_MS), now, { progress }).then(Boolean);
  }

  progress(accountId: string, jobId: string, progress: number, now: Date): Promise<boolean> {
    return this.records.renew(accountId, jobId, WORKER_ID, newLease(WORKER_ID, now, HAZARD_JOB_LEASE_MS).expires_at, now, { progress });
  }

  finish(accountId: string, jobId: string, outcome: Pick<HazardJob, 'result_key'> | Pick<HazardJob, 'error'>, now: Date): Promise<boolean> {
    const fields = 'result_key' in outcome ? { status: 'succeeded', progress: 1, result_key: outcome.result_key } : { status: 'failed', error: outcome.error };
    return this.records.finish(accountId, jobId, fields, now, { owner: WORKER_ID });
  }

  listExpiredLeases(now: Date): Promise<HazardJob[]> {
    return this.records.listExpiredLeases(now);
  }

  async listQueued(before: Date): Promise<HazardJob[]> {
    const items = await queryAll({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk < :before',
      ExpressionAttributeValues: { ':p': QUEUED, ':before': before.toISOString() },
    });
    return items.map(toJob).filter((job) => job.status === 'queued');
  }

  /** Fails a running job whose lease is still the lapsed one read; false if it moved on meanwhile. */
  failLost(job: HazardJob, error: { code: string; detail: string }, now: Date): Promise<boolean> {
    return job.lease ? this.records.finish(job.account_id, job.job_id, { status: 'failed', error }, now, { seen: job.lease }) : Promise.resolve(false);
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
