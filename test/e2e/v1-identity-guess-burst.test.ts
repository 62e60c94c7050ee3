import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestResponse } from '../helpers/local-app';
import { percentile, sampleHealthDuring } from '../helpers/health-latency';
import { recordSignInPauses, registerAndLogin, strongPassword } from '../helpers/v1-user';
import { identityDeps } from '../../functions/v1-identity/deps';
import { LOGIN_FAILURES_PER_EMAIL } from '../../shared/domain/identity/attempts';

/**
 * Guesses sent all at once, as an attacker would, over loopback: each attempt takes its slot before
 * the password (or reset code) is checked, so a burst of 40 has at most the limit checked, and the
 * server stays responsive meanwhile. A file of its own: the address limits are per client address.
 */
describe('/v1 guess bursts', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  /** Calls that reached the identity provider, i.e. guesses actually checked, by kind. */
  const checked = { signIn: 0, resetPassword: 0 };

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    recordSignInPauses();
    const provider = identityDeps().provider;
    const signIn = provider.signIn.bind(provider);
    const resetPassword = provider.resetPassword.bind(provider);
    provider.signIn = async (...args) => {
      checked.signIn += 1;
      return signIn(...args);
    };
    provider.resetPassword = async (...args) => {
      checked.resetPassword += 1;
      return resetPassword(...args);
    };
  });
  afterAll(async () => {
    await app.stop();
  });

  const BURST = 40;
  const login = (email: string, password: string) => app.request('POST', '/v1/users/login', { json: { email, password } });

  function expectThrottled(response: TestResponse) {
    expect(response.json.code).toBe('too_many_attempts');
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  }

  it('checks at most 10 of 40 parallel wrong passwords, refuses the right one sent next, and /health stays fast', async () => {
    const user = await registerAndLogin(app.request);
    checked.signIn = 0;
    const { result: answers, latencies, statuses } = await sampleHealthDuring(app.baseUrl, () => Promise.all(
      Array.from({ length: BURST }, (_, i) => login(user.email, `Wrong-guess-${i}-Aa1!`)),
    ));
    const byStatus = (status: number) => answers.filter((a) => a.status === status);
    expect(byStatus(401).length + byStatus(429).length).toBe(BURST);
    expect(byStatus(401).length).toBeLessThanOrEqual(LOGIN_FAILURES_PER_EMAIL.limit);
    expect(checked.signIn).toBe(byStatus(401).length);
    byStatus(429).forEach(expectThrottled);

    const right = await login(user.email, user.password);
    expect(right.status).toBe(429);
    expectThrottled(right);
    expect(right.json.access_token).toBeUndefined();
    expect(checked.signIn).toBe(byStatus(401).length);

    // Every checked guess is in the user's activity; none of the refused ones.
    const activity = await app.request('GET', '/v1/users/activity?limit=100', { headers: user.headers });
    expect(activity.json.data.filter((e: { type: string }) => e.type === 'sign_in_failed')).toHaveLength(byStatus(401).length);

    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(latencies.length).toBeGreaterThan(5);
    expect(percentile(latencies, 99)).toBeLessThan(500);
  });

  it('checks at most 10 of 40 parallel wrong reset codes, then refuses the mailed code', async () => {
    const user = await registerAndLogin(app.request);
    expect((await app.request('POST', '/v1/users/password/forgot', { json: { email: user.email } })).status).toBe(204);
    const mailbox = path.join(app.dataDir, 'cognito', 'mailbox.jsonl');
    const code = existsSync(mailbox)
      ? readFileSync(mailbox, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { to: string; code: string }).filter((m) => m.to === user.email).at(-1)?.code
      : undefined;
    expect(code).toMatch(/^\d{6}$/);
    checked.resetPassword = 0;
    const wrongCodes = Array.from({ length: BURST }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const { result: answers, latencies } = await sampleHealthDuring(app.baseUrl, () => Promise.all(
      wrongCodes.map((wrong) => app.request('POST', '/v1/users/password/reset', { json: { email: user.email, code: wrong, password: strongPassword() } })),
    ));
    const wrongAnswers = answers.filter((a) => a.status === 400);
    const throttled = answers.filter((a) => a.status === 429);
    expect(wrongAnswers.length + throttled.length).toBe(BURST);
    expect(wrongAnswers.length).toBeLessThanOrEqual(LOGIN_FAILURES_PER_EMAIL.limit);
    expect(checked.resetPassword).toBe(wrongAnswers.length);
    throttled.forEach(expectThrottled);

    const right = await app.request('POST', '/v1/users/password/reset', { json: { email: user.email, code, password: strongPassword() } });
    expect(right.status).toBe(429);
    expect(checked.resetPassword).toBe(wrongAnswers.length);
    // Code guesses and password guesses share the limit: sign-in is refused as well.
    expect((await login(user.email, user.password)).status).toBe(429);
    expect(percentile(latencies, 99)).toBeLessThan(500);
  });
});
