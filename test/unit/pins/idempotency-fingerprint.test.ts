import { REPLAY_HEADER, requestFingerprint, withIdempotency, type IdempotencyRecord, type IdempotencyStore } from '../../../shared/http/idempotency';
import type { RouteRequest } from '../../../shared/http/types';

/** What makes two requests "the same" for an Idempotency-Key, and what a failed release leaves behind. */
function request(overrides: Partial<RouteRequest> & { contentType?: string } = {}): RouteRequest {
  const { contentType, ...rest } = overrides;
  return {
    route: { id: 'importAssets' },
    params: {},
    query: {},
    body: undefined,
    rawBody: Buffer.alloc(0),
    headers: { 'idempotency-key': 'key-12345', ...(contentType ? { 'content-type': contentType } : {}) },
    account: { accountId: 'acct_1', tier: 'pro', keyHash: 'h' },
    user: undefined,
    rate: undefined,
    requestId: 'r',
    baseUrl: 'https://x/api',
    now: new Date(),
    ...rest,
  } as unknown as RouteRequest;
}

const form = (boundary: string, content: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n${content}\r\n--${boundary}--\r\n`, 'latin1');

describe('request fingerprints', () => {
  it('ignores the multipart boundary, quoted or not, but not the content', () => {
    const a = requestFingerprint(request({ rawBody: form('AaB03x', 'name\nLift Station 12'), contentType: 'multipart/form-data; boundary=AaB03x' }));
    const b = requestFingerprint(request({ rawBody: form('----zz99', 'name\nLift Station 12'), contentType: 'multipart/form-data; boundary="----zz99"' }));
    const c = requestFingerprint(request({ rawBody: form('AaB03x', 'name\nLift Station 13'), contentType: 'multipart/form-data; boundary=AaB03x' }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('counts raw bytes as they are when there is no boundary, and an empty body as none', () => {
    const raw = (text: string) => requestFingerprint(request({ rawBody: Buffer.from(text), contentType: 'application/octet-stream' }));
    expect(raw('abc')).not.toBe(raw('abd'));
    expect(requestFingerprint(request())).toBe(requestFingerprint(request({ headers: { 'content-type': 'multipart/form-data; boundary=x' } })));
    expect(requestFingerprint(request())).not.toBe(raw('a'));
  });

  it('tells routes, path parameters and parsed bodies apart, whatever the key order', () => {
    const base = requestFingerprint(request({ body: { a: 1, b: 2 } as never }));
    expect(requestFingerprint(request({ body: { b: 2, a: 1 } as never }))).toBe(base);
    expect(requestFingerprint(request({ body: { a: 1, b: 3 } as never }))).not.toBe(base);
    expect(requestFingerprint(request({ body: { a: 1, b: 2 } as never, params: { id: 'x' } as never }))).not.toBe(base);
    expect(requestFingerprint(request({ body: { a: 1, b: 2 } as never, route: { id: 'other' } as never }))).not.toBe(base);
  });
});

function memoryStore(options: { releaseFails?: boolean } = {}) {
  const records = new Map<string, IdempotencyRecord>();
  const calls: string[] = [];
  const store: IdempotencyStore = {
    claim: async (account, key, requestHash) => {
      calls.push('claim');
      if (records.has(`${account}/${key}`)) return false;
      records.set(`${account}/${key}`, { requestHash, state: 'in_progress' });
      return true;
    },
    find: async (account, key) => records.get(`${account}/${key}`),
    complete: async (account, key, requestHash, response) => {
      calls.push('complete');
      records.set(`${account}/${key}`, { requestHash, state: 'completed', response });
    },
    release: async (account, key) => {
      calls.push('release');
      if (options.releaseFails) throw new Error('table unavailable');
      records.delete(`${account}/${key}`);
    },
  };
  return { store, records, calls };
}

describe('withIdempotency', () => {
  it('replays the stored response with the replay header, without running again', async () => {
    const { store } = memoryStore();
    let runs = 0;
    const operation = async () => ({ status: 201, body: { id: ++runs }, headers: { Location: '/x/1' } });
    const first = await withIdempotency(request({ body: { a: 1 } as never }), store, operation);
    const again = await withIdempotency(request({ body: { a: 1 } as never }), store, operation);
    expect(first).toEqual({ status: 201, body: { id: 1 }, headers: { Location: '/x/1' } });
    expect(again).toEqual({ status: 201, body: { id: 1 }, headers: { Location: '/x/1', [REPLAY_HEADER]: 'true' } });
    expect(REPLAY_HEADER).toBe('Idempotent-Replayed');
    expect(runs).toBe(1);
  });

  it('gives the operation\'s own error when the key cannot be released, and keeps the claim', async () => {
    const { store, records, calls } = memoryStore({ releaseFails: true });
    await expect(withIdempotency(request(), store, async () => { throw new Error('handler failed'); })).rejects.toThrow('handler failed');
    expect(calls).toEqual(['claim', 'release']);
    expect(records.size).toBe(1);
  });

  it('runs without a store when there is no account (unkeyed route)', async () => {
    const { store, calls } = memoryStore();
    expect(await withIdempotency(request({ account: undefined }), store, async () => ({ status: 200 }))).toEqual({ status: 200 });
    expect(calls).toEqual([]);
  });

  it('waits for a running first request and answers 409 when it does not finish in time', async () => {
    const { store, records } = memoryStore();
    records.set('acct_1/key-12345', { requestHash: requestFingerprint(request()), state: 'in_progress' });
    await expect(withIdempotency(request(), store, async () => ({ status: 200 }), { waitMs: 60, pollMs: 20 })).rejects.toMatchObject({ code: 'conflict' });
  });
});
