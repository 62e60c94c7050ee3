import { startTestApp } from '../helpers/local-app';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { openAccountWithKey } from '../../shared/domain/api-keys';
import type { Tier } from '../../shared/domain/tiers';

describe('rate limits, usage and grants over HTTP', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  async function freshKey(tier: Tier): Promise<string> {
    return (await openAccountWithKey(new DynamoAccountStore(), `test ${tier}`, tier, new Date())).key;
  }

  it('lets exactly 25 of 40 parallel requests through on a fresh Free key', async () => {
    const key = await freshKey('free');
    const responses = await Promise.all(Array.from({ length: 40 }, () => app.request('GET', '/grants/deadlines', { key })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const limited = responses.find((r) => r.status === 429)!;
    expect(limited.json.code).toBe('rate_limit_exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('reports usage from the same counter, without counting the usage read itself', async () => {
    const key = await freshKey('pro');
    await app.request('GET', '/grants/deadlines', { key });
    await app.request('GET', '/grants/deadlines', { key });
    const usage = await app.request('GET', '/account/usage', { key });
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({ requests_used: 2, limit: 5000, remaining: 4998, subscription_tier: 'pro' });
    expect(Date.parse(usage.json.reset_time) - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(usage.headers.get('ratelimit-limit')).toBe('5000');
    expect(usage.headers.get('ratelimit-remaining')).toBe('4998');
    const again = await app.request('GET', '/account/usage', { key });
    expect(again.json.requests_used).toBe(2);
  });

  it('answers the usage route when the Free quota is spent, and keeps refusing other routes', async () => {
    const key = await freshKey('free');
    for (let i = 0; i < 25; i += 1) expect((await app.request('GET', '/grants/deadlines', { key })).status).toBe(200);
    expect((await app.request('GET', '/grants/deadlines', { key })).status).toBe(429);
    const usage = await app.request('GET', '/account/usage', { key });
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({ requests_used: 25, limit: 25, remaining: 0, subscription_tier: 'free' });
    expect(usage.headers.get('ratelimit-remaining')).toBe('0');
    expect((await app.request('GET', '/grants/deadlines', { key })).status).toBe(429);
  });

  it('does not charge refusals for the tier (403) to the hourly quota', async () => {
    const key = await freshKey('free');
    expect((await app.request('GET', '/grants/deadlines', { key })).status).toBe(200);
    const proRoutes: Array<[string, string, unknown?]> = [
      ['GET', '/assessments'],
      ['POST', '/grants/ranking', { costs: { total_cost: 10, requested_amount: 1 } }],
      ['GET', '/account/webhooks'],
    ];
    for (let round = 0; round < 10; round += 1) {
      for (const [method, route, json] of proRoutes) {
        const refused = await app.request(method, route, { key, json });
        expect(refused.status).toBe(403);
        expect(refused.json.code).toBe('subscription_required');
        expect(refused.headers.get('ratelimit-remaining')).toBe('24');
      }
    }
    const usage = await app.request('GET', '/account/usage', { key });
    expect(usage.json).toMatchObject({ requests_used: 1, remaining: 24 });
  });

  it('does not limit Enterprise keys and reports a null limit', async () => {
    const key = await freshKey('enterprise');
    await Promise.all(Array.from({ length: 30 }, () => app.request('GET', '/grants/deadlines', { key })));
    const usage = await app.request('GET', '/account/usage', { key });
    expect(usage.json).toMatchObject({ requests_used: 30, limit: null, remaining: null, subscription_tier: 'enterprise' });
    expect(usage.headers.get('ratelimit-limit')).toBeNull();
  });

  it('answers the deadlines with days remaining from a given date', async () => {
    const res = await app.request('GET', '/grants/deadlines?date=2027-08-02', { key: app.keys.free });
    expect(res.status).toBe(200);
    expect(res.json.data.map((d: { id: string; next_date: string; days_remaining: number }) => [d.id, d.next_date, d.days_remaining])).toEqual([
      ['project_proposals', '2027-09-01', 30],
      ['statewide_plan', '2027-12-01', 121],
    ]);
    const bad = await app.request('GET', '/grants/deadlines?date=2027-02-30', { key: app.keys.free });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe('date');
    // Before the program there were no such deadlines; a year past 9999 cannot be written as a date.
    for (const [day, message] of [['2020-12-31', 's. 380.093 set these deadlines from 2021: give a day in 2021 or later'], ['9999-12-31', 'Give a day in 2100 or earlier']]) {
      const outside = await app.request('GET', `/grants/deadlines?date=${day}`, { key: app.keys.free });
      expect([outside.status, outside.json.errors]).toEqual([400, [{ field: 'date', in: 'query', message }]]);
    }
    expect((await app.request('GET', '/grants/deadlines?date=2100-12-31', { key: app.keys.free })).json.data.map((d: { next_date: string }) => d.next_date)).toEqual(['2101-09-01', '2101-12-01']);
  });

  it('decides eligibility for a Florida county and refuses a non-Florida one without an error', async () => {
    const liberty = await app.request('POST', '/grants/eligibility', { key: app.keys.free, json: { jurisdiction: 'Liberty County' } });
    expect(liberty.status).toBe(200);
    expect(liberty.json).toMatchObject({ eligible: true, tier: 'financially_disadvantaged_small_community', cost_share_percentage: 0, state_share_percentage: 100 });
    expect(liberty.json.state_income).toMatchObject({ per_capita_personal_income_usd: 68703, year: 2023 });
    const elsewhere = await app.request('POST', '/grants/eligibility', { key: app.keys.free, json: { jurisdiction: 'Cook County, Illinois' } });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.json.eligible).toBe(false);
  });

  it('rejects a malformed eligibility body, naming each field', async () => {
    const res = await app.request('POST', '/grants/eligibility', { key: app.keys.free, json: { jurisdiction: 7, population: -1, extra: true } });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['extra', 'jurisdiction', 'population']);
  });

  it('checks the county sent with a jurisdiction: a Florida county the place lies in', async () => {
    const eligibility = (json: Record<string, unknown>) => app.request('POST', '/grants/eligibility', { key: app.keys.free, json });
    expect((await eligibility({ jurisdiction: 'Key West', county: 'Monroe' })).json.jurisdiction).toMatchObject({ name: 'City of Key West', county: 'Monroe' });
    for (const [json, message] of [
      [{ jurisdiction: 'Key West', county: 'Gotham' }, '"Gotham" is not a Florida county.'],
      [{ jurisdiction: 'Key West', county: 'Leon' }, '"Key West" is not in Leon County: it names City of Key West (Monroe County).'],
      [{ jurisdiction: 'Liberty County', county: 'Leon' }, 'Liberty County is not in Leon County.'],
    ] as const) {
      const res = await eligibility(json);
      expect([res.status, res.json.code, res.json.errors]).toEqual([400, 'invalid_request', [{ field: 'county', in: 'body', message }]]);
    }
  });

  it('asks which one is meant when a name is both a county and a city', async () => {
    const res = await app.request('POST', '/grants/eligibility', { key: app.keys.free, json: { jurisdiction: 'Alachua' } });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].field).toBe('jurisdiction_type');
  });
});
