/**
 * The single DynamoDB table's key schema, read by the CDK stack and by the local bootstrap so
 * both create the same table. Items are keyed `pk`/`sk`; overloaded GSIs serve list queries
 * (no Scan anywhere), gsi3 by place (geohash cell); `expires_at` (epoch seconds) is the TTL attribute — readers also ignore
 * expired items themselves, since TTL deletion is lazy in AWS and absent in the emulator.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

export type GlobalIndexName = (typeof TABLE_SCHEMA.globalIndexes)[number]['name'];

/** Queue names shared by the stack and the local emulator bootstrap. */
export const QUEUES = {
  events: 'events',
  eventsDeadLetter: 'events-dlq',
} as const;
