import { startTestApp } from '../helpers/local-app';
import { recordSignInPauses, registerAndLogin, type V1User } from '../helpers/v1-user';

/**
 * Repeated sign-in failures are slowed before they are refused. The pauses the API would wait are
 * recorded instead of waited (recordSignInPauses). Every request here comes from 127.0.0.1, so
 * the file has an app of its own and its tests run in order: the address's failures add up.
 */
describe('/v1 sign-in: slowed, then refused', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let pauses: number[];

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    pauses = recordSignInPauses();
  });
  afterAll(async () => {
    await app.stop();
  });

  /** One sign-in and the pause the API took before answering it (0 when none). */
  const signIn = async (email: string, password: string) => {
    const before = pauses.length;
    const response = await app.request('POST', '/v1/users/login', { json: { email, password } });
    const taken = pauses.slice(before);
    expect(taken.length).toBeLessThanOrEqual(1);
    return { response, pause: taken[0] ?? 0 };
  };
  const withoutInstance = ({ instance: _instance, ...body }: Record<string, unknown>) => body;

  it('answers the first three failures at once, then waits before the fourth attempt even with the right password', async () => {
    const user = await registerAndLogin(app.request);
    for (let i = 0; i < 3; i++) {
      const { response, pause } = await signIn(user.email, `Wrong-password-${i}!`);
      expect(response.status).toBe(401);
      expect(pause).toBe(0);
    }
    const right = await signIn(user.email, user.password);
    expect(right.pause).toBe(1000);
    expect(right.response.status).toBe(200);
    // A successful sign-in gives back only its own slot: the three failures still count, so the next attempt is slowed too.
    expect((await signIn(user.email, 'Wrong-password-x!')).pause).toBe(1000);
  });

  it('slows an unknown email exactly like a wrong password (status, body and pauses), then refuses both with 429', async () => {
    const known: V1User = await registerAndLogin(app.request);
    const unknownEmail = `nobody-${Date.now()}@example.org`;
    const knownPauses: number[] = [];
    const unknownPauses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const wrong = await signIn(known.email, `Wrong-password-${i}!`);
      const unknown = await signIn(unknownEmail, `Wrong-password-${i}!`);
      expect(wrong.response.status).toBe(401);
      expect(unknown.response.status).toBe(401);
      expect(withoutInstance(wrong.response.json)).toEqual(withoutInstance(unknown.response.json));
      expect(wrong.response.json.code).toBe('invalid_credentials');
      knownPauses.push(wrong.pause);
      unknownPauses.push(unknown.pause);
    }
    // Three free failures, then 1 s doubling to the 4 s ceiling.
    expect(knownPauses).toEqual([0, 0, 0, 1000, 2000, 4000, 4000, 4000, 4000, 4000]);
    expect(unknownPauses).toEqual(knownPauses);

    const refusedKnown = await signIn(known.email, known.password);
    const refusedUnknown = await signIn(unknownEmail, known.password);
    for (const { response, pause } of [refusedKnown, refusedUnknown]) {
      expect(response.status).toBe(429);
      expect(response.json.code).toBe('too_many_attempts');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      // The refusal answers at once: waiting would only hold the client.
      expect(pause).toBe(0);
    }
    // The two emails' windows opened a moment apart, so their remaining seconds may differ by one.
    const seconds = (json: Record<string, unknown>) => Number(/in (\d+) seconds/.exec(String(json.detail))?.[1]);
    const [knownLeft, unknownLeft] = [refusedKnown, refusedUnknown].map(({ response }) => seconds(response.json));
    expect(knownLeft).toBeGreaterThan(14 * 60);
    expect(Math.abs(knownLeft - unknownLeft)).toBeLessThanOrEqual(1);
    const sameShape = ({ detail: _detail, ...body }: Record<string, unknown>) => withoutInstance(body);
    expect(sameShape(refusedKnown.response.json)).toEqual(sameShape(refusedUnknown.response.json));
  });

  it('slows a fresh email from an address past 20 failures', async () => {
    // 4 failures in the first test and 20 in the second come from this address.
    const { response, pause } = await signIn(`fresh-${Date.now()}@example.org`, 'Wrong-password-1!');
    expect(response.status).toBe(401);
    expect(pause).toBe(4000);
  });
});
