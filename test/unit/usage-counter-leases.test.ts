import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The leased usage counter against an in-memory table that applies DynamoDB's update semantics
 * for the expressions it sends (ADD and SET, the `attribute_not_exists(x) OR x <= :v` condition,
 * consistent Get and a begins_with Query). Limits are checked as a caller sees them: how many
 * requests are served, with one instance or two sharing the table, and what the item holds after
 * the leases settle.
 */

type Item = Record<string, unknown>;

class MemoryTable {
  readonly items = new Map<string, Item>();
  readonly sent: { name: string; input: Record<string, unknown> }[] = [];
  failNext: Error | undefined;
  /** Runs after each call is answered (a clock moved while a write was in flight). */
  afterSend: (() => void) | undefined;
  /** The highest `granted` any item has held. */
  peakGranted = 0;

  key(k: { pk: unknown; sk: unknown }) { return `${String(k.pk)}|${String(k.sk)}`; }

  async send(command: { constructor: { name: string }; input: Record<string, unknown> }): Promise<Record<string, unknown>> {
    this.sent.push({ name: command.constructor.name, input: command.input });
    if (this.failNext) { const error = this.failNext; this.failNext = undefined; throw error; }
    const input = command.input as Record<string, any>;
    if (command instanceof GetCommand) return { Item: this.items.get(this.key(input.Key)) };
    if (command instanceof QueryCommand) {
      const pk = input.ExpressionAttributeValues[':pk'];
      const prefix = input.ExpressionAttributeValues[':prefix'];
      return { Items: [...this.items.values()].filter((i) => i.pk === pk && String(i.sk).startsWith(prefix)) };
    }
    if (command instanceof UpdateCommand) {
      const answer = this.update(input);
      this.afterSend?.();
      return answer;
    }
    throw new Error(`unexpected ${command.constructor.name}`);
  }

  private update(input: Record<string, any>) {
    const id = this.key(input.Key);
    const current = this.items.get(id);
    const values = input.ExpressionAttributeValues as Record<string, number>;
    if (input.ConditionExpression) {
      const m = /^attribute_not_exists\((\w+)\) OR (\w+) <= (:\w+)$/.exec(input.ConditionExpression)!;
      expect(m).not.toBeNull();
      const ok = current?.[m[1]!] === undefined || Number(current[m[2]!]) <= values[m[3]!]!;
      if (!ok) throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    }
    const next: Item = { ...(current ?? { ...input.Key }) };
    const [, add = '', set = ''] = /^(?:ADD (.*?))?(?: ?SET (.*))?$/.exec(input.UpdateExpression)!;
    for (const part of add.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [name, value] = part.split(' ') as [string, string];
      next[name] = Number(next[name] ?? 0) + values[value]!;
    }
    for (const part of set.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [name, value] = part.split(' = ') as [string, string];
      next[name] = values[value];
    }
    this.items.set(id, next);
    this.peakGranted = Math.max(this.peakGranted, Number(next.granted ?? 0));
    return { Attributes: next };
  }
}

let mockTable = new MemoryTable();
jest.mock('../../shared/adapters/aws-clients', () => ({ dynamo: () => mockTable }));

// Required after the mock so the counter reads the table above.
const { LeasedUsageCounter } = require('../../shared/adapters/usage-counter') as typeof import('../../shared/adapters/usage-counter');
const { QUOTA_LEASE_MS, USAGE_FLUSH_MS } = require('../../shared/domain/tiers') as typeof import('../../shared/domain/tiers');

const RESET = new Date('2026-11-26T11:00:00Z');
const WINDOW = { id: '2026-11-26T10', resetAt: RESET, resetSeconds: 1800 };
const KEY = 'keyhash';
const HOUR_ITEM = `USAGE#${KEY}|HOUR#${WINDOW.id}`;
/** Puts the hour's item in the table as another instance left it. */
const seedItem = (fields: { granted: number; held: number; held_until: number }) =>
  mockTable.items.set(HOUR_ITEM, { pk: `USAGE#${KEY}`, sk: `HOUR#${WINDOW.id}`, ...fields });
const item = () => mockTable.items.get(HOUR_ITEM) as { granted: number; held: number; held_until: number; expires_at: number } | undefined;

// Every counter a test makes, settled after it: a lease's settle timer must not write into the next test's table.
const made: InstanceType<typeof LeasedUsageCounter>[] = [];
const newCounter = (options: ConstructorParameters<typeof LeasedUsageCounter>[0]) => {
  const counter = new LeasedUsageCounter(options);
  made.push(counter);
  return counter;
};

beforeEach(() => { mockTable = new MemoryTable(); });
afterEach(async () => {
  await Promise.allSettled(made.splice(0).map((c) => c.settleAll()));
});

async function serve(counter: InstanceType<typeof LeasedUsageCounter>, times: number, limit: number | null) {
  const answers = [];
  for (let i = 0; i < times; i++) answers.push(await counter.consume(KEY, WINDOW, limit));
  return answers;
}

describe('a key whose tier changes within the hour', () => {
  it('is counted under its new limit from its next request: more after an upgrade, fewer after a downgrade, none after enterprise', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    const asFree = await serve(counter, 26, 25);
    expect(asFree.filter((a) => a.allowed)).toHaveLength(25);
    expect(asFree.at(-1)).toEqual({ used: 25, allowed: false });
    // Upgraded to Pro: the 25 served stay counted, and the key is served again at once.
    expect(await counter.consume(KEY, WINDOW, 5000)).toEqual({ used: 26, allowed: true });
    // Back to a limit below what it has used: refused, with the new limit as used.
    expect(await counter.consume(KEY, WINDOW, 20)).toEqual({ used: 20, allowed: false });
    // Unlimited (Enterprise): served whatever was used before.
    expect(await counter.consume(KEY, WINDOW, null)).toMatchObject({ allowed: true });
  });
});

describe('a limited key on one instance', () => {
  it('serves exactly the limit, then refuses with the limit as used, and never grants past it', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    const answers = await serve(counter, 27, 25);
    expect(answers.filter((a) => a.allowed)).toHaveLength(25);
    expect(answers.slice(0, 25).map((a) => a.used)).toEqual([...Array(25).keys()].map((i) => i + 1));
    expect(answers.slice(25)).toEqual([{ used: 25, allowed: false }, { used: 25, allowed: false }]);
    expect(item()!.granted).toBe(25);
    expect(await counter.used(KEY, WINDOW, 25)).toBe(25);
    // Its leases settled, nothing is held any more.
    await counter.settleAll();
    expect(item()).toMatchObject({ granted: 25, held: 0 });
    // Never granted past the limit at any write, not only at the end.
    expect(mockTable.peakGranted).toBeLessThanOrEqual(25);
    // The item outlives its hour by a day, for the operator, then TTL removes it.
    expect(item()!.expires_at).toBe(RESET.getTime() / 1000 + 86_400);
  });

  it('leases a block, serves from it without a write, and gives back the unused part when it settles', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    await serve(counter, 3, 1000);
    // A first block of 10 (the initial demand; a tenth of 1,000 is more): one write for three requests.
    expect(mockTable.sent.filter((s) => s.name === 'UpdateCommand')).toHaveLength(1);
    expect(item()).toMatchObject({ granted: 10, held: 9 });
    expect(await counter.used(KEY, WINDOW, 1000)).toBe(3);
    await counter.settleAll();
    expect(item()).toMatchObject({ granted: 3, held: 0 });
    expect(await counter.used(KEY, WINDOW, 1000)).toBe(3);
    // Nothing left to settle: no further write.
    const writes = mockTable.sent.length;
    await counter.settleAll();
    expect(mockTable.sent.length).toBe(writes);
  });

  it('gives back the held units of a block it served in full when it settles', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    await serve(counter, 10, 1000);
    expect(item()).toMatchObject({ granted: 10, held: 9 });
    await counter.settleAll();
    expect(item()).toMatchObject({ granted: 10, held: 0 });
  });

  it('takes a new block once the lease has expired, doubling the demand the last block served', async () => {
    let now = RESET.getTime() - 1_800_000;
    const counter = newCounter({ tableName: 't', now: () => now });
    await serve(counter, 10, 1000);
    expect(item()).toMatchObject({ granted: 10, held: 9 });
    await serve(counter, 1, 1000);
    // The block of 10 ran out: the next is twice what it served.
    expect(item()).toMatchObject({ granted: 30, held: 19 });
    now += 1001;
    await serve(counter, 1, 1000);
    // Expired with 19 unused: they go back with the next write, which takes a block of 2 × 1 served.
    expect(item()).toMatchObject({ granted: 30 - 19 + 2, held: 1 });
    expect(await counter.used(KEY, WINDOW, 1000)).toBe(12);
  });

  it('answers a request on a key it spent with one consistent read and no write', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    await serve(counter, 10, 10);
    expect(item()).toMatchObject({ granted: 10, held: 0 });
    const before = mockTable.sent.length;
    expect(await counter.consume(KEY, WINDOW, 10)).toEqual({ used: 10, allowed: false });
    expect(mockTable.sent.slice(before).map((s) => [s.name, s.input.ConsistentRead])).toEqual([['GetCommand', true]]);
  });

  it('answers further requests on a spent key from memory for the lease time, then reads the item again', async () => {
    let now = RESET.getTime() - 1_800_000;
    const counter = newCounter({ tableName: 't', now: () => now });
    await serve(counter, 10, 10);
    await counter.settleAll();
    expect(await counter.consume(KEY, WINDOW, 10)).toEqual({ used: 10, allowed: false });
    const before = mockTable.sent.length;
    // Concurrent and sequential refusals alike: no call to the table.
    const refusals = await Promise.all(Array.from({ length: 5 }, () => counter.consume(KEY, WINDOW, 10)));
    now += QUOTA_LEASE_MS - 1;
    refusals.push(await counter.consume(KEY, WINDOW, 10));
    expect(refusals).toEqual(Array(6).fill({ used: 10, allowed: false }));
    expect(mockTable.sent.length).toBe(before);
    // Past the lease time the pool is asked again: a unit another instance gave back is served.
    now += 1;
    seedItem({ granted: 9, held: 0, held_until: 0 });
    expect(await counter.consume(KEY, WINDOW, 10)).toEqual({ used: 10, allowed: true });
    expect(mockTable.sent.length).toBeGreaterThan(before);
  });

  it('refuses at once when the only units still out on the spent pool are its own', async () => {
    // A clock that stands still: a refusal that waited for units to come back would never end.
    const now = RESET.getTime() - 1_800_000;
    const a = newCounter({ tableName: 't', now: () => now });
    const b = newCounter({ tableName: 't', now: () => now });
    await serve(a, 10, 100);
    await serve(b, 90, 100);
    await b.settleAll();
    // A's spent block of 10 still counts 9 held: its own.
    expect(item()).toMatchObject({ granted: 100, held: 9 });
    const before = mockTable.sent.length;
    expect(await a.consume(KEY, WINDOW, 100)).toEqual({ used: 100, allowed: false });
    // Its larger block is refused by the condition, then one read shows the pool spent.
    expect(mockTable.sent.slice(before).map((s) => s.name)).toEqual(['UpdateCommand', 'GetCommand']);
  });

  it.each([
    ['whose holder vanished (its units held a minute past their time)', 60_000],
    ['whose grace ends at that very millisecond', 250],
  ])('does not hold a refusal back for a lease %s', async (_case, heldAgoMs) => {
    const now = RESET.getTime() - 1_800_000;
    seedItem({ granted: 25, held: 5, held_until: now - heldAgoMs });
    // A clock that stands still: waiting for those units would never end.
    const counter = newCounter({ tableName: 't', now: () => now });
    expect(await counter.consume(KEY, WINDOW, 25)).toEqual({ used: 25, allowed: false });
    // The lease it tries first is refused by the condition; one read shows the pool spent.
    expect(mockTable.sent.map((s) => s.name)).toEqual(['UpdateCommand', 'GetCommand']);
  });

  it('serves the units its expired lease gives back after another instance drained the pool, and no more', async () => {
    let now = RESET.getTime() - 1_800_000;
    const a = newCounter({ tableName: 't', now: () => now });
    const b = newCounter({ tableName: 't', now: () => now });
    // A serves 5 of a block of 10; B takes and serves the other 90.
    expect((await serve(a, 5, 100)).every((x) => x.allowed)).toBe(true);
    expect((await serve(b, 90, 100)).every((x) => x.allowed)).toBe(true);
    await b.settleAll();
    expect(item()).toMatchObject({ granted: 100, held: 9 });
    // A's lease expires with 5 unserved: they are A's to serve (its first, larger block is refused by the condition).
    now += QUOTA_LEASE_MS + 1;
    const answers = await serve(a, 7, 100);
    expect(answers.map((x) => x.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(answers.slice(0, 5).map((x) => x.used)).toEqual([96, 97, 98, 99, 100]);
    await a.settleAll();
    expect(item()).toMatchObject({ granted: 100, held: 0 });
    expect(mockTable.peakGranted).toBe(100);
  });

  it('treats a lease as spent at the very millisecond it expires', async () => {
    let now = RESET.getTime() - 1_800_000;
    const counter = newCounter({ tableName: 't', now: () => now });
    await serve(counter, 1, 1000);
    const leases = () => mockTable.sent.filter((s) => s.name === 'UpdateCommand' && s.input.ConditionExpression).length;
    now += QUOTA_LEASE_MS - 1;
    await serve(counter, 1, 1000);
    expect(leases()).toBe(1);
    now += 1;
    await serve(counter, 1, 1000);
    expect(leases()).toBe(2);
  });

  it('serves a request queued behind the first lease\'s write from that lease, with no second write', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    // Neither finds a lease in hand when it arrives: the second waits for the first one's write.
    const answers = await Promise.all([counter.consume(KEY, WINDOW, 1000), counter.consume(KEY, WINDOW, 1000)]);
    expect(answers).toEqual([{ used: 1, allowed: true }, { used: 2, allowed: true }]);
    expect(mockTable.sent.map((s) => s.name)).toEqual(['UpdateCommand']);
    expect(item()).toMatchObject({ granted: 10, held: 9 });
  });

  it('does not serve a queued request from a lease that expired while the write was in flight', async () => {
    let now = RESET.getTime() - 1_800_000;
    const counter = newCounter({ tableName: 't', now: () => now });
    // The clock reaches the lease's expiry exactly as the lease is written.
    mockTable.afterSend = () => { now += QUOTA_LEASE_MS; mockTable.afterSend = undefined; };
    const answers = await Promise.all([counter.consume(KEY, WINDOW, 1000), counter.consume(KEY, WINDOW, 1000)]);
    expect(answers.map((a) => a.allowed)).toEqual([true, true]);
    // The second takes a block of its own; the first block's 9 unused go back with that write.
    expect(mockTable.sent.map((s) => s.name)).toEqual(['UpdateCommand', 'UpdateCommand']);
    expect(item()).toMatchObject({ granted: 10 - 9 + 2, held: 1 });
  });

  it('counts what it served while the settlement of its lease is still owed', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    await serve(counter, 3, 1000);
    mockTable.failNext = new Error('network');
    await expect(counter.settleAll()).rejects.toThrow('network');
    // The item still shows the whole block granted; the 7 unused are owed back.
    expect(item()).toMatchObject({ granted: 10, held: 9 });
    expect(await counter.used(KEY, WINDOW, 1000)).toBe(3);
    await counter.settleAll();
    expect(item()).toMatchObject({ granted: 3, held: 0 });
  });

  it('reports a failed write that is not a lost condition', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1_800_000 });
    mockTable.failNext = Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
    await expect(counter.consume(KEY, WINDOW, 25)).rejects.toThrow('throttled');
    await expect(counter.consume(KEY, WINDOW, 25)).resolves.toEqual({ used: 1, allowed: true });
  });
});

describe('a limited key on two instances', () => {
  it.each([20, 100])('serves exactly a limit of %i between them, the one that runs dry waiting for the other\'s lease to come back', async (limit) => {
    const a = newCounter({ tableName: 't' });
    const b = newCounter({ tableName: 't' });
    const allowed = { a: 0, b: 0 };
    for (let i = 0; i < limit; i++) {
      if ((await a.consume(KEY, WINDOW, limit)).allowed) allowed.a++;
      if ((await b.consume(KEY, WINDOW, limit)).allowed) allowed.b++;
    }
    expect(allowed.a + allowed.b).toBe(limit);
    expect(allowed.a).toBeGreaterThan(0);
    expect(allowed.b).toBeGreaterThan(0);
    await Promise.all([a.settleAll(), b.settleAll()]);
    expect(item()).toMatchObject({ granted: limit, held: 0 });
  }, 20_000);

  it('lets one instance use what another leased but did not serve, once that lease settles (within about a second)', async () => {
    const a = newCounter({ tableName: 't' });
    const b = newCounter({ tableName: 't' });
    expect(await a.consume(KEY, WINDOW, 100)).toMatchObject({ allowed: true });
    // A holds a block of 10 with 9 unserved; B takes everything else and then waits for those 9.
    expect(item()).toMatchObject({ granted: 10, held: 9 });
    const answers = await serve(b, 100, 100);
    expect(answers.filter((x) => x.allowed)).toHaveLength(99);
    expect(answers.at(-1)).toEqual({ used: 100, allowed: false });
    expect(await a.consume(KEY, WINDOW, 100)).toMatchObject({ allowed: false });
    await Promise.all([a.settleAll(), b.settleAll()]);
    expect(item()).toMatchObject({ granted: 100, held: 0 });
  }, 20_000);
});

describe('an unlimited key', () => {
  it('counts in memory, adds its count to its own shard, and reads the sum of the shards', async () => {
    const counter = newCounter({ tableName: 't', shard: 7 });
    expect(await serve(counter, 5, null)).toEqual(Array(5).fill({ used: 0, allowed: true }));
    expect(mockTable.sent).toEqual([]);
    expect(await counter.used(KEY, WINDOW, null)).toBe(5);
    await counter.settleAll();
    expect(mockTable.items.get(`${HOUR_ITEM}#SHARD#7`)).toMatchObject({ request_count: 5, expires_at: RESET.getTime() / 1000 + 86_400 });
    mockTable.items.set('other', { pk: `USAGE#${KEY}`, sk: `HOUR#${WINDOW.id}#SHARD#3`, request_count: 4 });
    mockTable.items.set('another hour', { pk: `USAGE#${KEY}`, sk: 'HOUR#2026-11-26T09#SHARD#3', request_count: 100 });
    expect(await counter.used(KEY, WINDOW, null)).toBe(9);
  });

  it('reads the shards with a consistent read, and writes nothing when it counted nothing', async () => {
    const counter = newCounter({ tableName: 't', shard: 2 });
    expect(await counter.used(KEY, WINDOW, null)).toBe(0);
    expect(mockTable.sent.map((s) => [s.name, s.input.ConsistentRead])).toEqual([['QueryCommand', true]]);
    await counter.settleAll();
    expect(mockTable.sent).toHaveLength(1);
  });

  it('flushes by itself a second after the first count, and retries a failed flush by itself', async () => {
    jest.useFakeTimers();
    try {
      const counter = newCounter({ tableName: 't', shard: 4 });
      const shard = () => mockTable.items.get(`${HOUR_ITEM}#SHARD#4`);
      await serve(counter, 3, null);
      await jest.advanceTimersByTimeAsync(USAGE_FLUSH_MS - 1);
      expect(shard()).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      expect(shard()).toMatchObject({ request_count: 3 });
      await serve(counter, 2, null);
      mockTable.failNext = new Error('network');
      await jest.advanceTimersByTimeAsync(USAGE_FLUSH_MS);
      expect(shard()).toMatchObject({ request_count: 3 });
      await jest.advanceTimersByTimeAsync(USAGE_FLUSH_MS);
      expect(shard()).toMatchObject({ request_count: 5 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a count whose write failed and writes it with the next flush', async () => {
    const counter = newCounter({ tableName: 't', shard: 1 });
    await serve(counter, 4, null);
    mockTable.failNext = new Error('network');
    await expect(counter.settleAll()).rejects.toThrow('network');
    expect(await counter.used(KEY, WINDOW, null)).toBe(4);
    await counter.settleAll();
    expect(mockTable.items.get(`${HOUR_ITEM}#SHARD#1`)).toMatchObject({ request_count: 4 });
  });
});

describe('the memory of past hours', () => {
  const NEXT = { id: '2026-11-26T11', resetAt: new Date('2026-11-26T12:00:00Z'), resetSeconds: 3600 };
  const remembered = (counter: InstanceType<typeof LeasedUsageCounter>) =>
    [...(counter as unknown as { states: Map<string, unknown> }).states.keys()].sort();

  it('forgets a key of an ended hour once it holds nothing, when the next key comes; keeps one that still holds units or a count', async () => {
    // Fake timers: the flush and settle timers must not fire on their own while the test looks.
    jest.useFakeTimers();
    try {
      let now = RESET.getTime() - 1_800_000;
      const counter = newCounter({ tableName: 't', now: () => now, shard: 0 });
      await serve(counter, 3, 1000); // a block of 10 in hand, settled by a timer
      await counter.consume('small', WINDOW, 5); // a block of 1 (a tenth of 5 is less): no timer, but a lease
      await counter.consume('open', WINDOW, null); // an unflushed count
      now = RESET.getTime(); // the hour has ended, to the millisecond
      await counter.consume('other', NEXT, 25);
      expect(remembered(counter)).toEqual([`${KEY}|${WINDOW.id}`, `open|${WINDOW.id}|unlimited`, `other|${NEXT.id}`, `small|${WINDOW.id}`]);
      await counter.settleAll();
      await counter.consume('third', NEXT, null);
      // Settled and flushed, the ended hour's keys are forgotten; the current hour's are kept.
      expect(remembered(counter)).toEqual([`other|${NEXT.id}`, `third|${NEXT.id}|unlimited`]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a key of an ended hour whose settlement failed: the next write carries what it owes', async () => {
    let now = RESET.getTime() - 1_800_000;
    const counter = newCounter({ tableName: 't', now: () => now });
    await serve(counter, 10, 1000); // the block of 10 served in full: 9 held to give back, nothing unused
    mockTable.failNext = new Error('network');
    await expect(counter.settleAll()).rejects.toThrow('network');
    now = RESET.getTime();
    await counter.consume('other', NEXT, 1000);
    expect(remembered(counter)).toEqual([`${KEY}|${WINDOW.id}`, `other|${NEXT.id}`]);
  });

  it('keeps a settled key until its hour has ended', async () => {
    const counter = newCounter({ tableName: 't', now: () => RESET.getTime() - 1 });
    await serve(counter, 2, 1000);
    await counter.settleAll();
    await counter.consume('other', WINDOW, 1000);
    expect(remembered(counter)).toEqual([`${KEY}|${WINDOW.id}`, `other|${WINDOW.id}`]);
  });
});
