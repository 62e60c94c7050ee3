import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiProblemError, createApiClient, expectData, isProblem } from '../../clients/typescript/src';
import { startTestApp } from '../helpers/local-app';

/** The typed client and the generated collection against the real local API. */
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('typed client against the local API', () => {
  it('creates an assessment once under its generated idempotency key, reads it and updates it', async () => {
    const keys: string[] = [];
    const client = createApiClient({
      baseUrl: app.baseUrl,
      apiKey: app.keys.pro,
      newIdempotencyKey: () => {
        keys.push('typed-client-assessment-1');
        return keys[keys.length - 1];
      },
    });
    const body = {
      jurisdiction: 'Monroe County',
      type: 'initial' as const,
      scope: 'full_jurisdiction' as const,
      timeline: { start_date: '2026-01-15', target_completion_date: '2027-06-30' },
    };
    const created = expectData(await client.POST('/assessments', { body }));
    expect(keys).toEqual(['typed-client-assessment-1']);
    expect(created.status).toBe('draft');
    // The same key again answers the first response: no second assessment.
    const again = expectData(await client.POST('/assessments', { body, params: { header: { 'idempotency-key': 'typed-client-assessment-1' } } }));
    expect(again.assessment_id).toBe(created.assessment_id);

    const read = await client.GET('/assessments/{assessment_id}', { params: { path: { assessment_id: created.assessment_id } } });
    expect(expectData(read).jurisdiction).toBeDefined();
    const etag = read.response.headers.get('ETag');
    expect(etag).toBe('"1"');

    const updated = expectData(
      await client.PATCH('/assessments/{assessment_id}', {
        params: { path: { assessment_id: created.assessment_id }, header: { 'if-match': etag! } },
        body: { phase: 'data_collection', completion_percentage: 20 },
      }),
    );
    expect(updated.version).toBe(2);
    expect(updated.completion_percentage).toBe(20);
  });

  it('signs in to /v1 and creates an API key that the assessment API accepts', async () => {
    const anonymous = createApiClient({ baseUrl: app.baseUrl });
    const email = 'typed.client@example.org';
    const password = 'Correct-Horse-Battery-9';
    expectData(await anonymous.POST('/v1/users/register', { body: { email, password, name: 'Typed Client', role: 'consultant' } }));
    const tokens = expectData(await anonymous.POST('/v1/users/login', { body: { email, password } }));
    const user = createApiClient({ baseUrl: app.baseUrl, accessToken: tokens.access_token });
    const key = expectData(await user.POST('/v1/keys', { body: { name: 'GIS workstation' } }));
    // The key's value is given once; a replay of the same Idempotency-Key answers null.
    expect(key.key).toMatch(/^\S{20,}$/);
    const keyed = createApiClient({ baseUrl: app.baseUrl, apiKey: key.key ?? '' });
    expect(expectData(await keyed.GET('/account/usage')).subscription_tier).toBe('free');
  });

  it('answers problems with their stable code', async () => {
    const free = createApiClient({ baseUrl: app.baseUrl, apiKey: app.keys.free });
    const refused = await free.GET('/assessments');
    expect(refused.response.status).toBe(403);
    expect(isProblem(refused.error) && refused.error.code).toBe('subscription_required');

    const pro = createApiClient({ baseUrl: app.baseUrl, apiKey: app.keys.pro });
    const missing = await pro.GET('/assessments/{assessment_id}', { params: { path: { assessment_id: 'va_00000000000000000000000000' } } });
    expect(() => expectData(missing)).toThrow(ApiProblemError);
    expect(isProblem(missing.error) && missing.error.code).toBe('not_found');
  });
});

interface CollectionRequest {
  method: string;
  auth: { type: string };
  header: Array<{ key: string; value: string }>;
  url: { path: string[]; query?: Array<{ key: string; value: string; disabled: boolean }>; variable?: Array<{ key: string; value: string }> };
  body?: { mode: string; raw?: string };
}

describe('generated collection', () => {
  it('replays every keyed JSON request with its documented example and is never answered 5xx', async () => {
    const collection = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'clients', 'postman', 'va-compliance-api.postman_collection.json'), 'utf8'));
    const requests: Array<{ name: string; request: CollectionRequest }> = collection.item.flatMap((folder: { item: unknown[] }) => folder.item);
    expect(requests.length).toBeGreaterThan(60);
    const statuses: Record<string, number> = {};
    for (const { name, request } of requests) {
      // Bearer routes need a signed-in user and form uploads a file: other tests walk those.
      if (request.auth.type === 'bearer' || (request.body && request.body.mode !== 'raw')) continue;
      const route = request.url.path
        .map((segment) => (segment.startsWith(':') ? encodeURIComponent(request.url.variable?.find((v) => v.key === segment.slice(1))?.value ?? '') : segment))
        .join('/');
      const query = new URLSearchParams((request.url.query ?? []).filter((q) => !q.disabled).map((q): [string, string] => [q.key, q.value]));
      const headers = Object.fromEntries(request.header.map((h) => [h.key, h.value]));
      const answer = await app.request(request.method, `/${route}${query.size > 0 ? `?${query}` : ''}`, {
        key: request.auth.type === 'apikey' ? app.keys.enterprise : undefined,
        headers,
        body: request.body?.raw,
      });
      statuses[`${request.method} /${request.url.path.join('/')} (${name})`] = answer.status;
      expect({ name, status: answer.status < 500 }).toEqual({ name, status: true });
    }
    const statusOf = (operation: string) => Object.entries(statuses).find(([key]) => key.startsWith(`${operation} (`))?.[1];
    expect(statusOf('GET /health')).toBe(200);
    expect(statusOf('POST /assessments')).toBe(201);
    expect(statusOf('GET /compliance/checklist')).toBe(200);
    expect(statusOf('POST /grants/eligibility')).toBe(200);
  });
});
