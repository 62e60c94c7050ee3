import { randomUUID } from 'node:crypto';
import { startTestApp } from '../helpers/local-app';
import { LeasedUsageCounter } from '../../shared/adapters/usage-counter';
import { dynamo } from '../../shared/adapters/aws-clients';
import { hourWindow, type HourWindow } from '../../shared/domain/tiers';
import { waitFor } from '../helpers/wait-for';

/**
 * Quota leasing with several counters on one table: each counter stands for one Lambda instance
 * (its own leases and in-memory counts), as many run at once in AWS.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp({ backgroundWorkers: false });
});

afterAll(async () => {
  await app?.stop();
});

const instances = (n: number) => Array.from({ length: n }, (_, shard) => new LeasedUsageCounter({ shard }));
const window = (): HourWindow => hourWindow(new Date());

/**
 * Counts the DynamoDB calls about one key's usage items once they complete (other tests' leases
 * settle meanwhile).
 */
function countCalls(key: string): { calls: () => number; restore: () => void } {
  const client = dynamo();
  const original = client.send.bind(client);
  let calls = 0;
  const spy = jest.spyOn(client, 'send').mockImplementation(((command: { input?: { Key?: { pk?: string }; ExpressionAttributeValues?: Record<string, unknown> } }, ...rest: unknown[]) => {
    const pk = command.input?.Key?.pk ?? command.input?.ExpressionAttributeValues?.[':pk'];
    const sent = (original as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    return pk === `USAGE#${key}` ? sent.then((output) => ((calls += 1), output)) : sent;
  }) as typeof client.send);
  return { calls: () => calls, restore: () => spy.mockRestore() };
}

describe('hourly quota leases across instances', () => {
  test('40 parallel requests over 4 instances on a Free limit: exactly 25 served', async () => {
    const key = `k_${randomUUID()}`;
    const counters = instances(4);
    const w = window();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => counters[i % 4]!.consume(key, w, 25)));
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
    await Promise.all(counters.map((c) => c.settleAll()));
    expect(await new LeasedUsageCounter().used(key, w, 25)).toBe(25);
  });

  test('uneven load, instances joining late: never more than the limit, and exactly the limit', async () => {
    const key = `k_${randomUUID()}`;
    const counters = instances(5);
    const w = window();
    // Instance 0 takes the first leases alone; the others arrive while it still holds units.
    const early = await Promise.all(Array.from({ length: 5 }, () => counters[0]!.consume(key, w, 25)));
    const late = await Promise.all(Array.from({ length: 60 }, (_, i) => counters[1 + (i % 4)]!.consume(key, w, 25)));
    const served = [...early, ...late].filter((r) => r.allowed).length;
    expect(served).toBe(25);
    await Promise.all(counters.map((c) => c.settleAll()));
    expect(await new LeasedUsageCounter().used(key, w, 25)).toBe(25);
  });

  test('unused quota goes back within about a second, so usage is exact once leases settle', async () => {
    const key = `k_${randomUUID()}`;
    const counters = instances(3);
    const w = window();
    for (const counter of counters) {
      for (let i = 0; i < 3; i += 1) expect((await counter.consume(key, w, 5000)).allowed).toBe(true);
    }
    const reader = new LeasedUsageCounter();
    // Leases in hand count as used until they settle.
    expect(await reader.used(key, w, 5000)).toBeGreaterThan(9);
    // The leases settle on a timer of about a second, which a loaded machine can stretch.
    await waitFor(async () => ((await reader.used(key, w, 5000)) <= 9 ? true : undefined), 'the leases to settle', 10_000);
    expect(await reader.used(key, w, 5000)).toBe(9);
  });

  test('a warm request is served from the lease with no DynamoDB call', async () => {
    const key = `k_${randomUUID()}`;
    const [counter] = instances(1);
    const w = window();
    const writes = countCalls(key);
    try {
      const first = await counter!.consume(key, w, 5000);
      expect(first).toEqual({ allowed: true, used: 1 });
      expect(writes.calls()).toBe(1);
      for (let i = 2; i <= 10; i += 1) expect(await counter!.consume(key, w, 5000)).toEqual({ allowed: true, used: i });
      expect(writes.calls()).toBe(1);
    } finally {
      writes.restore();
    }
  });

  test('unlimited keys: counted in memory, one flush per second per instance, to its own shard', async () => {
    const key = `k_${randomUUID()}`;
    const counters = instances(3);
    const w = window();
    const writes = countCalls(key);
    try {
      for (const counter of counters) {
        await Promise.all(Array.from({ length: 100 }, () => counter.consume(key, w, null)));
      }
      expect(writes.calls()).toBe(0);
      await waitFor(() => (writes.calls() >= 3 ? true : undefined), 'the flushes', 10_000);
      expect(writes.calls()).toBe(3);
    } finally {
      writes.restore();
    }
    const { Items } = await dynamo().send(new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `USAGE#${key}` },
    }));
    expect((Items ?? []).map((item) => [item.sk, item.request_count]).sort()).toEqual([0, 1, 2].map((shard) => [`HOUR#${w.id}#SHARD#${shard}`, 100]));
    expect(await new LeasedUsageCounter().used(key, w, null)).toBe(300);
  });
});
