import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { openAccountWithKey } from '../../shared/domain/api-keys';
import { startTestApp } from '../helpers/local-app';
import { registerAndLogin } from '../helpers/v1-user';

jest.setTimeout(120_000);

/**
 * The usage plans' throttles per usage key, as API Gateway applies them: every account has its
 * own key, so one customer past its burst is throttled and another of the same tier is not.
 * Rates are near zero here, so no token refills while the test runs: the figures are exact.
 */
const BURST = 3;
const NO_REFILL = { rateLimit: 0.0001, burstLimit: BURST };
const usagePlans = {
  throttles: { free: NO_REFILL, pro: NO_REFILL, enterprise: NO_REFILL },
  v1Throttles: { free: { ...NO_REFILL, burstLimit: BURST + 1 }, pro: NO_REFILL, enterprise: NO_REFILL },
};

describe('usage-plan throttles per customer (local gateway)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false, usagePlans });
  });
  afterAll(() => app?.stop());

  it('throttles one Free account past its burst and not another Free account', async () => {
    const accounts = new DynamoAccountStore();
    const [busy, quiet] = await Promise.all([
      openAccountWithKey(accounts, 'Busy County', 'free', new Date()),
      openAccountWithKey(accounts, 'Quiet City', 'free', new Date()),
    ]);
    expect(busy.account.usage_key).not.toBe(quiet.account.usage_key);
    const statuses: number[] = [];
    for (let i = 0; i <= BURST; i++) statuses.push((await app.request('GET', '/grants/deadlines', { headers: { 'X-API-Key': busy.key } })).status);
    expect(statuses).toEqual([...Array(BURST).fill(200), 429]);
    const refused = await app.request('GET', '/grants/deadlines', { headers: { 'X-API-Key': busy.key } });
    expect(refused.json).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((await app.request('GET', '/grants/deadlines', { headers: { 'X-API-Key': quiet.key } })).status).toBe(200);
  });

  it('counts every key of one account against the account, as one usage key', async () => {
    const user = await registerAndLogin(app.request);
    const keys: string[] = [];
    for (const name of ['first', 'second']) {
      const issued = await app.request('POST', '/v1/keys', { headers: user.headers, json: { name } });
      expect(issued.status).toBe(201);
      keys.push(issued.json.key);
    }
    const statuses: number[] = [];
    for (let i = 0; i <= BURST; i++) statuses.push((await app.request('GET', '/grants/deadlines', { headers: { 'X-API-Key': keys[i % 2]! } })).status);
    expect(statuses).toEqual([...Array(BURST).fill(200), 429]);
  });

  it('throttles a /v1 user\'s method per account, and leaves another Free user\'s account alone', async () => {
    const [busy, quiet] = [await registerAndLogin(app.request), await registerAndLogin(app.request)];
    const statuses: number[] = [];
    for (let i = 0; i <= BURST + 1; i++) statuses.push((await app.request('GET', '/v1/users/profile', { headers: busy.headers })).status);
    expect(statuses).toEqual([...Array(BURST + 1).fill(200), 429]);
    expect((await app.request('GET', '/v1/users/profile', { headers: quiet.headers })).status).toBe(200);
    // Another /v1 method has its own bucket, as a method throttle in a usage plan does.
    expect((await app.request('GET', '/v1/keys', { headers: busy.headers })).status).toBe(200);
  });
});
