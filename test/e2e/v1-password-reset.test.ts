import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { startTestApp } from '../helpers/local-app';
import { recordSignInPauses, registerAndLogin, strongPassword, type V1User } from '../helpers/v1-user';

/**
 * Password reset over HTTP against the Cognito emulator: the code it would email is read from the
 * local mailbox (`$DATA_DIR/cognito/mailbox.jsonl`), as a developer on the machine reads it.
 */
describe('/v1 password reset over HTTP', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let mailbox: string;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    recordSignInPauses();
    mailbox = path.join(app.dataDir, 'cognito', 'mailbox.jsonl');
  });
  afterAll(async () => {
    await app.stop();
  });

  /** The codes mailed to `email`, oldest first. */
  function codesFor(email: string): string[] {
    if (!existsSync(mailbox)) return [];
    return readFileSync(mailbox, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { to: string; code: string; sent_at: string })
      .filter((mail) => mail.to === email).map((mail) => mail.code);
  }

  const forgot = (email: string) => app.request('POST', '/v1/users/password/forgot', { json: { email } });
  const reset = (email: string, code: string, password: string) => app.request('POST', '/v1/users/password/reset', { json: { email, code, password } });
  const login = (email: string, password: string) => app.request('POST', '/v1/users/login', { json: { email, password } });

  it('mails a code that sets a new password once: the old password stops working, the reset is in the activity', async () => {
    const user: V1User = await registerAndLogin(app.request);
    const asked = await forgot(user.email);
    expect([asked.status, asked.text]).toEqual([204, '']);
    const [code] = codesFor(user.email);
    expect(code).toMatch(/^\d{6}$/);
    // Codes are secrets: the mailbox is its owner's alone.
    expect(statSync(mailbox).mode & 0o777).toBe(0o600);

    const weak = await reset(user.email, code!, 'short');
    expect([weak.status, weak.json.code]).toEqual([400, 'weak_password']);
    const wrong = await reset(user.email, code === '000000' ? '000001' : '000000', strongPassword());
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'code', in: 'body', message: 'Wrong or expired code' }] });

    const password = strongPassword();
    const done = await reset(user.email, code!, password);
    expect([done.status, done.text]).toEqual([204, '']);
    expect((await login(user.email, user.password)).status).toBe(401);
    const signedIn = await login(user.email, password);
    expect(signedIn.status).toBe(200);
    // The code is spent.
    expect((await reset(user.email, code!, strongPassword())).status).toBe(400);

    const activity = await app.request('GET', '/v1/users/activity', { headers: { Authorization: `Bearer ${signedIn.json.access_token}` } });
    expect(activity.json.data.map((event: { type: string }) => event.type)).toContain('password_reset');
  });

  it('answers an unknown email alike and mails nothing', async () => {
    const email = `nobody-${Date.now()}@example.org`;
    const asked = await forgot(email);
    expect([asked.status, asked.text]).toEqual([204, '']);
    expect(codesFor(email)).toEqual([]);
    const wrong = await reset(email, '123456', strongPassword());
    expect([wrong.status, wrong.json.code]).toEqual([400, 'invalid_request']);
  });

  it('mails at most 5 codes per email an hour, confirmation and reset codes together', async () => {
    const user = await registerAndLogin(app.request);
    expect((await app.request('POST', '/v1/users/confirm/resend', { json: { email: user.email } })).status).toBe(204);
    for (let i = 0; i < 4; i++) expect((await forgot(user.email)).status).toBe(204);
    const refused = await forgot(user.email);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'too_many_attempts', detail: expect.stringContaining('Too many codes asked for this email.') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    // Locally the resend sends nothing (users are confirmed at registration): four reset codes.
    expect(codesFor(user.email)).toHaveLength(4);
  });

  it('counts wrong codes as failed sign-ins: after 10 within 15 minutes both reset and sign-in are refused', async () => {
    const user = await registerAndLogin(app.request);
    for (let i = 0; i < 10; i++) expect((await reset(user.email, '000000', strongPassword())).status).toBe(400);
    const refused = await reset(user.email, '000000', strongPassword());
    expect([refused.status, refused.json.code]).toEqual([429, 'too_many_attempts']);
    expect((await login(user.email, user.password)).status).toBe(429);
  });

  it('refuses a malformed body', async () => {
    for (const [route, json] of [
      ['/v1/users/password/forgot', {}],
      ['/v1/users/password/forgot', { email: 'not-an-email' }],
      ['/v1/users/password/reset', { email: 'a@example.org', code: 'abc', password: strongPassword() }],
      ['/v1/users/password/reset', { email: 'a@example.org', code: '123456' }],
      ['/v1/users/password/reset', { email: 'a@example.org', code: '123456', password: strongPassword(), extra: 1 }],
    ] as const) {
      const refused = await app.request('POST', route, { json });
      expect([refused.status, refused.json.code]).toEqual([400, 'invalid_request']);
    }
  });
});
