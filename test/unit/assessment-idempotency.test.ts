import { requestFingerprint, withIdempotency, type IdempotencyRecord, type IdempotencyStore, type StoredResponse } from '../../shared/http/idempotency';
import { HttpError } from '../../shared/http/problem';
import type { RouteRequest } from '../../shared/http/types';

/** The store contract in memory: claim is atomic (first caller wins), as the conditional put is. */
class MemoryIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  async claim(accountId: string, key: string, requestHash: string): Promise<boolean> {
    const id = `${accountId}/${key}`;
    if (this.records.has(id)) return false;
    this.records.set(id, { requestHash, state: 'in_progress' });
    return true;
  }
  async find(accountId: string, key: string) {
    return this.records.get(`${accountId}/${key}`);
  }
  async complete(accountId: string, key: string, requestHash: string, response: StoredResponse) {
    this.records.set(`${accountId}/${key}`, { requestHash, state: 'completed', response });
  }
  async release(accountId: string, key: string) {
    this.records.delete(`${accountId}/${key}`);
  }
}

const request = (body: unknown, key: string | null = 'key-12345678') => ({
  route: { id: 'createAssessment' },
  params: {},
  body,
  headers: key ? { 'idempotency-key': key } : {},
  account: { accountId: 'acct_1', tier: 'pro', keyHash: 'h' },
}) as unknown as RouteRequest;

const fast = { waitMs: 2000, pollMs: 5 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('idempotency', () => {
  it('runs once for 20 concurrent repeats and answers all of them alike', async () => {
    const store = new MemoryIdempotencyStore();
    let runs = 0;
    const operation = async () => {
      runs += 1;
      await sleep(30);
      return { status: 201, body: { id: `created-${runs}` } };
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => withIdempotency(request({ a: 1 }), store, operation, fast)));
    expect(runs).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify([r.status, r.body]))).size).toBe(1);
    expect(results.filter((r) => r.headers?.['Idempotent-Replayed'] === 'true')).toHaveLength(19);
  });

  it('treats a reordered body as the same request and another body as a reuse (422)', async () => {
    const store = new MemoryIdempotencyStore();
    const operation = async () => ({ status: 201, body: { ok: true } });
    await withIdempotency(request({ a: 1, b: 2 }), store, operation, fast);
    await expect(withIdempotency(request({ b: 2, a: 1 }), store, operation, fast)).resolves.toMatchObject({ status: 201 });
    await expect(withIdempotency(request({ a: 2 }), store, operation, fast)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('releases the key after an error so the same request can be retried', async () => {
    const store = new MemoryIdempotencyStore();
    await expect(withIdempotency(request({ a: 1 }), store, async () => { throw new HttpError('conflict', 'not yet'); }, fast)).rejects.toMatchObject({ code: 'conflict' });
    await expect(withIdempotency(request({ a: 1 }), store, async () => ({ status: 201, body: {} }), fast)).resolves.toMatchObject({ status: 201 });
  });

  it('answers 409 when the first request is still running after the wait', async () => {
    const store = new MemoryIdempotencyStore();
    await store.claim('acct_1', 'key-12345678', requestFingerprint(request({ a: 1 })));
    await expect(withIdempotency(request({ a: 1 }), store, async () => ({ status: 201 }), { waitMs: 30, pollMs: 5 })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('answers the work done when its answer cannot be kept for replays', async () => {
    const store = new MemoryIdempotencyStore();
    store.complete = async () => {
      throw new Error('Item size has exceeded the maximum allowed size');
    };
    let runs = 0;
    const result = await withIdempotency(request({ a: 1 }), store, async () => ({ status: 200, body: { run: ++runs } }), fast);
    expect(result).toEqual({ status: 200, body: { run: 1 } });
    // The key stays claimed (its lease frees it later): a repeat meanwhile waits, then answers 409.
    expect(store.records.get('acct_1/key-12345678')?.state).toBe('in_progress');
  });

  it('just runs without a key', async () => {
    const store = new MemoryIdempotencyStore();
    let runs = 0;
    const operation = async () => ({ status: 201, body: { n: ++runs } });
    await withIdempotency(request({ a: 1 }, null), store, operation, fast);
    await withIdempotency(request({ a: 1 }, null), store, operation, fast);
    expect(runs).toBe(2);
    expect(store.records.size).toBe(0);
  });
});
