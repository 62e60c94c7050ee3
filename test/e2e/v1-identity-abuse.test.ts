import { startTestApp } from '../helpers/local-app';
import { recordSignInPauses, strongPassword } from '../helpers/v1-user';

/** Limits per client address: every request of this file comes from 127.0.0.1, so it has an app of its own. */
describe('/v1 sign-up and sign-in limits per client address', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    // Failures past the slowdown's threshold are paused; record the pauses instead of waiting them.
    recordSignInPauses();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('allows 20 registrations per hour from one address, then answers 429 too_many_attempts with Retry-After', async () => {
    const register = (i: number) => app.request('POST', '/v1/users/register', {
      json: { email: `limit-${i}-${Date.now()}@example.org`, password: strongPassword(), name: `User ${i}`, role: 'resident' },
    });
    for (let i = 0; i < 20; i++) expect((await register(i)).status).toBe(201);
    const refused = await register(20);
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('too_many_attempts');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(55 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
  });

  it('refuses every sign-in from an address after 50 failures within 15 minutes, whatever the email', async () => {
    const login = await app.request('POST', '/v1/users/login', { json: { email: 'limit-0-x@example.org', password: 'Wrong-password-1!' } });
    expect(login.status).toBe(401);
    for (let i = 1; i < 50; i++) {
      // Five failures per email at most, so no single email reaches its own limit of 10.
      const failed = await app.request('POST', '/v1/users/login', { json: { email: `spray-${i % 10}@example.org`, password: `Wrong-password-${i}!` } });
      expect(failed.status).toBe(401);
    }
    const blocked = await app.request('POST', '/v1/users/login', { json: { email: 'someone-else@example.org', password: 'Wrong-password-x!' } });
    expect(blocked.status).toBe(429);
    expect(blocked.json.code).toBe('too_many_attempts');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  });
});
