import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createGroupHandler, errorResponse, DEFAULT_MAX_BODY_BYTES } from '../../../shared/http/pipeline';
import { readRouteForm } from '../../../shared/http/multipart';
import { HttpError, PROBLEM_CONTENT_TYPE, problemBody, problemTypeUri, type ProblemCode } from '../../../shared/http/problem';
import { GATEWAY_MAX_BODY_BYTES, GATEWAY_RESPONSES } from '../../../shared/http/gateway-responses';
import { meterRequest, rateLimitHeaders } from '../../../shared/http/quota';
import { requiredIfMatch, versionOfEtag } from '../../../shared/http/if-match';
import { authenticateApiKey, authorizerContext } from '../../../shared/http/auth';
import { routesOfGroup } from '../../../shared/routes';
import type { FunctionGroup } from '../../../shared/routes/types';
import type { Tier } from '../../../shared/domain/tiers';
import type { RouteImplementation, RouteResult } from '../../../shared/http/types';
import type { AccountContext, AccountStore, UsageCounter } from '../../../shared/ports';
import { hashApiKey } from '../../../shared/domain/api-keys';
import { unusedIdempotencyStore } from '../../helpers/unused-idempotency-store';

/**
 * The HTTP contract of DESIGN §3, through the shared pipeline: error statuses and codes, the
 * order of the checks (route, key, tier, quota, If-Match, size, media type, JSON, schema), the
 * RateLimit headers, and the shape of answers. Route implementations are stubs that echo what
 * the pipeline hands them.
 */

// DESIGN §3 error table (and §6 for the /v1 codes).
const DESIGN_ERRORS: [ProblemCode, number][] = [
  ['missing_api_key', 401], ['invalid_api_key', 403], ['subscription_required', 403], ['rate_limit_exceeded', 429],
  ['malformed_body', 400], ['unsupported_media_type', 415], ['invalid_request', 400], ['payload_too_large', 413],
  ['not_found', 404], ['conflict', 409], ['precondition_required', 428], ['idempotency_key_reused', 422], ['internal_error', 500],
  ['invalid_token', 401], ['insufficient_scope', 403], ['invalid_credentials', 401], ['too_many_attempts', 429], ['email_taken', 409],
  ['weak_password', 400], ['already_enrolled', 409], ['prerequisites_not_met', 409], ['location_outside_florida', 422],
];

describe('problem details (RFC 9457)', () => {
  it.each(DESIGN_ERRORS)('%s answers %i', (code, status) => {
    expect(new HttpError(code, 'x').status).toBe(status);
    const body = problemBody(code, 'What went wrong.', 'req-1', { errors: [{ field: 'a', message: 'b' }], headers: { 'Retry-After': '5' } });
    expect(body).toEqual({ type: `/api/docs#error-${code}`, title: expect.any(String), status, detail: 'What went wrong.', instance: 'req-1', code, errors: [{ field: 'a', message: 'b' }] });
    expect(body.title.length).toBeGreaterThan(0);
    expect(problemTypeUri(code)).toBe(`/api/docs#error-${code}`);
  });

  it('keeps the error name and detail on HttpError', () => {
    const error = new HttpError('conflict', 'Changed meanwhile.', { current_version: 4 });
    expect([error.name, error.message, error.code, error.extra]).toEqual(['HttpError', 'Changed meanwhile.', 'conflict', { current_version: 4 }]);
    expect(new HttpError('conflict', 'x').extra).toEqual({});
  });
});

describe('gateway responses', () => {
  const EXPECTED: Record<string, [ProblemCode, number]> = {
    UNAUTHORIZED: ['missing_api_key', 401], ACCESS_DENIED: ['invalid_api_key', 403], MISSING_AUTHENTICATION_TOKEN: ['not_found', 404],
    RESOURCE_NOT_FOUND: ['not_found', 404], REQUEST_TOO_LARGE: ['payload_too_large', 413], THROTTLED: ['rate_limit_exceeded', 429],
    QUOTA_EXCEEDED: ['rate_limit_exceeded', 429], UNSUPPORTED_MEDIA_TYPE: ['unsupported_media_type', 415], BAD_REQUEST_BODY: ['malformed_body', 400],
    DEFAULT_4XX: ['invalid_request', 400], DEFAULT_5XX: ['internal_error', 500],
  };
  it.each(Object.entries(EXPECTED))('%s is %s', (type, [code, status]) => {
    const row = GATEWAY_RESPONSES[type as keyof typeof GATEWAY_RESPONSES];
    expect([row.code, new HttpError(row.code, row.detail).status]).toEqual([code, status]);
    expect(row.detail.length).toBeGreaterThan(10);
  });

  it('accepts bodies up to API Gateway\'s 10 MB; functions default to 1 MB', () => {
    expect(GATEWAY_MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
    expect(DEFAULT_MAX_BODY_BYTES).toBe(1024 * 1024);
  });
});

describe('If-Match', () => {
  it.each([['"3"', 3], ['W/"3"', 3], [' "12" ', 12], ['"0"', 0], ['"999999999"', 999999999]])('%s names version %i', (header, version) => {
    expect(requiredIfMatch(header)).toBe(version);
    expect(versionOfEtag(header)).toBe(version);
  });

  it.each([undefined, '', '   '])('missing (%p) is 428 precondition_required', (header) => {
    expect(() => requiredIfMatch(header)).toThrow(expect.objectContaining({ code: 'precondition_required', status: 428 }));
  });

  it.each(['*', '3', '"3', 'W/3', '"1234567890"', '"3" "4"', 'x"3"'])('%s is 400 invalid_request on the if-match header', (header) => {
    expect(() => requiredIfMatch(header)).toThrow(expect.objectContaining({ code: 'invalid_request', extra: { errors: [expect.objectContaining({ field: 'if-match', in: 'header' })] } }));
    expect(versionOfEtag(header)).toBeUndefined();
  });
});

const KEY = `vac_${'aB3_-'.repeat(6)}xy`; // vac_ + 32 url-safe characters
describe('API key authentication', () => {
  const account: AccountContext = { accountId: 'acct_1', tier: 'pro', keyHash: hashApiKey(KEY) };
  const store = { findByKeyHash: async (hash: string) => (hash === account.keyHash ? account : undefined) } as unknown as AccountStore;

  it.each([[undefined], [''], ['   ']])('no key (%p) is missing_api_key', async (header) => {
    expect(await authenticateApiKey(store, header)).toEqual({ ok: false, code: 'missing_api_key' });
  });

  it.each([
    ['a malformed key', `vac_${'a'.repeat(31)}`],
    ['a key one character too long', `${KEY}a`],
    ['a key with another prefix', `xyz_${'a'.repeat(32)}`],
    ['a well-formed unknown key', `vac_${'b'.repeat(32)}`],
  ])('%s is invalid_api_key', async (_label, header) => {
    expect(await authenticateApiKey(store, header)).toEqual({ ok: false, code: 'invalid_api_key' });
  });

  it('finds the account of a known key by its hash, around surrounding spaces', async () => {
    expect(await authenticateApiKey(store, ` ${KEY} `)).toEqual({ ok: true, account });
    expect(authorizerContext(account)).toEqual({ accountId: 'acct_1', tier: 'pro', keyHash: account.keyHash });
  });
});

function fakeUsage(usedBefore = 0) {
  const calls = { consume: 0, used: 0 };
  let used = usedBefore;
  const usage: UsageCounter = {
    consume: async (_key, _window, limit) => {
      calls.consume++;
      if (limit !== null && used >= limit) return { allowed: false, used };
      used++;
      return { allowed: true, used };
    },
    used: async () => {
      calls.used++;
      return used;
    },
  };
  return { usage, calls };
}

const NOW = new Date('2026-11-23T05:45:00Z'); // 15 minutes (900 s) before the window resets
const routeOf = (group: FunctionGroup, id: string) => routesOfGroup(group).find((r) => r.id === id)!;
const account = (tier: Tier): AccountContext => ({ accountId: 'acct_1', tier, keyHash: `hash-${tier}` });

describe('hourly quota and tiers', () => {
  it('counts a served request and reports the window', async () => {
    const { usage, calls } = fakeUsage(3);
    const rate = await meterRequest(routeOf('grants', 'listGrantDeadlines'), account('free'), usage, NOW);
    expect(rate).toEqual({ limit: 25, used: 4, remaining: 21, resetSeconds: 900, resetAt: new Date('2026-11-23T06:00:00Z') });
    expect(calls).toEqual({ consume: 1, used: 0 });
    expect(rateLimitHeaders(rate)).toEqual({ 'RateLimit-Limit': '25', 'RateLimit-Remaining': '21', 'RateLimit-Reset': '900' });
  });

  it('answers 429 with Retry-After when the hour is spent, and never a negative remainder', async () => {
    const { usage } = fakeUsage(25);
    const error = await meterRequest(routeOf('grants', 'listGrantDeadlines'), account('free'), usage, NOW).catch((e: unknown) => e) as HttpError;
    expect(error).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect(error.extra.headers).toEqual({ 'RateLimit-Limit': '25', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '900', 'Retry-After': '900' });
    expect(error.message).toContain('25 requests per hour');
  });

  it('refuses a route above the key\'s tier without charging it, with the headers', async () => {
    const { usage, calls } = fakeUsage(7);
    const error = await meterRequest(routeOf('grants', 'rankGrantProject'), account('free'), usage, NOW).catch((e: unknown) => e) as HttpError;
    expect(error).toMatchObject({ code: 'subscription_required', status: 403, extra: { required_tier: 'pro', current_tier: 'free' } });
    expect(error.extra.headers).toEqual({ 'RateLimit-Limit': '25', 'RateLimit-Remaining': '18', 'RateLimit-Reset': '900' });
    expect(calls.consume).toBe(0);
  });

  it('reads the count for the unmetered usage route without adding to it, even when spent', async () => {
    const { usage, calls } = fakeUsage(25);
    const rate = await meterRequest(routeOf('account', 'getUsage'), account('free'), usage, NOW);
    expect(rate).toMatchObject({ limit: 25, used: 25, remaining: 0 });
    expect(calls).toEqual({ consume: 0, used: 1 });
  });

  it('sends no RateLimit headers for an unlimited key', async () => {
    const { usage } = fakeUsage(100000);
    const rate = await meterRequest(routeOf('grants', 'rankGrantProject'), account('enterprise'), usage, NOW);
    expect(rate).toMatchObject({ limit: null, remaining: null, used: 100001 });
    expect(rateLimitHeaders(rate)).toEqual({});
    expect(rateLimitHeaders(undefined)).toEqual({});
  });
});

type Echo = { route: string; params: unknown; query: unknown; body: unknown; headers: Record<string, string>; ifMatch?: number; account?: AccountContext; rawBody: string; baseUrl: string; requestId: string; rate: unknown };

function handlerFor(group: FunctionGroup, usedBefore = 0, override: Partial<Record<string, () => Promise<RouteResult>>> = {}) {
  const echoRoute = (id: string): RouteImplementation => async (request) => {
    if (override[id]) return override[id]!();
    const echo: Echo = {
      route: request.route.id, params: request.params, query: request.query, body: request.body, headers: request.headers,
      ifMatch: request.ifMatch, account: request.account, rawBody: request.rawBody.toString('utf8'),
      baseUrl: request.baseUrl, requestId: request.requestId, rate: request.rate,
    };
    return { status: 200, body: echo };
  };
  const implementations = Object.fromEntries(routesOfGroup(group).map((route) => [route.id, echoRoute(route.id)]));
  const { usage, calls } = fakeUsage(usedBefore);
  const handler = createGroupHandler(routesOfGroup(group), implementations, { usage: () => usage, clock: () => NOW, readForm: readRouteForm, idempotency: () => unusedIdempotencyStore });
  return { handler, calls };
}

function event(method: string, resource: string, options: { tier?: Tier | null; headers?: Record<string, string>; body?: string | Buffer; params?: Record<string, string>; query?: Record<string, string[]>; path?: string; stage?: string; domainName?: string } = {}): APIGatewayProxyEvent {
  const tier = options.tier === undefined ? 'pro' : options.tier;
  const body = options.body === undefined ? null : Buffer.isBuffer(options.body) ? options.body.toString('base64') : options.body;
  const query = options.query;
  return {
    httpMethod: method,
    resource,
    path: options.path ?? resource,
    headers: options.headers ?? {},
    multiValueHeaders: {},
    body,
    isBase64Encoded: Buffer.isBuffer(options.body),
    pathParameters: options.params ?? null,
    queryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v[v.length - 1]!])) : null,
    multiValueQueryStringParameters: query ?? null,
    stageVariables: null,
    requestContext: {
      requestId: 'req-42',
      stage: options.stage ?? 'api',
      domainName: options.domainName,
      authorizer: tier === null ? null : { accountId: 'acct_1', tier, keyHash: `hash-${tier}` },
    } as unknown as APIGatewayProxyEvent['requestContext'],
  } as APIGatewayProxyEvent;
}

const call = async (handler: ReturnType<typeof handlerFor>['handler'], e: APIGatewayProxyEvent) => {
  const result: APIGatewayProxyResult = await handler(e, {} as Context);
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
};
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const ELIGIBILITY = JSON.stringify({ jurisdiction: 'Liberty County', project_type: 'implementation' });

describe('the pipeline', () => {
  it('answers a served request with JSON, the request id and the RateLimit headers', async () => {
    const { handler, calls } = handlerFor('grants', 2);
    const result = await call(handler, event('POST', '/grants/eligibility', { tier: 'free', headers: JSON_HEADERS, body: ELIGIBILITY }));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual({ 'X-Request-Id': 'req-42', 'RateLimit-Limit': '25', 'RateLimit-Remaining': '22', 'RateLimit-Reset': '900', 'Content-Type': 'application/json; charset=utf-8' });
    expect(result.json).toMatchObject({ route: 'checkGrantEligibility', body: { jurisdiction: 'Liberty County', project_type: 'implementation' }, account: { accountId: 'acct_1', tier: 'free' }, requestId: 'req-42' });
    expect(calls.consume).toBe(1);
  });

  it.each([
    ['no route', event('GET', '/grants/nothing'), 404, 'not_found'],
    ['no key', event('GET', '/grants/deadlines', { tier: null }), 401, 'missing_api_key'],
    ['a Free key on a Pro route', event('POST', '/grants/ranking', { tier: 'free', headers: JSON_HEADERS, body: '{}' }), 403, 'subscription_required'],
    ['a wrong content type', event('POST', '/grants/eligibility', { headers: { 'Content-Type': 'text/plain' }, body: ELIGIBILITY }), 415, 'unsupported_media_type'],
    ['no content type', event('POST', '/grants/eligibility', { body: ELIGIBILITY }), 415, 'unsupported_media_type'],
    ['an empty JSON body', event('POST', '/grants/eligibility', { headers: JSON_HEADERS }), 400, 'invalid_request'],
    ['malformed JSON', event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: '{"jurisdiction": ' }), 400, 'malformed_body'],
    ['a body over the route\'s limit', event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: 'x'.repeat(16 * 1024 + 1) }), 413, 'payload_too_large'],
    ['a schema violation', event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: '{"jurisdiction": 5}' }), 400, 'invalid_request'],
  ])('answers %s with a problem', async (_label, e, status, code) => {
    const { handler, calls } = handlerFor('grants');
    const result = await call(handler, e);
    expect([result.statusCode, result.json.code, result.json.status, result.json.instance]).toEqual([status, code, status, 'req-42']);
    expect(result.headers).toMatchObject({ 'Content-Type': PROBLEM_CONTENT_TYPE, 'X-Request-Id': 'req-42' });
    if (code === 'subscription_required' || code === 'not_found' || code === 'missing_api_key') expect(calls.consume).toBe(0);
  });

  it('reads a body of exactly the route\'s limit', async () => {
    const { handler } = handlerFor('grants');
    const body = JSON.stringify({ jurisdiction: 'Liberty County', project_type: 'implementation', county: 'x'.repeat(10) });
    const padded = body + ' '.repeat(16 * 1024 - body.length);
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: padded }));
    expect(result.json.code).not.toBe('payload_too_large');
  });

  it('names the limit and the size of a body that is too large', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: 'x'.repeat(16 * 1024 + 1) }));
    expect(result.json).toMatchObject({ max_bytes: 16 * 1024, detail: expect.stringContaining(`${16 * 1024 + 1} bytes`) });
  });

  it('lists every invalid field, unknown ones by name', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: JSON.stringify({ jurisdiction: 5, project_type: 'implementation', colour: 'red' }) }));
    expect(result.json.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'jurisdiction', in: 'body' }),
      { field: 'colour', in: 'body', message: 'Unknown field' },
    ]));
    expect(result.json.detail).toMatch(/^2 fields are invalid: /);
    const one = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: JSON.stringify({ jurisdiction: 5, project_type: 'implementation' }) }));
    expect(one.json.detail).toBe('1 field is invalid: jurisdiction.');
  });

  it('lists a missing JSON body as the (root) field', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS }));
    expect(result.json.errors).toEqual([{ field: '(root)', in: 'body', message: 'Required' }]);
  });

  it('reports a root-level schema violation as (root)', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: '[1, 2]' }));
    expect(result.json.errors).toEqual([expect.objectContaining({ field: '(root)', in: 'body' })]);
  });

  it('accepts a media type with parameters and in any case', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body: ELIGIBILITY }));
    expect(result.statusCode).toBe(200);
  });

  it('says which media type it wanted', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: { 'Content-Type': 'text/plain' }, body: ELIGIBILITY }));
    expect(result.json.detail).toBe('Send the body as application/json, not text/plain.');
    const bare = await call(handler, event('POST', '/grants/eligibility', { body: ELIGIBILITY }));
    expect(bare.json.detail).toBe('Send the body as application/json.');
  });

  it('decodes a base64 body', async () => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('POST', '/grants/eligibility', { headers: JSON_HEADERS, body: Buffer.from(ELIGIBILITY) }));
    expect(result.json.body).toEqual({ jurisdiction: 'Liberty County', project_type: 'implementation' });
    expect(result.json.rawBody).toBe(ELIGIBILITY);
  });

  it('answers 429 with Retry-After once the hour is spent', async () => {
    const { handler } = handlerFor('grants', 25);
    const result = await call(handler, event('GET', '/grants/deadlines', { tier: 'free' }));
    expect(result.statusCode).toBe(429);
    expect(result.headers).toMatchObject({ 'Retry-After': '900', 'RateLimit-Remaining': '0' });
  });

  it('requires If-Match on a conditional update (428), reads W/ ETags, and passes the version on', async () => {
    const { handler } = handlerFor('assessments');
    const patch = (headers: Record<string, string>) => event('PATCH', '/assessments/{assessment_id}', { params: { assessment_id: 'va_1' }, headers: { ...JSON_HEADERS, ...headers }, body: '{"notes":"x"}' });
    expect((await call(handler, patch({}))).json).toMatchObject({ status: 428, code: 'precondition_required' });
    const ok = await call(handler, patch({ 'If-Match': 'W/"7"' }));
    expect(ok.json).toMatchObject({ ifMatch: 7, params: { assessment_id: 'va_1' }, headers: { 'if-match': 'W/"7"', 'content-type': 'application/json' } });
  });

  it('leaves ifMatch unset on routes that are not conditional', async () => {
    const { handler } = handlerFor('assessments');
    const result = await call(handler, event('GET', '/assessments/{assessment_id}', { params: { assessment_id: 'va_1' }, headers: { 'If-Match': '"3"' } }));
    expect(result.json.ifMatch).toBeUndefined();
  });

  it('validates path parameters and headers', async () => {
    const { handler } = handlerFor('assessments');
    const result = await call(handler, event('POST', '/assessments/{assessment_id}/submit', { params: { assessment_id: '' }, headers: { ...JSON_HEADERS, 'Idempotency-Key': 'bad key!' }, body: '{}' }));
    expect(result.json.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'assessment_id', in: 'path' }),
      expect.objectContaining({ field: 'idempotency-key', in: 'header' }),
    ]));
  });

  it('joins a repeated query parameter with commas', async () => {
    const { handler } = handlerFor('hazards');
    const result = await call(handler, event('GET', '/hazards/slr-scenarios', { tier: 'free', query: { gauge_id: ['8724580'], time_horizon: ['2040', '2070'] } }));
    expect(result.json.query).toMatchObject({ gauge_id: '8724580', time_horizon: [2040, 2070] });
  });

  it('validates the query string', async () => {
    const { handler } = handlerFor('hazards');
    const result = await call(handler, event('GET', '/hazards/slr-scenarios', { tier: 'free', query: { gauge_id: ['8724580'], time_horizon: ['1800'] } }));
    expect(result.json.errors).toEqual([expect.objectContaining({ field: expect.stringMatching(/^time_horizon/), in: 'query' })]);
  });

  it.each([
    [{ 'X-Forwarded-Host': 'api.example.org', 'X-Forwarded-Proto': 'http', Host: 'inner' }, undefined, 'http://api.example.org/api'],
    [{ Host: '127.0.0.1:3000' }, 'x.execute-api.aws', 'https://127.0.0.1:3000/api'],
    [{}, 'x.execute-api.aws', 'https://x.execute-api.aws/api'],
    [{}, undefined, 'https://localhost/api'],
  ])('builds the base URL from %p and the domain %p', async (headers, domainName, baseUrl) => {
    const { handler } = handlerFor('grants');
    const result = await call(handler, event('GET', '/grants/deadlines', { headers, domainName }));
    expect(result.json.baseUrl).toBe(baseUrl);
  });

  it('hides an unexpected error behind 500 internal_error', async () => {
    const { handler } = handlerFor('grants', 0, { listGrantDeadlines: async () => { throw new Error('secret table name'); } });
    const result = await call(handler, event('GET', '/grants/deadlines'));
    expect(result.statusCode).toBe(500);
    expect(result.json).toMatchObject({ code: 'internal_error', instance: 'req-42' });
    expect(result.body).not.toContain('secret');
    expect(result.headers).toMatchObject({ 'RateLimit-Limit': '5000' });
  });

  it('passes an HttpError of a route through with its extra fields and headers', async () => {
    const { handler } = handlerFor('grants', 0, { listGrantDeadlines: async () => { throw new HttpError('conflict', 'Changed.', { current_version: 4, headers: { ETag: '"4"' } }); } });
    const result = await call(handler, event('GET', '/grants/deadlines'));
    expect(result.statusCode).toBe(409);
    expect(result.json).toEqual({ type: '/api/docs#error-conflict', title: 'Conflict', status: 409, detail: 'Changed.', instance: 'req-42', code: 'conflict', current_version: 4 });
    expect(result.headers).toMatchObject({ ETag: '"4"', 'Content-Type': PROBLEM_CONTENT_TYPE });
  });

  it.each([
    ['no body', { status: 204 }, { statusCode: 204, body: '' }],
    ['text', { status: 200, rawBody: '<html/>', contentType: 'text/html' }, { statusCode: 200, body: '<html/>', isBase64Encoded: false }],
    ['bytes', { status: 200, rawBody: Buffer.from([1, 2, 3]), contentType: 'application/zip' }, { statusCode: 200, body: Buffer.from([1, 2, 3]).toString('base64'), isBase64Encoded: true }],
    ['JSON of its own type', { status: 201, body: { a: 1 }, contentType: 'application/geo+json', headers: { Location: '/x' } }, { statusCode: 201, body: '{"a":1}' }],
  ])('shapes a result with %s', async (_label, routeResult, expected) => {
    const { handler } = handlerFor('grants', 0, { listGrantDeadlines: async () => routeResult });
    const result: APIGatewayProxyResult = await handler(event('GET', '/grants/deadlines'), {} as Context);
    expect(result).toMatchObject(expected);
    expect(result.headers!['X-Request-Id']).toBe('req-42');
    const contentType = (routeResult as { contentType?: string }).contentType;
    expect(result.headers!['Content-Type']).toBe(contentType);
    if ('headers' in routeResult) expect(result.headers!.Location).toBe('/x');
  });

  it('answers errors outside any request with the unknown instance', () => {
    const result = errorResponse(new Error('boom'), 'unknown');
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body)).toMatchObject({ code: 'internal_error', instance: 'unknown' });
  });
});
