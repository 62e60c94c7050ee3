import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { queryAll } from './query-all';
import type { JobLease, LeaseHolder, LeasedJobRecords } from '../domain/job-lease';

/**
 * Leased jobs of one kind sit in a sparse gsi1 partition (`<KIND>#leased`) sorted by lease expiry,
 * so a sweeper finds the jobs whose worker was lost with one Query; ending a job removes the keys.
 */
export function leasedIndexKeys(partition: string, expiresAt: string, accountId: string, jobId: string): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: partition, gsi1sk: `${expiresAt}#${accountId}#${jobId}` };
}

/** The items of `partition` whose lease expired before `now`, soonest expired first. */
export function queryExpiredLeases(table: string, partition: string, now: Date): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: table,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p AND gsi1sk < :now',
    ExpressionAttributeValues: { ':p': partition, ':now': now.toISOString() },
  });
}

/** How one job kind keeps its records: item keys, leased index partition, the statuses it moves between. */
export interface LeasedJobKind<T> {
  key(accountId: string, id: string): { pk: string; sk: string };
  leasedPartition: string;
  /** The status a job waits in before its first claim, and the one it runs in. */
  waiting: string;
  running: string;
  toRecord(item: Record<string, unknown>): T;
}

/** `SET` clauses for `fields`, whose names may be paths (`progress.phase`), with their names and values. */
function setClauses(fields: Record<string, unknown>): { clauses: string[]; names: Record<string, string>; values: Record<string, unknown> } {
  const entries = Object.entries(fields);
  return {
    clauses: entries.map(([name], i) => `${name.split('.').map((_, j) => `#f${i}_${j}`).join('.')} = :f${i}`),
    names: Object.fromEntries(entries.flatMap(([name], i) => name.split('.').map((part, j) => [`#f${i}_${j}`, part]))),
    values: Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
  };
}

interface Condition {
  expression: string;
  names?: Record<string, string>;
  values: Record<string, unknown>;
}

/** The lease still held by this owner, or still the lapsed one a sweeper saw. */
const holderCondition = (holder: LeaseHolder): Condition => ('owner' in holder
  ? { expression: 'lease.#owner = :owner', names: { '#owner': 'owner' }, values: { ':owner': holder.owner } }
  : { expression: 'lease.expires_at = :seen', values: { ':seen': holder.seen.expires_at } });

/**
 * The one DynamoDB adapter of the job-record life cycle: every change is a conditional update on the
 * job's own item, so of two workers (or a worker and a sweep) one wins and the other is told so.
 */
export class DynamoLeasedJobRecords<T> implements LeasedJobRecords<T> {
  constructor(private readonly table: string, private readonly kind: LeasedJobKind<T>) {}

  claim(accountId: string, id: string, lease: JobLease, now: Date, fields: Record<string, unknown> = {}): Promise<T | undefined> {
    return this.lease(accountId, id, lease, now, fields, '#status = :waiting', { ':waiting': this.kind.waiting });
  }

  takeOver(accountId: string, id: string, seen: JobLease | null | undefined, lease: JobLease, now: Date, fields: Record<string, unknown> = {}): Promise<T | undefined> {
    return this.lease(accountId, id, lease, now, fields, '#status = :running AND lease.expires_at = :seen', { ':running': this.kind.running, ':seen': seen?.expires_at ?? '' });
  }

  async renew(accountId: string, id: string, owner: string, expiresAt: string, now: Date, fields: Record<string, unknown> = {}): Promise<boolean> {
    const sortKey = leasedIndexKeys(this.kind.leasedPartition, expiresAt, accountId, id).gsi1sk;
    return this.update(accountId, id, { ...fields, 'lease.expires_at': expiresAt, gsi1sk: sortKey, updated_at: now.toISOString() }, '', holderCondition({ owner }));
  }

  async finish(accountId: string, id: string, fields: Record<string, unknown>, now: Date, holder?: LeaseHolder): Promise<boolean> {
    return this.update(accountId, id, { ...fields, lease: null, updated_at: now.toISOString() }, ' REMOVE gsi1pk, gsi1sk', holder && holderCondition(holder));
  }

  async listExpiredLeases(now: Date): Promise<T[]> {
    return (await queryExpiredLeases(this.table, this.kind.leasedPartition, now)).map((item) => this.kind.toRecord(item));
  }

  private async lease(accountId: string, id: string, lease: JobLease, now: Date, fields: Record<string, unknown>, condition: string, values: Record<string, unknown>): Promise<T | undefined> {
    const index = leasedIndexKeys(this.kind.leasedPartition, lease.expires_at, accountId, id);
    const set = setClauses({ ...fields, status: this.kind.running, lease, ...index, updated_at: now.toISOString() });
    try {
      const { Attributes } = await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: this.kind.key(accountId, id),
        UpdateExpression: `SET ${set.clauses.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status', ...set.names },
        ExpressionAttributeValues: { ...values, ...set.values },
        ReturnValues: 'ALL_NEW',
      }));
      return this.kind.toRecord(Attributes!);
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  /** Sets `fields` on a running job (held by `holder`, when given); false when it is not. */
  private async update(accountId: string, id: string, fields: Record<string, unknown>, removal: string, holder: Condition | undefined): Promise<boolean> {
    const set = setClauses(fields);
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: this.kind.key(accountId, id),
        UpdateExpression: `SET ${set.clauses.join(', ')}${removal}`,
        ConditionExpression: holder ? `#status = :running AND ${holder.expression}` : '#status = :running',
        ExpressionAttributeNames: { '#status': 'status', ...holder?.names, ...set.names },
        ExpressionAttributeValues: { ':running': this.kind.running, ...holder?.values, ...set.values },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
