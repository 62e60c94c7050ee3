import { UpdateCommand } from './dynamo-commands';
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
  /** The map attribute the job's own fields (status, lease, updated_at) sit in, when not at the item's top level. */
  nestedIn?: string;
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

/** The lease still held by this owner, or still the lapsed one a sweeper saw (`at` prefixes the job's fields). */
const holderCondition = (holder: LeaseHolder, at: string): Condition => ('owner' in holder
  ? { expression: `${at}lease.#owner = :owner`, names: { '#owner': 'owner' }, values: { ':owner': holder.owner } }
  : { expression: `${at}lease.expires_at = :seen`, values: { ':seen': holder.seen.expires_at } });

/** Prefixes each of `fields` with the map attribute the job's fields sit in. */
const nested = (fields: Record<string, unknown>, map: string | undefined) => (map
  ? Object.fromEntries(Object.entries(fields).map(([name, value]) => [`${map}.${name}`, value]))
  : fields);

/**
 * The one DynamoDB adapter of the job-record life cycle: every change is a conditional update on the
 * job's own item, so of two workers (or a worker and a sweep) one wins and the other is told so.
 */
export class DynamoLeasedJobRecords<T> implements LeasedJobRecords<T> {
  /** `#status` (and `lease…` after it) as the job's own fields, with the names to pass for it. */
  private readonly at: string;
  private readonly atNames: Record<string, string>;

  constructor(private readonly table: string, private readonly kind: LeasedJobKind<T>) {
    this.at = kind.nestedIn ? '#nest.' : '';
    this.atNames = kind.nestedIn ? { '#nest': kind.nestedIn } : {};
  }

  claim(accountId: string, id: string, lease: JobLease, now: Date, fields: Record<string, unknown> = {}): Promise<T | undefined> {
    return this.lease(accountId, id, lease, now, fields, `${this.at}#status = :waiting`, { ':waiting': this.kind.waiting });
  }

  takeOver(accountId: string, id: string, seen: JobLease | null | undefined, lease: JobLease, now: Date, fields: Record<string, unknown> = {}): Promise<T | undefined> {
    return this.lease(accountId, id, lease, now, fields, `${this.at}#status = :running AND ${this.at}lease.expires_at = :seen`, { ':running': this.kind.running, ':seen': seen?.expires_at ?? '' });
  }

  async renew(accountId: string, id: string, owner: string, expiresAt: string, now: Date, fields: Record<string, unknown> = {}): Promise<boolean> {
    const sortKey = leasedIndexKeys(this.kind.leasedPartition, expiresAt, accountId, id).gsi1sk;
    const own = nested({ ...fields, 'lease.expires_at': expiresAt, updated_at: now.toISOString() }, this.kind.nestedIn);
    return this.update(accountId, id, { ...own, gsi1sk: sortKey }, '', holderCondition({ owner }, this.at));
  }

  async finish(accountId: string, id: string, fields: Record<string, unknown>, now: Date, holder?: LeaseHolder): Promise<boolean> {
    const own = nested({ ...fields, lease: null, updated_at: now.toISOString() }, this.kind.nestedIn);
    return this.update(accountId, id, own, ' REMOVE gsi1pk, gsi1sk', holder && holderCondition(holder, this.at));
  }

  async listExpiredLeases(now: Date): Promise<T[]> {
    return (await queryExpiredLeases(this.table, this.kind.leasedPartition, now)).map((item) => this.kind.toRecord(item));
  }

  async listRunning(): Promise<T[]> {
    const items = await queryAll({ TableName: this.table, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': this.kind.leasedPartition } });
    return items.map((item) => this.kind.toRecord(item));
  }

  private async lease(accountId: string, id: string, lease: JobLease, now: Date, fields: Record<string, unknown>, condition: string, values: Record<string, unknown>): Promise<T | undefined> {
    const index = leasedIndexKeys(this.kind.leasedPartition, lease.expires_at, accountId, id);
    const set = setClauses({ ...nested({ ...fields, status: this.kind.running, lease, updated_at: now.toISOString() }, this.kind.nestedIn), ...index });
    try {
      const { Attributes } = await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: this.kind.key(accountId, id),
        UpdateExpression: `SET ${set.clauses.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status', ...this.atNames, ...set.names },
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
        ConditionExpression: `${this.at}#status = :running${holder ? ` AND ${holder.expression}` : ''}`,
        ExpressionAttributeNames: { '#status': 'status', ...this.atNames, ...holder?.names, ...set.names },
        ExpressionAttributeValues: { ':running': this.kind.running, ...holder?.values, ...set.values },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
