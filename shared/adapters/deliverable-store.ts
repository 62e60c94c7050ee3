import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { DeliverableJob, DeliverableRef, DeliverableStore } from '../domain/deliverables/jobs';
import { isRunnable } from '../domain/deliverables/jobs';
import { newLease } from '../domain/job-lease';

/**
 * Deliverable jobs in their account's partition (sk `DELIVERABLE#<assessment>#<id>`, `type`
 * `deliverable_job` for the stream filter). While open they sit in gsi1 under `DELIVERABLES#open`,
 * oldest first, for the local worker's poll; finishing removes them from it.
 */
const OPEN = 'DELIVERABLES#open';
const keyOf = (ref: DeliverableRef) => ({ pk: `ACCOUNT#${ref.account_id}`, sk: `DELIVERABLE#${ref.assessment_id}#${ref.deliverable_id}` });

export class DynamoDeliverableStore implements DeliverableStore {
  constructor(private readonly table = requiredSetting('TABLE_NAME')) {}

  async create(job: DeliverableJob): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.table,
      Item: { ...keyOf(job), type: 'deliverable_job', gsi1pk: OPEN, gsi1sk: `${job.created_at}#${job.account_id}#${job.deliverable_id}`, job },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(ref: DeliverableRef): Promise<DeliverableJob | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.table, Key: keyOf(ref), ConsistentRead: true }));
    return Item?.type === 'deliverable_job' ? Item.job as DeliverableJob : undefined;
  }

  async claim(ref: DeliverableRef, owner: string, now: Date, leaseMs: number): Promise<DeliverableJob | undefined> {
    const seen = await this.get(ref);
    if (!seen || !isRunnable(seen, now)) return undefined;
    // Only the job as read is claimed (queued, or the expired lease seen): of two workers, one wins.
    const lease = newLease(owner, now, leaseMs, (seen.lease?.attempt ?? 0) + 1);
    try {
      const result = await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: keyOf(ref),
        UpdateExpression: 'SET #j.#status = :running, #j.lease = :lease, #j.updated_at = :now',
        ConditionExpression: seen.status === 'queued' ? '#j.#status = :queued' : '#j.#status = :running AND #j.lease.expires_at = :seen',
        ExpressionAttributeNames: { '#j': 'job', '#status': 'status' },
        ExpressionAttributeValues: {
          ':running': 'running', ':lease': lease, ':now': now.toISOString(),
          ...(seen.status === 'queued' ? { ':queued': 'queued' } : { ':seen': seen.lease!.expires_at }),
        },
        ReturnValues: 'ALL_NEW',
      }));
      return result.Attributes!.job as DeliverableJob;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  async finish(ref: DeliverableRef, owner: string, outcome: { files: DeliverableJob['files'] } | { error: { code: string; detail: string } }, now: Date): Promise<boolean> {
    const succeeded = 'files' in outcome;
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: keyOf(ref),
        UpdateExpression: 'SET #j.#status = :status, #j.files = :files, #j.#error = :error, #j.updated_at = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#j.lease.#owner = :owner AND #j.#status = :running',
        ExpressionAttributeNames: { '#j': 'job', '#status': 'status', '#error': 'error', '#owner': 'owner' },
        ExpressionAttributeValues: {
          ':status': succeeded ? 'succeeded' : 'failed', ':files': succeeded ? outcome.files : [], ':error': succeeded ? null : outcome.error,
          ':now': now.toISOString(), ':owner': owner, ':running': 'running',
        },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async listOpen(): Promise<DeliverableJob[]> {
    const items = await queryAll({ TableName: this.table, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :open', ExpressionAttributeValues: { ':open': OPEN } });
    return items.map((item) => item.job as DeliverableJob);
  }
}
