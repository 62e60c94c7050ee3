import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { idempotentOperations as generatedIdempotent } from '../../clients/typescript/src/operations';
import { ApiProblemError, createApiClient, expectData, retryAfterMs } from '../../clients/typescript/src';
import { idempotentOperations } from '../../bin/client';

/** A loopback server that answers each request with the next scripted answer and records it. */
interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}
let server: Server;
let baseUrl: string;
let script: Scripted[];
let seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const answer = script.shift() ?? { status: 500, body: { code: 'internal_error' } };
      const type = answer.status >= 400 ? 'application/problem+json' : 'application/json';
      response.writeHead(answer.status, { 'Content-Type': type, ...answer.headers });
      response.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

const rateLimited = (retryAfter: string): Scripted => ({
  status: 429,
  headers: { 'Retry-After': retryAfter },
  body: { type: 'about:blank', title: 'Too Many Requests', status: 429, code: 'rate_limit_exceeded', detail: 'Hourly limit reached.' },
});

function clientWithClock(options: { retries?: number; maxRetryDelayMs?: number } = {}) {
  const waits: number[] = [];
  const client = createApiClient({
    baseUrl: `${baseUrl}/`,
    apiKey: 'pro-key',
    sleep: async (ms) => {
      waits.push(ms);
    },
    newIdempotencyKey: () => `key-${seen.length + 1}-generated`,
    ...options,
  });
  return { client, waits };
}

describe('typed client', () => {
  it('sends the API key and retries a 429 after its Retry-After until served', async () => {
    script = [rateLimited('2'), rateLimited('1'), { status: 200, body: { total_resources: 60 } }];
    const { client, waits } = clientWithClock();
    const result = await client.GET('/resources', { params: { query: { action: 'stats' } } });
    expect(expectData(result)).toEqual({ total_resources: 60 });
    expect(waits).toEqual([2000, 1000]);
    expect(seen).toHaveLength(3);
    expect(seen.map((request) => request.headers['x-api-key'])).toEqual(['pro-key', 'pro-key', 'pro-key']);
    expect(seen[0].url).toBe('/api/resources?action=stats');
  });

  it('gives up after the configured retries and returns the problem', async () => {
    script = [rateLimited('0'), rateLimited('0'), rateLimited('0')];
    const { client } = clientWithClock({ retries: 2 });
    const result = await client.GET('/resources', { params: { query: { action: 'stats' } } });
    expect(seen).toHaveLength(3);
    expect(result.response.status).toBe(429);
    expect(() => expectData(result)).toThrow(ApiProblemError);
    try {
      expectData(result);
    } catch (error) {
      expect((error as ApiProblemError).problem?.code).toBe('rate_limit_exceeded');
      expect((error as ApiProblemError).status).toBe(429);
    }
  });

  it('returns at once when the server asks for a longer wait than allowed', async () => {
    script = [rateLimited('3600')];
    const { client, waits } = clientWithClock({ maxRetryDelayMs: 60_000 });
    const result = await client.GET('/account/usage');
    expect(result.response.status).toBe(429);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('adds one idempotency key to an operation that honours it and keeps it across retries', async () => {
    script = [
      { status: 503, headers: { 'Retry-After': '1' }, body: { code: 'service_unavailable', status: 503 } },
      { status: 201, body: { assessment_id: 'va_1' } },
    ];
    const { client } = clientWithClock();
    const result = await client.POST('/assessments', {
      body: { jurisdiction: 'Monroe County', type: 'initial', scope: 'full_jurisdiction' } as never,
    });
    expect(result.response.status).toBe(201);
    expect(seen).toHaveLength(2);
    expect(seen[0].headers['idempotency-key']).toBe('key-1-generated');
    expect(seen[1].headers['idempotency-key']).toBe('key-1-generated');
    expect(JSON.parse(seen[1].body)).toEqual({ jurisdiction: 'Monroe County', type: 'initial', scope: 'full_jurisdiction' });
  });

  it('keeps a caller’s own idempotency key', async () => {
    script = [{ status: 201, body: {} }];
    const { client } = clientWithClock();
    await client.POST('/assessments', {
      body: { jurisdiction: 'Monroe County' } as never,
      params: { header: { 'idempotency-key': 'monroe-va-2026' } } as never,
    });
    expect(seen[0].headers['idempotency-key']).toBe('monroe-va-2026');
  });

  it('does not repeat a 503 of a POST that keeps no idempotency key, nor add one', async () => {
    script = [{ status: 503, headers: { 'Retry-After': '1' }, body: { code: 'service_unavailable', status: 503 } }];
    const { client } = clientWithClock();
    const result = await client.POST('/grants/eligibility', { body: { jurisdiction: 'Monroe County' } as never });
    expect(result.response.status).toBe(503);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['idempotency-key']).toBeUndefined();
  });

  it('repeats a 429 of such a POST: a refused request did no work', async () => {
    script = [rateLimited('0'), { status: 200, body: { eligible: true } }];
    const { client } = clientWithClock();
    const result = await client.POST('/grants/eligibility', { body: { jurisdiction: 'Monroe County' } as never });
    expect(result.response.status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it('sends a bearer token from a function, read afresh for each request', async () => {
    script = [{ status: 200, body: {} }, { status: 200, body: {} }];
    let issued = 0;
    const client = createApiClient({ baseUrl, accessToken: async () => `token-${++issued}` });
    await client.GET('/v1/users/profile');
    await client.GET('/v1/users/profile');
    expect(seen.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(seen[0].headers['x-api-key']).toBeUndefined();
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('  ', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
  });
});

describe('generated operations', () => {
  it('lists the operations whose header parameters include Idempotency-Key, in any case', () => {
    const document = {
      paths: {
        '/b': { post: { parameters: [{ name: 'Idempotency-Key', in: 'header' }] }, get: { parameters: [] } },
        '/a/{id}': { post: { parameters: [{ name: 'idempotency-key', in: 'header' }] }, delete: {} },
        '/c': { post: { parameters: [{ name: 'idempotency-key', in: 'query' }] } },
      },
    };
    expect(idempotentOperations(document)).toEqual(['POST /a/{id}', 'POST /b']);
  });

  it('match the committed document', () => {
    const document = require('../../openapi.json');
    expect([...generatedIdempotent].sort()).toEqual(idempotentOperations(document));
    expect(generatedIdempotent.has('POST /assessments')).toBe(true);
  });
});
