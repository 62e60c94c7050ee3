import { queryAll } from './query-all';

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
