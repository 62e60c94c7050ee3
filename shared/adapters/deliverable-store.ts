import { GetCommand, PutCommand } from './dynamo-commands';
import { setTimeout as sleep } from 'node:timers/promises';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { DynamoLeasedJobRecords } from './job-lease';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { DeliverableJob, DeliverableRef, DeliverableStore } from '../domain/deliverables/jobs';
import { isJoinable, isRunnable } from '../domain/deliverables/jobs';
import { ConflictError } from '../domain/errors';
import { newLease, type LeaseHolder } from '../domain/job-lease';

/**
 * Deliverable jobs in their account's partition (sk `DELIVERABLE#<assessment>#<id>`, `type`
 * `deliverable_job` for the stream filter), their fields in the item's `job` map. Their life cycle is
 * the one every leased job kind has (`DynamoLeasedJobRecords`, with `<assessment>#<id>` as the job's
 * id): queued they sit in gsi1 under `DELIVERABLES#open`, oldest first, for the local worker's poll;
 * running, under `DELIVERABLES#leased` by lease expiry; finishing removes them from both. Each assessment has
 * one open-job slot (sk `DELIVERABLE_OPEN#<assessment>`) naming its latest job and that job's
 * inputs: taking the slot is the conditional write that lets one of concurrent requests create.
 */
const QUEUED = 'DELIVERABLES#open';
const LEASED = 'DELIVERABLES#leased';
/** The job's id within its account for the job-record life cycle: its assessment's and its own. */
const recordIdOf = (ref: DeliverableRef) => `${ref.assessment_id}#${ref.deliverable_id}`;
const keyOf = (ref: DeliverableRef) => recordKey(ref.account_id, recordIdOf(ref));
const recordKey = (accountId: string, recordId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `DELIVERABLE#${recordId}` });
const jobOf = (item: Record<string, unknown>) => item.job as DeliverableJob;
const slotKeyOf = (job: DeliverableJob) => ({ pk: `ACCOUNT#${job.account_id}`, sk: `DELIVERABLE_OPEN#${job.assessment_id}` });
/** A slot whose job is not written this long after it was taken lost its writer: it may be taken over. */
const UNWRITTEN_SLOT_MS = 5_000;
const SLOT_POLL_MS = 50;
const SLOT_ATTEMPTS = 200;

export class DynamoDeliverableStore implements DeliverableStore {
  private readonly records: DynamoLeasedJobRecords<DeliverableJob>;

  constructor(private readonly table = requiredSetting('TABLE_NAME')) {
    this.records = new DynamoLeasedJobRecords(table, { key: recordKey, leasedPartition: LEASED, waiting: 'queued', running: 'running', nestedIn: 'job', toRecord: jobOf });
  }

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
      Item: { ...keyOf(job), type: 'deliverable_job', gsi1pk: QUEUED, gsi1sk: `${job.created_at}#${job.account_id}#${job.deliverable_id}`, job },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(ref: DeliverableRef): Promise<DeliverableJob | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.table, Key: keyOf(ref), ConsistentRead: true }));
    return Item?.type === 'deliverable_job' ? jobOf(Item) : undefined;
  }

  async claim(ref: DeliverableRef, owner: string, now: Date, leaseMs: number): Promise<DeliverableJob | undefined> {
    const seen = await this.get(ref);
    if (!seen || !isRunnable(seen, now)) return undefined;
    // Only the job as read is claimed (queued, or the expired lease seen): of two workers, one wins.
    const lease = newLease(owner, now, leaseMs, (seen.lease?.attempt ?? 0) + 1);
    return seen.status === 'queued'
      ? this.records.claim(ref.account_id, recordIdOf(ref), lease, now)
      : this.records.takeOver(ref.account_id, recordIdOf(ref), seen.lease, lease, now);
  }

  finish(ref: DeliverableRef, holder: LeaseHolder, outcome: { files: DeliverableJob['files'] } | { error: { code: string; detail: string } }, now: Date): Promise<boolean> {
    const fields = 'files' in outcome ? { status: 'succeeded', files: outcome.files, error: null } : { status: 'failed', files: [], error: outcome.error };
    return this.records.finish(ref.account_id, recordIdOf(ref), fields, now, holder);
  }

  async listOpen(): Promise<DeliverableJob[]> {
    const queued = await queryAll({ TableName: this.table, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :queued', ExpressionAttributeValues: { ':queued': QUEUED } });
    return [...queued.map(jobOf), ...await this.records.listRunning()];
  }
}
