import * as z from 'zod';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createGroupHandler } from '../../shared/http/pipeline';
import { readRouteForm } from '../../shared/http/multipart';
import { BEARER_CHALLENGE, INSUFFICIENT_SCOPE_CHALLENGE, bearerAuthorizerContext } from '../../shared/http/bearer';
import type { BearerUser } from '../../shared/domain/identity/signed-in-user';
import { PROBLEM_CONTENT_TYPE } from '../../shared/http/problem';
import { routesOfGroup } from '../../shared/routes';
import type { FunctionGroup } from '../../shared/routes/types';
import type { RouteImplementation } from '../../shared/http/types';
import type { UsageCounter } from '../../shared/ports';
import { unusedIdempotencyStore } from '../helpers/unused-idempotency-store';

/**
 * The pipeline's three ways in (DESIGN §3 and §6): routes without authentication, bearer routes
 * (the authorizer's verdict, the role check, the account's hourly limit) and multipart bodies,
 * which the pipeline parses and validates as it does JSON bodies. Route implementations echo what they are given.
 */

const NOW = new Date('2026-11-23T05:45:00Z');

function harness(group: FunctionGroup) {
  const consumed: string[] = [];
  const usage: UsageCounter = {
    consume: async (keyHash) => {
      consumed.push(keyHash);
      return { allowed: true, used: consumed.length };
    },
    used: async () => consumed.length,
  };
  const echo: RouteImplementation = async (request) => ({
    status: 200,
    body: {
      route: request.route.id, account: request.account ?? null, user: request.user ?? null, body: request.body ?? null, rawBody: request.rawBody.toString('utf8'),
      form: request.form ? { fields: request.form.fields, file: request.form.file.filename, files: request.form.files.map((f) => f.field) } : null,
    },
  });
  const implementations = Object.fromEntries(routesOfGroup(group).map((route) => [route.id, echo]));
  const handler = createGroupHandler(routesOfGroup(group), implementations, { usage: () => usage, clock: () => NOW, readForm: readRouteForm, idempotency: () => unusedIdempotencyStore });
  const call = async (event: APIGatewayProxyEvent) => {
    const result: APIGatewayProxyResult = await handler(event, {} as Context);
    return { ...result, json: JSON.parse(result.body) };
  };
  return { call, consumed };
}

function event(method: string, resource: string, authorizer: Record<string, unknown> | null, options: { headers?: Record<string, string>; body?: string } = {}): APIGatewayProxyEvent {
  return {
    httpMethod: method, resource, path: resource, headers: options.headers ?? {}, multiValueHeaders: {},
    body: options.body ?? null, isBase64Encoded: false, pathParameters: null, queryStringParameters: null,
    multiValueQueryStringParameters: null, stageVariables: null,
    requestContext: { requestId: 'req-7', stage: 'api', authorizer } as unknown as APIGatewayProxyEvent['requestContext'],
  } as APIGatewayProxyEvent;
}

describe('routes without authentication', () => {
  it('answers without a key, without counting and without RateLimit headers', async () => {
    const { call, consumed } = harness('docs');
    const result = await call(event('GET', '/health', null));
    expect(result.statusCode).toBe(200);
    expect(result.json).toMatchObject({ route: 'getHealth', account: null, user: null });
    expect(Object.keys(result.headers!).filter((name) => name.startsWith('RateLimit'))).toEqual([]);
    expect(consumed).toEqual([]);
  });

  it('ignores an API key authorizer context on such a route', async () => {
    const { call, consumed } = harness('docs');
    const result = await call(event('GET', '/health', { accountId: 'acct_1', tier: 'pro', keyHash: 'h' }));
    expect(result.json.account).toBeNull();
    expect(consumed).toEqual([]);
  });
});

describe('bearer routes', () => {
  const staff: BearerUser = { user_id: 'u-1', email: 'a@example.org', name: 'Ana', role: 'staff', account_id: 'acct_9', tier: 'free' };

  it('hands the verified user on and counts the request against the user\'s account', async () => {
    const { call, consumed } = harness('v1-training');
    const result = await call(event('GET', '/v1/courses', bearerAuthorizerContext({ ok: true, user: staff })));
    expect(result.statusCode).toBe(200);
    expect(result.json.user).toEqual(staff);
    expect(result.json.account).toEqual({ accountId: 'acct_9', tier: 'free', keyHash: 'account:acct_9' });
    expect(consumed).toEqual(['account:acct_9']);
    expect(result.headers).toMatchObject({ 'RateLimit-Limit': '25', 'RateLimit-Remaining': '24' });
  });

  it.each([
    ['the authorizer\'s refusal', bearerAuthorizerContext({ ok: false, detail: 'The token has expired.' }), 'The token has expired.'],
    ['no authorizer context', null, 'The request did not pass bearer authentication.'],
    ['an API key context on a bearer route', { accountId: 'acct_1', tier: 'pro', keyHash: 'h' }, 'The request did not pass bearer authentication.'],
  ])('answers %s with 401 invalid_token and the challenge, uncounted', async (_label, authorizer, detail) => {
    const { call, consumed } = harness('v1-training');
    const result = await call(event('GET', '/v1/courses', authorizer));
    expect([result.statusCode, result.json.code, result.json.detail]).toEqual([401, 'invalid_token', detail]);
    expect(result.headers).toMatchObject({ 'Content-Type': PROBLEM_CONTENT_TYPE, 'WWW-Authenticate': BEARER_CHALLENGE });
    expect(consumed).toEqual([]);
  });

  it('refuses a role the route does not admit with 403 insufficient_scope, uncounted', async () => {
    const { call, consumed } = harness('v1-training');
    const result = await call(event('GET', '/v1/courses', bearerAuthorizerContext({ ok: true, user: { ...staff, role: 'resident' } })));
    expect([result.statusCode, result.json.code]).toEqual([403, 'insufficient_scope']);
    expect(result.headers).toMatchObject({ 'WWW-Authenticate': INSUFFICIENT_SCOPE_CHALLENGE });
    expect(consumed).toEqual([]);
  });

  it('admits every role on a bearer route without a role list', async () => {
    const { call } = harness('v1-identity');
    const result = await call(event('GET', '/v1/users/profile', bearerAuthorizerContext({ ok: true, user: { ...staff, role: 'resident' } })));
    expect([result.statusCode, result.json.user.role]).toEqual([200, 'resident']);
  });
});

describe('multipart bodies', () => {
  const KEYED = { accountId: 'acct_1', tier: 'pro', keyHash: 'hash-pro' };
  const multipart = (body: string, contentType = 'multipart/form-data; boundary=XyZ') =>
    event('POST', '/compliance/gis-validation', KEYED, { headers: { 'Content-Type': contentType }, body });
  const BODY = '--XyZ\r\nContent-Disposition: form-data; name="coordinate_system"\r\n\r\nEPSG:3087\r\n--XyZ--\r\n';

  const WITH_FILE = '--XyZ\r\nContent-Disposition: form-data; name="coordinate_system"\r\n\r\nEPSG:3087\r\n'
    + '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="layer.geojson"\r\nContent-Type: application/geo+json\r\n\r\n{"type":"FeatureCollection","features":[]}\r\n--XyZ--\r\n';

  it('parses and validates the form before the route, which gets its fields and file part', async () => {
    const { call } = harness('assets');
    const result = await call(multipart(WITH_FILE));
    expect(result.statusCode).toBe(200);
    expect(result.json).toMatchObject({ route: 'validateGisData', body: null, form: { fields: { coordinate_system: 'EPSG:3087' }, file: 'layer.geojson', files: ['file'] } });
  });

  const filePart = (name: string, filename: string) => `--XyZ\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/xml\r\n\r\n<x/>\r\n`;

  it('hands the route the part named as its file, whatever the order of the parts', async () => {
    const { call } = harness('assets');
    const result = await call(multipart(filePart('metadata', 'layer.xml') + WITH_FILE));
    expect(result.statusCode).toBe(200);
    expect(result.json.form).toMatchObject({ file: 'layer.geojson', files: ['metadata', 'file'] });
  });

  it('names a file part the route does not take', async () => {
    const { call } = harness('assets');
    const result = await call(multipart(filePart('bogus', 'b.xml') + WITH_FILE));
    expect([result.statusCode, result.json.errors]).toEqual([400, [{ field: 'bogus', in: 'body', message: 'Unknown file part' }]]);
  });

  it('takes only as many files as the route names (one where it names no optional file)', async () => {
    const form = { fields: () => z.object({}), file: 'file' };
    const body = Buffer.from(`${filePart('file', 'a.csv')}${filePart('other', 'b.csv')}--XyZ--\r\n`);
    await expect(readRouteForm(form, body, 'multipart/form-data; boundary=XyZ', 1000)).rejects.toMatchObject({ code: 'invalid_request', message: 'Too many files in the form.' });
    const one = await readRouteForm(form, Buffer.from(`${filePart('file', 'a.csv')}--XyZ--\r\n`), 'multipart/form-data; boundary=XyZ', 1000);
    expect(one.files.map((f) => f.field)).toEqual(['file']);
  });

  it('answers a form without its file part, or with an unknown field, 400 listing every problem, before the route', async () => {
    const { call } = harness('assets');
    const missing = await call(multipart(BODY));
    expect([missing.statusCode, missing.json.code, missing.json.errors]).toEqual([400, 'invalid_request', [{ field: 'file', in: 'body', message: 'Required: the file, as a multipart file part' }]]);
    const extra = await call(multipart(WITH_FILE.replace('name="coordinate_system"', 'name="coordinate_systems"')));
    expect(extra.statusCode).toBe(400);
    expect(extra.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['coordinate_system', 'coordinate_systems']);
  });

  it('reads the media type around spaces before its parameters', async () => {
    const { call } = harness('assets');
    const result = await call(multipart(WITH_FILE, ' Multipart/Form-Data ; boundary=XyZ'));
    expect([result.statusCode, result.json.route]).toEqual([200, 'validateGisData']);
  });

  it('refuses an empty multipart body as malformed (not "JSON body required")', async () => {
    const { call } = harness('assets');
    const result = await call(multipart(''));
    expect([result.statusCode, result.json.code]).toEqual([400, 'malformed_body']);
  });

  it('refuses JSON sent to a multipart route with 415, naming the wanted type', async () => {
    const { call } = harness('assets');
    const result = await call(multipart('{"file": "x"}', 'application/json'));
    expect([result.statusCode, result.json.code]).toEqual([415, 'unsupported_media_type']);
    expect(result.json.detail).toBe('Send the body as multipart/form-data, not application/json.');
  });
});
