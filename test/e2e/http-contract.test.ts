import { startTestApp } from '../helpers/local-app';

/** Cross-cutting HTTP behaviour over the local gateway: auth, tiers, limits, errors. */
describe('HTTP contract (local gateway)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers 401 missing_api_key without a key, in problem+json', async () => {
    const res = await app.request('GET', '/grants/deadlines');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json).toMatchObject({ status: 401, code: 'missing_api_key', title: expect.any(String), instance: expect.any(String) });
  });

  it('answers 403 invalid_api_key for an unknown key and a malformed one', async () => {
    for (const key of ['vac_' + 'x'.repeat(32), 'not-a-key']) {
      const res = await app.request('GET', '/grants/deadlines', { key });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('invalid_api_key');
    }
  });

  it('answers 404 not_found for an unknown route, in the same format', async () => {
    const res = await app.request('GET', '/no/such/route', { key: app.keys.pro });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json.code).toBe('not_found');
  });

  it('gates pro routes for free keys with 403 subscription_required', async () => {
    const res = await app.request('GET', '/assessments', { key: app.keys.free });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 'subscription_required', required_tier: 'pro', current_tier: 'free' });
    expect(res.headers.get('ratelimit-limit')).toBe('25');
  });

  it('lists each bad field with 400 invalid_request', async () => {
    const res = await app.request('GET', '/resources?action=list&limit=0&sort=color', { key: app.keys.pro });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_request');
    expect(res.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'sort']);
  });

  it('answers 400 malformed_body for broken JSON and 415 for a wrong content type', async () => {
    const broken = await app.request('POST', '/grants/eligibility', { key: app.keys.pro, body: '{"jurisdiction":', headers: { 'Content-Type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.json.code).toBe('malformed_body');
    const wrongType = await app.request('POST', '/grants/eligibility', { key: app.keys.pro, body: 'jurisdiction=Liberty', headers: { 'Content-Type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.json.code).toBe('unsupported_media_type');
  });

  it('answers 413 payload_too_large above the route limit and above the gateway limit', async () => {
    const routeLimit = await app.request('POST', '/grants/eligibility', { key: app.keys.pro, json: { jurisdiction: 'x'.repeat(20_000) } });
    expect(routeLimit.status).toBe(413);
    expect(routeLimit.json.code).toBe('payload_too_large');
    const gatewayLimit = await app.request('POST', '/grants/eligibility', { key: app.keys.pro, body: Buffer.alloc(11 * 1024 * 1024, 32), headers: { 'Content-Type': 'application/json' } });
    expect(gatewayLimit.status).toBe(413);
    expect(gatewayLimit.json.code).toBe('payload_too_large');
  });

  it('never returns a stack trace', async () => {
    const res = await app.request('POST', '/grants/eligibility', { key: app.keys.pro, body: '[', headers: { 'Content-Type': 'application/json' } });
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
