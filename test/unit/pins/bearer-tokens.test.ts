import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { BEARER_CHALLENGE, accountRateSubject, bearerAuthorizerContext, bearerUserFromContext } from '../../../shared/http/bearer';
import { ALLOWED_ALGORITHMS, authenticateBearer, createAccessTokenVerifier } from '../../../shared/http/bearer-tokens';
import type { BearerUser } from '../../../shared/domain/identity/signed-in-user';

/**
 * Bearer tokens of the /v1 routes (RFC 6750, RFC 8725): the header form, the algorithm
 * allow-list, each verification failure mapped to a reason that never echoes the token, the user
 * directory, and the authorizer context round trip. The local verifier is checked against a JWKS
 * served on loopback, with tokens signed here.
 */
const USER: BearerUser = { user_id: 'u-1', email: 'ana@example.org', name: 'Ana', role: 'staff', account_id: 'acct_1', tier: 'pro' };
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenWith = (header: object) => `${segment(header)}.${segment({ sub: 'u-1' })}.c2ln`;
const RS256 = tokenWith({ alg: 'RS256', kid: 'k' });
const verifyOk = async () => ({ sub: 'u-1' });
const directory = async (sub: string) => (sub === 'u-1' ? USER : undefined);

describe('bearer authentication', () => {
  it('accepts only RS256 and says so', () => {
    expect(ALLOWED_ALGORITHMS).toEqual(['RS256']);
    expect(BEARER_CHALLENGE).toBe('Bearer error="invalid_token"');
  });

  it('finds the user of a verified token', async () => {
    expect(await authenticateBearer(`Bearer ${RS256}`, verifyOk, directory)).toEqual({ ok: true, user: USER });
    expect(await authenticateBearer(`  Bearer ${RS256}  `, verifyOk, directory)).toEqual({ ok: true, user: USER });
  });

  it.each([
    ['no header', undefined, /^Send an access token/],
    ['an empty header', '', /^Send an access token/],
    ['another scheme', `Basic ${RS256}`, /is not `Bearer <access token>`/],
    ['no token', 'Bearer ', /is not `Bearer <access token>`/],
    ['not a JWT', 'Bearer abc', /is not `Bearer <access token>`/],
    ['a lower-case scheme', `bearer ${RS256}`, /is not `Bearer <access token>`/],
    ['text before the scheme', `xBearer ${RS256}`, /is not `Bearer <access token>`/],
    ['text after the token', `Bearer ${RS256} x`, /is not `Bearer <access token>`/],
    ['alg none', `Bearer ${tokenWith({ alg: 'none' })}`, /"none" are not accepted/],
    ['HS256 key confusion', `Bearer ${tokenWith({ alg: 'HS256' })}`, /"HS256" are not accepted/],
    ['no alg', `Bearer ${tokenWith({ typ: 'JWT' })}`, /no algorithm are not accepted/],
    ['an unreadable header', 'Bearer e30x.e30.', /no algorithm are not accepted/],
  ])('refuses %s before verifying', async (_label, header, detail) => {
    let verified = false;
    const outcome = await authenticateBearer(header, async () => { verified = true; return { sub: 'u-1' }; }, directory);
    expect(outcome).toEqual({ ok: false, detail: expect.stringMatching(detail) });
    expect(verified).toBe(false);
  });

  it('says only that a token is not valid when the verifier fails for another reason', async () => {
    expect(await authenticateBearer(`Bearer ${RS256}`, async () => { throw new Error('payload is not JSON'); }, directory))
      .toEqual({ ok: false, detail: 'The token is not valid.' });
  });

  it('refuses a valid token of nobody known', async () => {
    expect(await authenticateBearer(`Bearer ${RS256}`, async () => ({ sub: 'u-2' }), directory)).toEqual({ ok: false, detail: 'The token belongs to no registered user of this API.' });
  });
});

describe('the authorizer context', () => {
  it('carries the user to the pipeline and back', () => {
    const context = bearerAuthorizerContext({ ok: true, user: USER });
    expect(context).toEqual({ auth: 'bearer', user_id: 'u-1', email: 'ana@example.org', name: 'Ana', role: 'staff', account_id: 'acct_1', tier: 'pro' });
    expect(bearerUserFromContext(context)).toEqual({ ok: true, user: USER });
  });

  it('carries the refusal reason', () => {
    const context = bearerAuthorizerContext({ ok: false, detail: 'The token has expired.' });
    expect(context).toEqual({ auth: 'bearer', bearer_error: 'The token has expired.' });
    expect(bearerUserFromContext(context)).toEqual({ ok: false, detail: 'The token has expired.' });
  });

  const valid = bearerAuthorizerContext({ ok: true, user: USER });
  it.each([
    ['no context', null],
    ['an API-key context', { accountId: 'acct_1', tier: 'pro', keyHash: 'h' }],
    ['a user from another authorizer', { ...valid, auth: 'api_key' }],
    ['a missing user id', { ...valid, user_id: undefined }],
    ['a missing email', { ...valid, email: 5 }],
    ['a missing name', { ...valid, name: undefined }],
    ['a missing account', { ...valid, account_id: undefined }],
    ['an unknown role', { ...valid, role: 'root' }],
    ['an unknown tier', { ...valid, tier: 'platinum' }],
  ])('refuses %s', (_label, context) => {
    expect(bearerUserFromContext(context as Record<string, unknown> | null)).toEqual({ ok: false, detail: 'The request did not pass bearer authentication.' });
  });

  it('counts a user\'s requests against their account', () => {
    expect(accountRateSubject('acct_1')).toBe('account:acct_1');
  });
});

describe('the local access-token verifier', () => {
  const POOL = 'local_pool';
  const CLIENT = 'client-1';
  let server: Server;
  let endpoint: string;
  let jwksRequests = 0;
  let failJwks = false;
  let poolKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let sign: (claims: Record<string, unknown>, expiresIn?: string | number) => Promise<string>;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    poolKey = privateKey;
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((req, res) => {
      jwksRequests++;
      if (failJwks || req.url !== `/${POOL}/.well-known/jwks.json`) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sign = (claims, expiresIn = '1h') => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(`${endpoint}/${POOL}`).setSubject('u-1').setIssuedAt().setExpirationTime(expiresIn).sign(privateKey);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('verifies an access token of its client, fetching the JWKS once', async () => {
    const verify = createAccessTokenVerifier({ userPoolId: POOL, clientId: CLIENT, localEndpoint: `${endpoint}/` });
    const before = jwksRequests;
    expect(await verify(await sign({ token_use: 'access', client_id: CLIENT }))).toEqual({ sub: 'u-1' });
    expect(await verify(await sign({ token_use: 'access', client_id: CLIENT }))).toEqual({ sub: 'u-1' });
    expect(jwksRequests - before).toBe(1);
  });

  it('tries the JWKS again after a failed fetch', async () => {
    const verify = createAccessTokenVerifier({ userPoolId: POOL, clientId: CLIENT, localEndpoint: endpoint });
    failJwks = true;
    await expect(verify(await sign({ token_use: 'access', client_id: CLIENT }))).rejects.toThrow(/JWKS answered 503/);
    failJwks = false;
    expect(await verify(await sign({ token_use: 'access', client_id: CLIENT }))).toEqual({ sub: 'u-1' });
  });

  it('reads the session from origin_jti, else jti, with the expiry', async () => {
    const verify = createAccessTokenVerifier({ userPoolId: POOL, clientId: CLIENT, localEndpoint: endpoint });
    const access = { token_use: 'access', client_id: CLIENT };
    const exp = Math.floor(Date.now() / 1000) + 600;
    const signAt = (claims: Record<string, unknown>) => sign({ ...access, ...claims }, exp);
    expect(await verify(await signAt({ jti: 'j1' }))).toEqual({ sub: 'u-1', session: { id: 'j1', expires_at: exp } });
    expect(await verify(await signAt({ jti: 'j1', origin_jti: 'o1' }))).toEqual({ sub: 'u-1', session: { id: 'o1', expires_at: exp } });
    expect(await verify(await signAt({ jti: 'j1', origin_jti: '' }))).toEqual({ sub: 'u-1', session: { id: 'j1', expires_at: exp } });
    expect(await verify(await signAt({ jti: 'j1', origin_jti: 7 }))).toEqual({ sub: 'u-1', session: { id: 'j1', expires_at: exp } });
    for (const claims of [{}, { jti: '' }, { origin_jti: '', jti: '' }]) {
      expect((await verify(await signAt(claims))).session).toBeUndefined();
    }
  });

  it('names each verification failure without echoing the token', async () => {
    const verify = createAccessTokenVerifier({ userPoolId: POOL, clientId: CLIENT, localEndpoint: endpoint });
    const access = { token_use: 'access', client_id: CLIENT };
    const other = await generateKeyPair('RS256');
    const forged = await new SignJWT(access).setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(`${endpoint}/${POOL}`).setSubject('u-1').setExpirationTime('1h').sign(other.privateKey);
    const foreign = await new SignJWT(access).setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(`${endpoint}/another_pool`).setSubject('u-1').setExpirationTime('1h').sign(poolKey);
    const cases: Array<[string, string]> = [
      [await sign({ token_use: 'id', client_id: CLIENT }), 'An access token is required (not an ID token).'],
      [await sign({ token_use: 'access', client_id: 'client-2' }), 'The token was issued to another client.'],
      [await sign(access, Math.floor(Date.now() / 1000) - 60), 'The token has expired; refresh it with POST /v1/users/login (grant_type refresh_token).'],
      [forged, 'The token signature does not verify.'],
      [foreign, 'The token was issued by another identity provider.'],
    ];
    for (const [token, detail] of cases) {
      expect(await authenticateBearer(`Bearer ${token}`, verify, directory)).toEqual({ ok: false, detail });
    }
    expect(await authenticateBearer(`Bearer ${await sign(access)}`, verify, directory)).toEqual({ ok: true, user: USER });
  });

  it('builds a Cognito verifier in AWS mode without fetching anything', async () => {
    const verify = createAccessTokenVerifier({ userPoolId: 'us-east-1_abcdefghi', clientId: CLIENT });
    await expect(verify('not.a.token')).rejects.toThrow();
  });
});
