import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';
import {
  CognitoJwtInvalidClientIdError, CognitoJwtInvalidTokenUseError, JwtExpiredError, JwtInvalidIssuerError, JwtInvalidSignatureError,
  JwtWithoutValidKidError, KidNotFoundInJwksError,
} from 'aws-jwt-verify/error';
import type { RouteDef } from '../routes/types';
import type { Tier } from '../domain/tiers';
import type { RouteRequest } from './types';
import { HttpError } from './problem';
import { isUserRole } from '../domain/identity/roles';
import type { BearerSession, BearerUser, SessionRevocations, UserDirectory } from '../domain/identity/signed-in-user';
import { TIER_ORDER } from '../domain/tiers';

/**
 * Bearer authentication of the `/v1` routes (RFC 6750, Cognito access tokens).
 *
 * What a route with `auth: 'bearer'` receives: `request.user`, always set when the handler runs
 * (the token was verified and the user and their account were found before the pipeline called
 * it), and `request.account`, the user's account (`keyHash` is `account:<account_id>`, the
 * subject the hourly limit counts v1 requests against). Anything else answers 401
 * `invalid_token` with `WWW-Authenticate: Bearer error="invalid_token"` before the handler runs.
 *
 * In AWS a Lambda REQUEST authorizer (functions/bearer-authorizer) runs `authenticateBearer` and
 * hands its verdict to the function in the authorizer context; locally the gateway runs the same
 * function. The pipeline turns the context back into `request.user` with `bearerUserFromContext`.
 */
export type BearerOutcome = { ok: true; user: BearerUser } | { ok: false; detail: string };

/** Verifies an access token; throws on anything but a valid one. Returns the `sub` and its session. */
export type AccessTokenVerifier = (token: string) => Promise<{ sub: string; session?: BearerSession }>;

/** RFC 8725: only the algorithm the issuer signs with; `none`, HS256 key confusion and the rest are refused. */
export const ALLOWED_ALGORITHMS = ['RS256'] as const;

export const BEARER_CHALLENGE = 'Bearer error="invalid_token"';
export const INSUFFICIENT_SCOPE_CHALLENGE = 'Bearer error="insufficient_scope"';

/**
 * A route limited to some roles (the Cognito group in the token's user record) refuses the others
 * with 403 `insufficient_scope` (RFC 6750 §3.1), before the request counts against the hourly limit.
 */
export function assertRoleAllowed(route: Pick<RouteDef, 'roles' | 'path'>, user: BearerUser): void {
  if (!route.roles || route.roles.includes(user.role)) return;
  throw new HttpError('insufficient_scope', `${route.path} is for the roles ${route.roles.join(', ')}; this user is a ${user.role}.`, {
    headers: { 'WWW-Authenticate': INSUFFICIENT_SCOPE_CHALLENGE },
  });
}

/**
 * The one bearer step: header → verified access token → user and account. Every failure is the
 * same `invalid_token` outcome (the detail says which check failed, never echoing the token).
 */
export async function authenticateBearer(
  header: string | undefined, verify: AccessTokenVerifier, directory: UserDirectory, isRevoked?: SessionRevocations,
): Promise<BearerOutcome> {
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/.exec(header?.trim() ?? '');
  if (!match) return { ok: false, detail: header ? 'The Authorization header is not `Bearer <access token>`.' : 'Send an access token in the Authorization header: `Bearer <access_token>` (from POST /v1/users/login).' };
  const token = match[1]!;
  const alg = headerAlgorithm(token);
  if (!alg || !(ALLOWED_ALGORITHMS as readonly string[]).includes(alg)) {
    return { ok: false, detail: `Tokens signed with ${alg ? `"${alg}"` : 'no algorithm'} are not accepted.` };
  }
  let verified: Awaited<ReturnType<AccessTokenVerifier>>;
  try {
    verified = await verify(token);
  } catch (error) {
    return { ok: false, detail: verificationFailure(error) };
  }
  const { sub, session } = verified;
  const [user, revoked] = await Promise.all([directory(sub), session && isRevoked ? isRevoked(sub, session.id) : false]);
  if (revoked) return { ok: false, detail: 'The token\'s session was signed out (POST /v1/users/logout); log in again.' };
  if (!user) return { ok: false, detail: 'The token belongs to no registered user of this API.' };
  return { ok: true, user: session ? { ...user, session } : user };
}

/** The session of a verified token, from the `jti`/`origin_jti` and `exp` every Cognito access token carries. */
function sessionOf(payload: { jti?: unknown; origin_jti?: unknown; exp?: unknown }): BearerSession | undefined {
  const id = typeof payload.origin_jti === 'string' && payload.origin_jti !== '' ? payload.origin_jti : payload.jti;
  return typeof id === 'string' && id !== '' && typeof payload.exp === 'number' ? { id, expires_at: payload.exp } : undefined;
}

function headerAlgorithm(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { alg?: unknown };
    return typeof header.alg === 'string' ? header.alg : undefined;
  } catch {
    return undefined;
  }
}

/** A short reason from aws-jwt-verify's error classes, without the token or its claims. */
function verificationFailure(error: unknown): string {
  if (error instanceof JwtExpiredError) return 'The token has expired; refresh it with POST /v1/users/login (grant_type refresh_token).';
  if (error instanceof JwtInvalidIssuerError) return 'The token was issued by another identity provider.';
  if (error instanceof CognitoJwtInvalidTokenUseError) return 'An access token is required (not an ID token).';
  if (error instanceof CognitoJwtInvalidClientIdError) return 'The token was issued to another client.';
  if (error instanceof JwtInvalidSignatureError || error instanceof KidNotFoundInJwksError || error instanceof JwtWithoutValidKidError) {
    return 'The token signature does not verify.';
  }
  return 'The token is not valid.';
}

export interface VerifierSettings {
  userPoolId: string;
  clientId: string;
  /**
   * Local mode: the emulator's base URL (`http://127.0.0.1:<port>`). Its issuer is
   * `<endpoint>/<poolId>` and its JWKS is served over http, which aws-jwt-verify does not fetch, so
   * it is fetched here once and preloaded. Absent in AWS (the Cognito issuer of the pool's region).
   */
  localEndpoint?: string;
}

/**
 * `iss`, `token_use: access`, `client_id`, `exp` (no grace), signature and `alg` are all checked:
 * CognitoJwtVerifier does this in AWS; locally the same checks on JwtRsaVerifier.
 */
export function createAccessTokenVerifier(settings: VerifierSettings): AccessTokenVerifier {
  if (!settings.localEndpoint) {
    const verifier = CognitoJwtVerifier.create({ userPoolId: settings.userPoolId, tokenUse: 'access', clientId: settings.clientId });
    return async (token) => {
      const payload = await verifier.verify(token);
      return { sub: payload.sub, session: sessionOf(payload) };
    };
  }
  const issuer = `${settings.localEndpoint.replace(/\/$/, '')}/${settings.userPoolId}`;
  const verifier = JwtRsaVerifier.create({
    issuer,
    // Access tokens carry `client_id`, not `aud`; it is checked below like CognitoJwtVerifier does.
    audience: null,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'access') throw new CognitoJwtInvalidTokenUseError('Token use not allowed', payload.token_use as string, ['access']);
      if (payload.client_id !== settings.clientId) throw new CognitoJwtInvalidClientIdError('Client ID not allowed', payload.client_id as string, settings.clientId);
    },
  });
  let loaded: Promise<void> | undefined;
  const loadJwks = () => (loaded ??= fetch(`${issuer}/.well-known/jwks.json`)
    .then(async (response) => {
      if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
      verifier.cacheJwks((await response.json()) as Jwks);
    })
    .catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
  return async (token) => {
    await loadJwks();
    const payload = await verifier.verify(token);
    return { sub: String(payload.sub), session: sessionOf(payload) };
  };
}

/** What the authorizer hands to the function (API Gateway stringifies context values). */
export function bearerAuthorizerContext(outcome: BearerOutcome): Record<string, string> {
  if (!outcome.ok) return { auth: 'bearer', bearer_error: outcome.detail };
  const { user } = outcome;
  return {
    auth: 'bearer', user_id: user.user_id, email: user.email, name: user.name, role: user.role, account_id: user.account_id, tier: user.tier,
    ...(user.session ? { session_id: user.session.id, session_expires_at: String(user.session.expires_at) } : {}),
  };
}

/** The pipeline's side: a verified user, or the reason there is none. */
export function bearerUserFromContext(context: Record<string, unknown> | null | undefined): BearerOutcome {
  if (!context || context.auth !== 'bearer') return { ok: false, detail: 'The request did not pass bearer authentication.' };
  if (typeof context.bearer_error === 'string') return { ok: false, detail: context.bearer_error };
  const { user_id, email, name, role, account_id, tier } = context;
  if (typeof user_id !== 'string' || typeof email !== 'string' || typeof name !== 'string' || typeof account_id !== 'string'
    || !isUserRole(role) || !TIER_ORDER.includes(tier as Tier)) {
    return { ok: false, detail: 'The request did not pass bearer authentication.' };
  }
  const user: BearerUser = { user_id, email, name, role, account_id, tier: tier as Tier };
  const expiresAt = Number(context.session_expires_at);
  if (typeof context.session_id === 'string' && Number.isInteger(expiresAt)) user.session = { id: context.session_id, expires_at: expiresAt };
  return { ok: true, user };
}

/**
 * `Idempotency-Key`s of a bearer route are the user's own, not shared by every user of the
 * account: the request as withIdempotency should see it.
 */
export function perUserIdempotency(request: RouteRequest): RouteRequest {
  return { ...request, account: { ...request.account!, accountId: `${request.account!.accountId}/user/${request.user!.user_id}` } };
}

/** The subject the hourly limit counts a user's v1 requests against: their account. */
export function accountRateSubject(accountId: string): string {
  return `account:${accountId}`;
}
