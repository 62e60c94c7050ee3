import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { DeliverableJob, DeliverableRef, DeliverableStore } from '../domain/deliverables/jobs';
import { isJoinable, isRunnable } from '../domain/deliverables/jobs';
import { ConflictError } from '../domain/errors';
import { newLease } from '../domain/job-lease';

/**
 * Deliverable jobs in their account's partition (sk `DELIVERABLE#<assessment>#<id>`, `type`
 * `deliverable_job` for the stream filter). While open they sit in gsi1 under `DELIVERABLES#open`,
 * oldest first, for the local worker's poll; finishing removes them from it. Each assessment has
 * one open-job slot (sk `DELIVERABLE_OPEN#<assessment>`) naming its latest job and that job's
 * inputs: taking the slot is the conditional write that lets one of concurrent requests create.
 */
const OPEN = 'DELIVERABLES#open';
const keyOf = (ref: DeliverableRef) => ({ pk: `ACCOUNT#${ref.account_id}`, sk: `DELIVERABLE#${ref.assessment_id}#${ref.deliverable_id}` });
const slotKeyOf = (job: DeliverableJob) => ({ pk: `ACCOUNT#${job.account_id}`, sk: `DELIVERABLE_OPEN#${job.assessment_id}` });
/** A slot whose job is not written this long after it was taken lost its writer: it may be taken over. */
const UNWRITTEN_SLOT_MS = 5_000;
const SLOT_POLL_MS = 50;
const SLOT_ATTEMPTS = 200;

export class DynamoDeliverableStore implements DeliverableStore {
  constructor(private readonly table = requiredSetting('TABLE_NAME')) {}

  async open(job: DeliverableJob, inputs: string, now: Date): Promise<DeliverableJob> {
    let replacing: string | undefined;
    for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt++) {
      if (await this.takeSlot(job, inputs, replacing)) {
        await this.create(job);
        return job;
      }
      const { Item: slot } = await dynamo().send(new GetCommand({ TableName: this.table, Key: slotKeyOf(job), ConsistentRead: true }));
      if (!slot) { replacing = undefined; continue; }
      const current = await this.get({ ...job, deliverable_id: slot.deliverable_id as string });
      if (current && slot.inputs === inputs && isJoinable(current, now)) return current;
      if (!current && Date.now() - Number(slot.taken_at) < UNWRITTEN_SLOT_MS) {
        // Taken by a request that is writing its job now.
        await sleep(SLOT_POLL_MS);
        continue;
      }
      replacing = slot.deliverable_id as string;
    }
    throw new ConflictError('Deliverable jobs for this assessment are being started concurrently; retry in a few seconds.');
  }

  /** The slot, if free (or still naming `replacing`, a job that cannot be joined). */
  private async takeSlot(job: DeliverableJob, inputs: string, replacing: string | undefined): Promise<boolean> {
    try {
      await dynamo().send(new PutCommand({
        TableName: this.table,
        Item: { ...slotKeyOf(job), type: 'deliverable_slot', deliverable_id: job.deliverable_id, inputs, taken_at: Date.now() },
        ConditionExpression: replacing ? 'deliverable_id = :replacing' : 'attribute_not_exists(pk)',
        ...(replacing ? { ExpressionAttributeValues: { ':replacing': replacing } } : {}),
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  private async create(job: DeliverableJob): Promise<void> {
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
