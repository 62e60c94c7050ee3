/**
 * The idempotency store and the paged query against a recording DynamoDB client: what each call
 * sends (keys, lease and expiry times, conditions), how it reads the answers (expired records,
 * stored responses, pages), and which failures it absorbs. The conditions themselves are
 * exercised against the emulator in test/integration.
 */

import { gunzipSync } from 'node:zlib';

type Sent = { name: string; input: Record<string, any> };

class RecordingClient {
  readonly sent: Sent[] = [];
  readonly answers: (Record<string, unknown> | Error)[] = [];

  async send(command: { constructor: { name: string }; input: Record<string, any> }) {
    this.sent.push({ name: command.constructor.name, input: command.input });
    checkExpressionBindings(command.input);
    const answer = this.answers.shift() ?? {};
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

/**
 * DynamoDB refuses a request whose expressions use a `#name` or `:value` it does not define, or
 * that defines one they do not use (a ValidationException); the recording client refuses it too.
 */
function checkExpressionBindings(input: Record<string, any>): void {
  const text = ['KeyConditionExpression', 'ConditionExpression', 'UpdateExpression', 'FilterExpression', 'ProjectionExpression'].map((k) => input[k] ?? '').join(' ');
  for (const [prefix, field] of [['#', 'ExpressionAttributeNames'], [':', 'ExpressionAttributeValues']] as const) {
    const used = new Set(text.match(new RegExp(`${prefix}[A-Za-z0-9_]+`, 'g')) ?? []);
    const defined = new Set(Object.keys(input[field] ?? {}));
    const undefinedOnes = [...used].filter((n) => !defined.has(n));
    const unused = [...defined].filter((n) => !used.has(n));
    if (undefinedOnes.length > 0 || unused.length > 0) {
      throw Object.assign(new Error(`${field}: undefined ${undefinedOnes.join(', ') || '-'}; unused ${unused.join(', ') || '-'}`), { name: 'ValidationException' });
    }
  }
}

let mockClient = new RecordingClient();
jest.mock('../../shared/adapters/aws-clients', () => ({ dynamo: () => mockClient }));

const { CLAIM_LEASE_MS, DynamoIdempotencyStore, IDEMPOTENCY_TTL_SECONDS } = require('../../shared/adapters/idempotency-store') as typeof import('../../shared/adapters/idempotency-store');
const { queryAll } = require('../../shared/adapters/query-all') as typeof import('../../shared/adapters/query-all');

const NOW = new Date('2026-11-26T10:00:00.750Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const KEY = { pk: 'IDEMPOTENCY#acct_1', sk: 'KEY#k-1' };
const conditionFailed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });

beforeEach(() => { mockClient = new RecordingClient(); });

describe('idempotency claims', () => {
  it('claims a key for 30 s, remembered for 24 h, unless a live claim or record holds it', async () => {
    expect([CLAIM_LEASE_MS, IDEMPOTENCY_TTL_SECONDS]).toEqual([30_000, 86_400]);
    const store = new DynamoIdempotencyStore('table');
    expect(await store.claim('acct_1', 'k-1', 'hash-1', NOW)).toBe(true);
    const [{ name, input }] = mockClient.sent as [Sent];
    expect(name).toBe('PutCommand');
    expect(input.TableName).toBe('table');
    expect(input.Item).toEqual({
      ...KEY, entity: 'idempotency_key', request_hash: 'hash-1', state: 'in_progress',
      lease_until: NOW.getTime() + 30_000, expires_at: NOW_S + 86_400,
    });
    // Free, expired, or an abandoned claim (its lease past): whole seconds for the TTL, milliseconds for the lease.
    expect(input.ConditionExpression).toBe('attribute_not_exists(pk) OR expires_at < :now OR (#state = :in_progress AND lease_until < :nowMs)');
    expect(input.ExpressionAttributeValues).toEqual({ ':now': NOW_S, ':nowMs': NOW.getTime(), ':in_progress': 'in_progress' });
  });

  it('answers false when the condition fails, and passes any other failure on', async () => {
    const store = new DynamoIdempotencyStore('table');
    mockClient.answers.push(conditionFailed());
    expect(await store.claim('acct_1', 'k-1', 'hash-1', NOW)).toBe(false);
    mockClient.answers.push(new Error('throttled'));
    await expect(store.claim('acct_1', 'k-1', 'hash-1', NOW)).rejects.toThrow('throttled');
  });
});

describe('idempotency records', () => {
  const store = () => new DynamoIdempotencyStore('table');

  it('finds a live record with its stored response, by a consistent read', async () => {
    const response = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1}' };
    mockClient.answers.push({ Item: { ...KEY, request_hash: 'hash-1', state: 'completed', response: JSON.stringify(response), expires_at: NOW_S } });
    expect(await store().find('acct_1', 'k-1', NOW)).toEqual({ requestHash: 'hash-1', state: 'completed', response });
    expect(mockClient.sent[0]).toEqual({ name: 'GetCommand', input: { TableName: 'table', Key: KEY, ConsistentRead: true } });
  });

  it('treats a record past its expiry as absent (TTL deletes lazily), and a claim without a response as in progress', async () => {
    mockClient.answers.push({ Item: { ...KEY, request_hash: 'h', state: 'completed', response: '{}', expires_at: NOW_S - 1 } });
    expect(await store().find('acct_1', 'k-1', NOW)).toBeUndefined();
    mockClient.answers.push({});
    expect(await store().find('acct_1', 'k-1', NOW)).toBeUndefined();
    mockClient.answers.push({ Item: { ...KEY, request_hash: 'h', state: 'in_progress', expires_at: NOW_S + 5 } });
    expect(await store().find('acct_1', 'k-1', NOW)).toEqual({ requestHash: 'h', state: 'in_progress', response: undefined });
  });

  it('completes a claim with the response serialised as it was sent, for another 24 h', async () => {
    const response = { status: 200, headers: {}, body: '{"b":1,"a":2}' };
    await store().complete('acct_1', 'k-1', 'hash-1', response, NOW);
    const [{ name, input }] = mockClient.sent as [Sent];
    expect(name).toBe('UpdateCommand');
    expect(input.Key).toEqual(KEY);
    expect(input.ConditionExpression).toBe('request_hash = :hash AND #state = :in_progress');
    expect(input.ExpressionAttributeValues).toEqual({
      ':completed': 'completed', ':in_progress': 'in_progress', ':response': JSON.stringify(response), ':hash': 'hash-1', ':exp': NOW_S + 86_400,
    });
  });

  it('keeps a response above 64 KiB gzipped, since one item holds 400 KB, and reads it back whole', async () => {
    // The serialised response is {"status":200,"body":"…"}: 24 bytes around the body.
    const sized = (bytes: number) => ({ status: 200, body: 'r'.repeat(bytes - 24) });
    expect(Buffer.byteLength(JSON.stringify(sized(65_536)))).toBe(65_536);
    await store().complete('acct_1', 'k-1', 'hash-1', sized(65_536), NOW);
    expect(mockClient.sent[0]!.input.ExpressionAttributeNames).toEqual({ '#state': 'state', '#response': 'response' });
    expect(mockClient.sent[0]!.input.ExpressionAttributeValues[':response']).toBe(JSON.stringify(sized(65_536)));

    const large = { status: 201, headers: { 'content-type': 'application/json' }, body: { rows: Array.from({ length: 5000 }, (_, i) => ({ row: i + 2, message: 'Not a number' })) } };
    await store().complete('acct_1', 'k-2', 'hash-2', large, NOW);
    const { input } = mockClient.sent[1]!;
    expect(input.ExpressionAttributeNames).toEqual({ '#state': 'state', '#response': 'response_gzip' });
    const gzipped = input.ExpressionAttributeValues[':response'] as Buffer;
    expect(gunzipSync(gzipped).toString('utf8')).toBe(JSON.stringify(large));
    expect(gzipped.length).toBeLessThan(JSON.stringify(large).length / 10);
    await store().complete('acct_1', 'k-3', 'hash-3', sized(65_537), NOW);
    expect(mockClient.sent[2]!.input.ExpressionAttributeNames['#response']).toBe('response_gzip');

    // DynamoDB hands a binary attribute back as a Uint8Array.
    mockClient.answers.push({ Item: { ...KEY, request_hash: 'hash-2', state: 'completed', response_gzip: new Uint8Array(gzipped), expires_at: NOW_S } });
    expect(await store().find('acct_1', 'k-2', NOW)).toEqual({ requestHash: 'hash-2', state: 'completed', response: large });
  });

  it('releases only its own claim, and takes a claim already gone as released', async () => {
    await store().release('acct_1', 'k-1', 'hash-1');
    expect(mockClient.sent[0]).toMatchObject({ name: 'DeleteCommand', input: { Key: KEY, ExpressionAttributeValues: { ':hash': 'hash-1', ':in_progress': 'in_progress' } } });
    mockClient.answers.push(conditionFailed());
    await expect(store().release('acct_1', 'k-1', 'hash-1')).resolves.toBeUndefined();
    mockClient.answers.push(new Error('network'));
    await expect(store().release('acct_1', 'k-1', 'hash-1')).rejects.toThrow('network');
  });
});

describe('a query across pages', () => {
  it('follows LastEvaluatedKey until the last page, keeping every item in order', async () => {
    mockClient.answers.push({ Items: [{ n: 1 }, { n: 2 }], LastEvaluatedKey: { pk: 'p', sk: '2' } }, { Items: [], LastEvaluatedKey: { pk: 'p', sk: '3' } }, { Items: [{ n: 3 }] });
    const items = await queryAll({ TableName: 'table', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'p' } });
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(mockClient.sent.map((s) => s.input.ExclusiveStartKey)).toEqual([undefined, { pk: 'p', sk: '2' }, { pk: 'p', sk: '3' }]);
    expect(mockClient.sent.every((s) => s.name === 'QueryCommand' && s.input.KeyConditionExpression === 'pk = :pk')).toBe(true);
  });

  it('answers an empty list for a page without items', async () => {
    mockClient.answers.push({});
    expect(await queryAll({ TableName: 'table' })).toEqual([]);
  });
});
