import { generateKeyPair, importJWK, SignJWT, decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { randomUUID, scryptSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startTestApp } from '../helpers/local-app';
import { bearerHeaders, recordSignInPauses, registerAndLogin, strongPassword, type V1User } from '../helpers/v1-user';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoSessionRevocationStore } from '../../shared/adapters/user-store';
import { dynamo } from '../../shared/adapters/aws-clients';
import { logger } from '../../shared/observability/logger';

/** The key the emulator's package ships (and would sign with by default): anyone holding the package has it. */
const PACKAGE_KEY = JSON.parse(readFileSync(path.join(path.dirname(require.resolve('cognito-local')), 'keys', 'cognitoLocal.private.json'), 'utf8')).jwk as JWK;

describe('/v1 identity over HTTP', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let alice: V1User;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    // Repeated failures below are slowed; the pauses are recorded, not waited (v1-identity-slowdown.test.ts checks them).
    recordSignInPauses();
    alice = await registerAndLogin(app.request, { name: 'Alice Mangrove', role: 'staff', organization: 'City of Cedar Key', county_fips: '12075' });
  });
  afterAll(async () => {
    await app.stop();
  });

  describe('register', () => {
    it('creates an active user (local mode confirms at once) with the submitted fields', async () => {
      const email = `new-${Date.now()}@example.org`;
      const response = await app.request('POST', '/v1/users/register', { json: { email, password: strongPassword(), name: 'Nina Keys', role: 'consultant' } });
      expect(response.status).toBe(201);
      expect(response.json).toMatchObject({ email, name: 'Nina Keys', role: 'consultant', status: 'active' });
      expect(response.json.user_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(response.json.created_at)).not.toBeNaN();
    });

    it('answers 409 email_taken for an email already registered, whatever its case', async () => {
      const response = await app.request('POST', '/v1/users/register', { json: { email: alice.email.toUpperCase(), password: strongPassword(), name: 'Copy', role: 'resident' } });
      expect(response.status).toBe(409);
      expect(response.json.code).toBe('email_taken');
    });

    it.each([
      ['too short', 'Ab1!short'],
      ['no symbol', 'Abcdefghijk12'],
      ['no upper case', 'abcdefghijk1!'],
      ['no digit', 'Abcdefghijkl!'],
    ])('answers 400 weak_password for a password with %s, without echoing it', async (_case, password) => {
      const response = await app.request('POST', '/v1/users/register', { json: { email: `weak-${Date.now()}@example.org`, password, name: 'W', role: 'resident' } });
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('weak_password');
      expect(response.text).not.toContain(password);
    });

    it('refuses admin as a self-chosen role, unknown fields and a county outside Florida', async () => {
      const base = { email: `x-${Date.now()}@example.org`, password: strongPassword(), name: 'X' };
      for (const json of [{ ...base, role: 'admin' }, { ...base, role: 'resident', is_admin: true }, { ...base, role: 'resident', county_fips: '13001' }, { ...base, role: 'resident', county_fips: '12999' }]) {
        const response = await app.request('POST', '/v1/users/register', { json });
        expect(response.status).toBe(400);
        expect(response.json.code).toBe('invalid_request');
      }
    });

    it('takes an email of up to 128 characters, the user pool\'s limit for a user name, and names the field beyond it', async () => {
      const address = (length: number) => {
        const local = `long-${Date.now()}`;
        const labels = length - local.length - '@'.length - '.example.org'.length; // two labels and the dot between them
        const first = Math.floor((labels - 1) / 2);
        return `${local}@${'d'.repeat(first)}.${'e'.repeat(labels - 1 - first)}.example.org`;
      };
      expect(address(128)).toHaveLength(128);
      // Sign-in shares the field (and does not spend this file's registrations from one address):
      // 128 characters pass the schema and reach the user pool, which knows no such user.
      const known = await app.request('POST', '/v1/users/login', { json: { email: address(128), password: strongPassword() } });
      expect(known.status).toBe(401);
      const tooLong = address(129);
      for (const [route, json] of [
        ['/v1/users/register', { email: tooLong, password: strongPassword(), name: 'Longer', role: 'resident' }],
        ['/v1/users/login', { email: tooLong, password: strongPassword() }],
        ['/v1/users/confirm', { email: tooLong, code: '123456' }],
      ] as const) {
        const refused = await app.request('POST', route, { json });
        expect(refused.status).toBe(400);
        expect(refused.json.errors).toEqual([expect.objectContaining({ field: 'email', in: 'body' })]);
      }
    });
  });

  describe('confirm', () => {
    it('answers a wrong code and an unknown email alike with 400, and a malformed code as invalid', async () => {
      const wrong = await app.request('POST', '/v1/users/confirm', { json: { email: alice.email, code: '000000' } });
      const unknown = await app.request('POST', '/v1/users/confirm', { json: { email: 'nobody-here@example.org', code: '000000' } });
      for (const response of [wrong, unknown]) {
        expect(response.status).toBe(400);
        expect(response.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'code', in: 'body', message: 'Wrong or expired code' }] });
      }
      expect((await app.request('POST', '/v1/users/confirm', { json: { email: alice.email, code: 'abc' } })).status).toBe(400);
      // The confirmed user is untouched.
      expect((await app.request('POST', '/v1/users/login', { json: { email: alice.email, password: alice.password } })).status).toBe(200);
    });
  });

  describe('a new confirmation code', () => {
    it('answers 204 alike for a registered and an unknown email, then 429 from the sixth request for one email within the hour', async () => {
      const { email, password } = alice;
      const unknown = await app.request('POST', '/v1/users/confirm/resend', { json: { email: `nobody-${Date.now()}@example.org` } });
      expect([unknown.status, unknown.text]).toEqual([204, '']);
      for (let i = 0; i < 5; i++) {
        const sent = await app.request('POST', '/v1/users/confirm/resend', { json: { email: i % 2 ? email.toUpperCase() : email } });
        expect([sent.status, sent.text]).toEqual([204, '']);
      }
      const refused = await app.request('POST', '/v1/users/confirm/resend', { json: { email } });
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ code: 'too_many_attempts', detail: expect.stringContaining('Too many codes asked for this email.') });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
      // Local users are confirmed at registration: the user still signs in.
      expect((await app.request('POST', '/v1/users/login', { json: { email, password } })).status).toBe(200);
    });

    it('refuses a missing or malformed email and unknown fields', async () => {
      for (const json of [{}, { email: 'not-an-email' }, { email: 'a@example.org', code: '123456' }]) {
        const refused = await app.request('POST', '/v1/users/confirm/resend', { json });
        expect(refused.status).toBe(400);
        expect(refused.json.code).toBe('invalid_request');
      }
    });
  });

  describe('login', () => {
    it('returns Bearer tokens valid one hour, not cacheable', async () => {
      const response = await app.request('POST', '/v1/users/login', { json: { email: alice.email, password: alice.password } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.json.token_type).toBe('Bearer');
      expect(response.json.expires_in).toBe(3600);
      const claims = decodeJwt(response.json.access_token);
      expect(claims.token_use).toBe('access');
      expect(claims['cognito:groups']).toEqual(['staff']);
      expect(typeof response.json.refresh_token).toBe('string');
    });

    it('answers an unknown email exactly like a wrong password', async () => {
      const wrong = await app.request('POST', '/v1/users/login', { json: { email: alice.email, password: 'Wrong-password-1!' } });
      const unknown = await app.request('POST', '/v1/users/login', { json: { email: 'nobody-here@example.org', password: 'Wrong-password-1!' } });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      const { instance: _a, ...wrongBody } = wrong.json;
      const { instance: _b, ...unknownBody } = unknown.json;
      expect(wrongBody).toEqual(unknownBody);
      expect(wrongBody.code).toBe('invalid_credentials');
    });

    it('refreshes with the refresh token; after logout the refresh token no longer works', async () => {
      const user = await registerAndLogin(app.request);
      const refreshed = await app.request('POST', '/v1/users/login', { json: { grant_type: 'refresh_token', refresh_token: user.refresh_token } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.json.refresh_token).toBeUndefined();
      expect((await app.request('GET', '/v1/users/profile', { headers: bearerHeaders(refreshed.json.access_token) })).status).toBe(200);

      const logout = await app.request('POST', '/v1/users/logout', { headers: user.headers, json: { refresh_token: user.refresh_token } });
      expect(logout.status).toBe(204);
      const after = await app.request('POST', '/v1/users/login', { json: { grant_type: 'refresh_token', refresh_token: user.refresh_token } });
      expect(after.status).toBe(401);
      expect(after.json.code).toBe('invalid_credentials');
    });

    it('after logout the access token of that session is refused with 401 invalid_token; another session of the user still works', async () => {
      const user = await registerAndLogin(app.request);
      const other = await app.request('POST', '/v1/users/login', { json: { email: user.email, password: user.password } });
      expect(other.status).toBe(200);
      expect((await app.request('GET', '/v1/users/profile', { headers: user.headers })).status).toBe(200);

      expect((await app.request('POST', '/v1/users/logout', { headers: user.headers, json: { refresh_token: user.refresh_token } })).status).toBe(204);
      for (const [method, route] of [['GET', '/v1/users/profile'], ['GET', '/v1/keys'], ['GET', '/v1/courses']] as const) {
        const refused = await app.request(method, route, { headers: user.headers });
        expect(refused.status).toBe(401);
        expect(refused.json.code).toBe('invalid_token');
        expect(refused.json.detail).toMatch(/signed out/);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      }
      // Logging out again with the revoked token is refused too, before any handler runs.
      expect((await app.request('POST', '/v1/users/logout', { headers: user.headers, json: { refresh_token: user.refresh_token } })).status).toBe(401);
      expect((await app.request('GET', '/v1/users/profile', { headers: bearerHeaders(other.json.access_token) })).status).toBe(200);
    });

    it('keeps a session revocation only until the session\'s token expires', async () => {
      const store = new DynamoSessionRevocationStore();
      const now = Date.now();
      await store.revoke('user-a', 'session-live', new Date(now + 60_000));
      await store.revoke('user-a', 'session-over', new Date(now - 1_000));
      expect(await store.isRevoked('user-a', 'session-live')).toBe(true);
      // The table's TTL deletes late: a record past its expiry reads as absent.
      expect(await store.isRevoked('user-a', 'session-over')).toBe(false);
      expect(await store.isRevoked('user-b', 'session-live')).toBe(false);
      expect(await store.isRevoked('user-a', 'session-never')).toBe(false);
    });

    it('refuses the 11th attempt within 15 minutes for one email with 429 and Retry-After, even with the right password', async () => {
      const user = await registerAndLogin(app.request);
      for (let i = 0; i < 10; i++) {
        const failed = await app.request('POST', '/v1/users/login', { json: { email: user.email, password: `Wrong-password-${i}!` } });
        expect(failed.status).toBe(401);
      }
      const blocked = await app.request('POST', '/v1/users/login', { json: { email: user.email, password: user.password } });
      expect(blocked.status).toBe(429);
      expect(blocked.json.code).toBe('too_many_attempts');
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Another email from the same address is not affected by this email's failures.
      expect((await app.request('POST', '/v1/users/login', { json: { email: alice.email, password: alice.password } })).status).toBe(200);
    });
  });

  describe('bearer verification', () => {
    const expectInvalidToken = async (headers: Record<string, string>) => {
      const response = await app.request('GET', '/v1/users/profile', { headers });
      expect(response.status).toBe(401);
      expect(response.json.code).toBe('invalid_token');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      return response;
    };

    /** The local pool's own signing key, as the data directory holds it (owner-only), with its kid. */
    const poolKey = () => {
      const jwk = JSON.parse(readFileSync(path.join(app.dataDir, 'keys', 'token-signing-key.jwk.json'), 'utf8')) as JWK;
      const kid = String((decodeProtectedHeader(alice.access_token)).kid);
      return { jwk, kid };
    };

    /** Claims crafted as the caller likes, signed validly with `signer` (the pool's key by default). */
    async function signed(claims: Record<string, unknown>, options: { expiresAt?: number | null; issuer?: string; signer?: { jwk: JWK; kid: string } } = {}): Promise<string> {
      const { exp: _exp, ...real } = decodeJwt(alice.access_token);
      const { jwk, kid } = options.signer ?? poolKey();
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({ ...real, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(options.issuer ?? String(real.iss))
        .setIssuedAt(now - 7200);
      if (options.expiresAt !== null) jwt.setExpirationTime(options.expiresAt ?? now + 3600);
      return jwt.sign(await importJWK(jwk, 'RS256'));
    }

    it('accepts the real access token', async () => {
      const response = await app.request('GET', '/v1/users/profile', { headers: alice.headers });
      expect(response.status).toBe(200);
    });

    it('refuses a missing header and a non-Bearer scheme', async () => {
      await expectInvalidToken({});
      await expectInvalidToken({ Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` });
    });

    it('refuses alg none', async () => {
      const [, payload] = alice.access_token.split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      await expectInvalidToken(bearerHeaders(`${header}.${payload}.`));
    });

    it('refuses HS256 signed with the public key as a secret (algorithm confusion)', async () => {
      const jwks = await (await fetch(`${process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER}/${process.env.USER_POOL_ID}/.well-known/jwks.json`)).json() as { keys: JWK[] };
      const token = await new SignJWT(decodeJwt(alice.access_token))
        .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(alice.access_token).kid })
        .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
      await expectInvalidToken(bearerHeaders(token));
    });

    it('refuses a token signed with another key under the same kid (forged signature)', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const token = await new SignJWT(decodeJwt(alice.access_token)).setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(alice.access_token).kid }).sign(privateKey);
      await expectInvalidToken(bearerHeaders(token));
    });

    it('refuses a real token whose payload was changed (tampered)', async () => {
      const [header, , signature] = alice.access_token.split('.');
      const payload = Buffer.from(JSON.stringify({ ...decodeJwt(alice.access_token), 'cognito:groups': ['admin'] })).toString('base64url');
      await expectInvalidToken(bearerHeaders(`${header}.${payload}.${signature}`));
    });

    it('refuses the ID token where an access token is required', async () => {
      await expectInvalidToken(bearerHeaders(alice.id_token));
    });

    it('refuses an expired token', async () => {
      const response = await expectInvalidToken(bearerHeaders(await signed({}, { expiresAt: Math.floor(Date.now() / 1000) - 60 })));
      expect(response.json.detail).toMatch(/expired/);
    });

    it('signs with a key of its own data directory (owner-only), not the emulator package\'s', async () => {
      const file = path.join(app.dataDir, 'keys', 'token-signing-key.jwk.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      const served = await (await fetch(`${process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER}/${process.env.USER_POOL_ID}/.well-known/jwks.json`)).json() as { keys: JWK[] };
      expect(served.keys.map((k) => k.n)).toEqual([poolKey().jwk.n]);
      expect(served.keys.map((k) => k.n)).not.toContain(PACKAGE_KEY.n);
      const header = decodeProtectedHeader(alice.access_token);
      expect(header.kid).not.toBe('CognitoLocal');
    });

    it('refuses a token signed with the emulator package\'s key, for any user id and any kid', async () => {
      const forged = { jwk: PACKAGE_KEY, kid: 'CognitoLocal' };
      const response = await expectInvalidToken(bearerHeaders(await signed({ sub: randomUUID(), username: randomUUID() }, { signer: forged })));
      expect(response.json.detail).toMatch(/signature/);
      // The package's key under the pool key's kid, and for the real user: refused all the same.
      await expectInvalidToken(bearerHeaders(await signed({}, { signer: { jwk: PACKAGE_KEY, kid: poolKey().kid } })));
      await expectInvalidToken(bearerHeaders(await signed({}, { signer: forged })));
    });

    it('refuses a token without an expiry time, even validly signed', async () => {
      const response = await expectInvalidToken(bearerHeaders(await signed({}, { expiresAt: null })));
      expect(response.json.detail).toMatch(/expiry/);
    });

    it('refuses a token from another pool and one issued to another client', async () => {
      const real = decodeJwt(alice.access_token);
      const otherPool = String(real.iss).replace(/\/[^/]+$/, '/local_OtherPool');
      await expectInvalidToken(bearerHeaders(await signed({}, { issuer: otherPool })));
      await expectInvalidToken(bearerHeaders(await signed({ client_id: 'another-client-id' })));
      // The control: the same crafting with nothing changed is accepted, so the refusals above are the checks'.
      expect((await app.request('GET', '/v1/users/profile', { headers: bearerHeaders(await signed({})) })).status).toBe(200);
    });
  });

  describe('the local user pool at rest', () => {
    it('keeps its files owner-only and stores a salted scrypt hash of the password, never the password', async () => {
      const directory = path.join(app.dataDir, 'cognito');
      const poolFile = path.join(directory, `${process.env.USER_POOL_ID}.json`);
      expect(statSync(directory).mode & 0o777).toBe(0o700);
      for (const file of [poolFile, path.join(directory, 'clients.json')]) expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(poolFile, 'utf8');
      expect(text).not.toContain(alice.password);
      const stored = Object.values((JSON.parse(text) as { Users: Record<string, { Password: string; Attributes: Array<{ Name: string; Value: string }> }> }).Users)
        .find((u) => u.Attributes.some((a) => a.Name === 'email' && a.Value === alice.email))!.Password;
      const [scheme, salt, hash] = stored.split('$');
      expect(scheme).toBe('scrypt');
      expect(scryptSync(alice.password, Buffer.from(salt!, 'base64url'), 32).toString('base64url')).toBe(hash);
    });
  });

  describe('profile', () => {
    it('shows the user, their own Free account and the county name, with an ETag and the rate-limit headers', async () => {
      const response = await app.request('GET', '/v1/users/profile', { headers: alice.headers });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        user_id: alice.user_id, email: alice.email, name: 'Alice Mangrove', role: 'staff', organization: 'City of Cedar Key',
        county_fips: '12075', county_name: 'Levy', subscription_tier: 'free', preferences: {},
      });
      expect(response.json.account_id).toMatch(/^acct_/);
      expect(response.headers.get('etag')).toMatch(/^"\d+"$/);
      expect(response.headers.get('ratelimit-limit')).toBe('25');
    });

    it('updates with If-Match, answers 428 without it and 409 on a stale ETag, and records the change', async () => {
      const user = await registerAndLogin(app.request);
      const read = await app.request('GET', '/v1/users/profile', { headers: user.headers });
      const etag = read.headers.get('etag')!;

      const missing = await app.request('PUT', '/v1/users/update', { headers: user.headers, json: { name: 'Renamed' } });
      expect(missing.status).toBe(428);
      expect(missing.json.code).toBe('precondition_required');

      const updated = await app.request('PUT', '/v1/users/update', { headers: { ...user.headers, 'If-Match': etag }, json: { name: 'Renamed', county_fips: '12103', preferences: { units: 'ft' } } });
      expect(updated.status).toBe(200);
      expect(updated.json).toMatchObject({ name: 'Renamed', county_fips: '12103', county_name: 'Pinellas', preferences: { units: 'ft' } });
      expect(updated.headers.get('etag')).not.toBe(etag);

      const stale = await app.request('PUT', '/v1/users/update', { headers: { ...user.headers, 'If-Match': etag }, json: { name: 'Lost update' } });
      expect(stale.status).toBe(409);
      expect(stale.json.code).toBe('conflict');
      expect((await app.request('GET', '/v1/users/profile', { headers: user.headers })).json.name).toBe('Renamed');

      for (const json of [{ email: 'new@example.org' }, { role: 'admin' }, { password: 'Another-pass-1!' }]) {
        const refused = await app.request('PUT', '/v1/users/update', { headers: { ...user.headers, 'If-Match': updated.headers.get('etag')! }, json });
        expect(refused.status).toBe(400);
      }
    });
  });

  describe('activity', () => {
    it('lists the user\'s own security events newest first with address and user agent, in pages', async () => {
      const user = await registerAndLogin(app.request);
      await app.request('POST', '/v1/users/login', { json: { email: user.email, password: 'Wrong-password-1!' }, headers: { 'User-Agent': 'activity-test/1.0' } });
      await app.request('POST', '/v1/users/login', { json: { email: user.email, password: user.password }, headers: { 'User-Agent': 'activity-test/1.0' } });
      const created = await app.request('POST', '/v1/keys', { headers: user.headers, json: { name: 'ci' } });
      await app.request('DELETE', `/v1/keys/${created.json.key_id}`, { headers: user.headers });

      const first = await app.request('GET', '/v1/users/activity?limit=2', { headers: user.headers });
      expect(first.status).toBe(200);
      expect(first.json.data.map((e: { type: string }) => e.type)).toEqual(['key_revoked', 'key_created']);
      expect(first.json.data[0].details).toEqual({ key_id: created.json.key_id });
      expect(first.json.next_cursor).toEqual(expect.any(String));
      const rest = await app.request('GET', `/v1/users/activity?limit=10&cursor=${first.json.next_cursor}`, { headers: user.headers });
      expect(rest.json.data.map((e: { type: string }) => e.type)).toEqual(['sign_in', 'sign_in_failed', 'sign_in']);
      expect(rest.json.data[1]).toMatchObject({ client_ip: '127.0.0.1', user_agent: 'activity-test/1.0' });

      const other = await app.request('GET', '/v1/users/activity', { headers: alice.headers });
      expect(other.json.data.some((e: { event_id: string }) => [...first.json.data, ...rest.json.data].some((mine: { event_id: string }) => mine.event_id === e.event_id))).toBe(false);
      const bad = await app.request('GET', `/v1/users/activity?cursor=${first.json.next_cursor}`, { headers: alice.headers });
      expect(bad.status).toBe(400);
    });
  });

  describe('API keys', () => {
    it('issues a key shown once that calls the current API at the account\'s tier; revocation holds from the next request', async () => {
      const user = await registerAndLogin(app.request);
      const created = await app.request('POST', '/v1/keys', { headers: user.headers, json: { name: 'laptop' } });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ name: 'laptop', subscription_tier: 'free' });
      expect(created.json.key).toMatch(/^vac_[A-Za-z0-9_-]{32}$/);
      expect(created.json.prefix).toBe(created.json.key.slice(0, 8));

      const listed = await app.request('GET', '/v1/keys', { headers: user.headers });
      expect(listed.json.data).toEqual([{ key_id: created.json.key_id, name: 'laptop', prefix: created.json.prefix, created_at: created.json.created_at, last_used_at: null }]);
      expect(listed.text).not.toContain(created.json.key);

      const call = await app.request('GET', '/grants/deadlines', { key: created.json.key });
      expect(call.status).toBe(200);
      const used = (await app.request('GET', '/v1/keys', { headers: user.headers })).json.data[0].last_used_at;
      expect(Date.parse(used)).toBeGreaterThanOrEqual(Date.parse(created.json.created_at));
      const paid = await app.request('POST', '/compliance/validate', { key: created.json.key, json: {} });
      expect(paid.status).toBe(403);
      expect(paid.json.code).toBe('subscription_required');

      expect((await app.request('DELETE', `/v1/keys/${created.json.key_id}`, { headers: user.headers })).status).toBe(204);
      const refused = await app.request('GET', '/grants/deadlines', { key: created.json.key });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('invalid_api_key');
      expect((await app.request('GET', '/v1/keys', { headers: user.headers })).json.data).toEqual([]);
      expect((await app.request('DELETE', `/v1/keys/${created.json.key_id}`, { headers: user.headers })).status).toBe(404);
    });

    it('keeps each account\'s keys to itself', async () => {
      const owner = await registerAndLogin(app.request);
      const created = await app.request('POST', '/v1/keys', { headers: owner.headers, json: { name: 'mine' } });
      const stranger = await registerAndLogin(app.request);
      expect((await app.request('GET', '/v1/keys', { headers: stranger.headers })).json.data).toEqual([]);
      const attempt = await app.request('DELETE', `/v1/keys/${created.json.key_id}`, { headers: stranger.headers });
      expect(attempt.status).toBe(404);
      expect((await app.request('GET', '/grants/deadlines', { key: created.json.key })).status).toBe(200);
    });

    it('issues keys at the new tier once an operator moves the account to Pro', async () => {
      const user = await registerAndLogin(app.request);
      const before = await app.request('POST', '/v1/keys', { headers: user.headers, json: { name: 'before' } });
      const profile = await app.request('GET', '/v1/users/profile', { headers: user.headers });
      expect(await new DynamoAccountStore().setTier(profile.json.account_id, 'pro')).toBe(true);

      const after = await app.request('POST', '/v1/keys', { headers: user.headers, json: { name: 'after' } });
      expect(after.json.subscription_tier).toBe('pro');
      expect((await app.request('GET', '/v1/users/profile', { headers: user.headers })).json.subscription_tier).toBe('pro');
      // The key issued before the move follows its account.
      const paid = await app.request('POST', '/compliance/validate', { key: before.json.key, json: {} });
      expect(paid.status).not.toBe(403);
    });

    it('honours Idempotency-Key: a repeat creates no second key and answers the first response without the key value', async () => {
      const user = await registerAndLogin(app.request);
      const send = (name: string) => app.request('POST', '/v1/keys', { headers: { ...user.headers, 'Idempotency-Key': 'laptop-key-0001' }, json: { name } });
      const first = await send('laptop');
      expect(first.status).toBe(201);
      expect(first.json.key).toMatch(/^vac_[A-Za-z0-9_-]{32}$/);
      expect(first.headers.get('idempotent-replayed')).toBeNull();

      const again = await send('laptop');
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('cache-control')).toBe('no-store');
      const { key, ...withoutValue } = first.json;
      expect(again.json).toEqual({ ...withoutValue, key: null });
      expect(again.text).not.toContain(key);

      const listed = (await app.request('GET', '/v1/keys', { headers: user.headers })).json.data;
      expect(listed.map((k: { key_id: string }) => k.key_id)).toEqual([first.json.key_id]);
      expect((await app.request('GET', '/grants/deadlines', { key })).status).toBe(200);

      const reused = await send('desktop');
      expect(reused.status).toBe(422);
      expect(reused.json.code).toBe('idempotency_key_reused');
      // The key is the user's own: another user of any account may use the same Idempotency-Key.
      const other = await registerAndLogin(app.request);
      const theirs = await app.request('POST', '/v1/keys', { headers: { ...other.headers, 'Idempotency-Key': 'laptop-key-0001' }, json: { name: 'laptop' } });
      expect(theirs.status).toBe(201);
      expect(theirs.json.key).toMatch(/^vac_/);
      expect(theirs.json.key_id).not.toBe(first.json.key_id);
    });

    it('validates the key name and the key id', async () => {
      expect((await app.request('POST', '/v1/keys', { headers: alice.headers, json: { name: '' } })).status).toBe(400);
      expect((await app.request('DELETE', '/v1/keys/not-a-key', { headers: alice.headers })).status).toBe(400);
      expect((await app.request('POST', '/v1/keys', { json: { name: 'x' } })).status).toBe(401);
    });
  });

  describe('hourly limit', () => {
    it('counts v1 requests against the account\'s Free limit of 25 with the RateLimit headers', async () => {
      const user = await registerAndLogin(app.request);
      const responses = [];
      for (let i = 0; i < 26; i++) responses.push(await app.request('GET', '/v1/users/profile', { headers: user.headers }));
      expect(responses.slice(0, 25).every((r) => r.status === 200)).toBe(true);
      expect(responses[24]!.headers.get('ratelimit-remaining')).toBe('0');
      expect(responses[25]!.status).toBe(429);
      expect(responses[25]!.json.code).toBe('rate_limit_exceeded');
      expect(Number(responses[25]!.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('passwords', () => {
    it('never reach the table, the logs or an error body', async () => {
      const written: string[] = [];
      const spies = [process.stdout, process.stderr].map((stream) => jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
        written.push(String(chunk));
        return true;
      }));
      logger.setLogLevel('DEBUG');
      const password = strongPassword();
      const wrongPassword = `${password}-wrong`;
      let user: V1User;
      try {
        user = await registerAndLogin(app.request, { password });
        const failed = await app.request('POST', '/v1/users/login', { json: { email: user.email, password: wrongPassword } });
        expect(failed.text).not.toContain(wrongPassword);
        await app.request('POST', '/v1/users/register', { json: { email: user.email, password, name: 'again', role: 'resident' } });
      } finally {
        logger.setLogLevel('SILENT');
        spies.forEach((spy) => spy.mockRestore());
      }
      expect(written.join('').length).toBeGreaterThan(0);
      expect(written.join('')).not.toContain(password);
      expect(written.join('')).not.toContain(wrongPassword);

      const items: unknown[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await dynamo().send(new ScanCommand({ TableName: process.env.TABLE_NAME!, ExclusiveStartKey: start }));
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      const dump = JSON.stringify(items);
      expect(dump).toContain(user!.user_id);
      expect(dump).not.toContain(password);
      expect(dump).not.toContain(wrongPassword);
    });
  });
});
