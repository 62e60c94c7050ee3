import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import {
  CognitoJwtInvalidClientIdError, CognitoJwtInvalidTokenUseError, JwtExpiredError, JwtInvalidIssuerError, JwtInvalidSignatureError,
  JwtWithoutValidKidError, KidNotFoundInJwksError, WaitPeriodNotYetEndedJwkError,
} from 'aws-jwt-verify/error';
import type { BearerSession, SessionRevocations, UserDirectory } from '../domain/identity/signed-in-user';
import type { BearerOutcome } from './bearer';

/*
 * Verifying bearer tokens: the authorizer's side of bearer.ts, apart so that only the functions
 * that verify tokens (the bearer authorizer, the local gateway) load aws-jwt-verify and Node's
 * https client with it.
 */

/** Verifies an access token; throws on anything but a valid one. Returns the `sub` and its session. */
export type AccessTokenVerifier = (token: string) => Promise<{ sub: string; session?: BearerSession }>;

/** RFC 8725: only the algorithm the issuer signs with; `none`, HS256 key confusion and the rest are refused. */
export const ALLOWED_ALGORITHMS = ['RS256'] as const;

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

/** aws-jwt-verify checks `exp` only when the token has one; a token without an end is refused here. */
class TokenWithoutExpiryError extends Error {}

function requireExpiry(payload: { exp?: unknown }): void {
  if (typeof payload.exp !== 'number') throw new TokenWithoutExpiryError('Token without exp');
}

/** A short reason from aws-jwt-verify's error classes, without the token or its claims. */
function verificationFailure(error: unknown): string {
  if (error instanceof JwtExpiredError) return 'The token has expired; refresh it with POST /v1/users/login (grant_type refresh_token).';
  if (error instanceof TokenWithoutExpiryError) return 'The token has no expiry time.';
  if (error instanceof JwtInvalidIssuerError) return 'The token was issued by another identity provider.';
  if (error instanceof CognitoJwtInvalidTokenUseError) return 'An access token is required (not an ID token).';
  if (error instanceof CognitoJwtInvalidClientIdError) return 'The token was issued to another client.';
  if (error instanceof JwtInvalidSignatureError || error instanceof KidNotFoundInJwksError || error instanceof JwtWithoutValidKidError || error instanceof WaitPeriodNotYetEndedJwkError) {
    return 'The token signature does not verify.';
  }
  return 'The token is not valid.';
}

export interface VerifierSettings {
  userPoolId: string;
  clientId: string;
  /**
   * Local mode: the emulator's base URL (`http://127.0.0.1:<port>`). Its issuer is
   * `<endpoint>/<poolId>` and its JWKS (the data directory's key) is served over http. Absent in
   * AWS (the Cognito issuer of the pool's region).
   */
  localEndpoint?: string;
}

/**
 * `iss`, `token_use: access`, `client_id`, `exp` (present, no grace), signature and `alg` are all
 * checked: CognitoJwtVerifier does this in AWS; locally the same checks on JwtRsaVerifier, against
 * the keys the local pool serves (its own key of the data directory, never the emulator package's).
 */
export function createAccessTokenVerifier(settings: VerifierSettings): AccessTokenVerifier {
  if (!settings.localEndpoint) {
    const verifier = CognitoJwtVerifier.create({
      userPoolId: settings.userPoolId, tokenUse: 'access', clientId: settings.clientId, customJwtCheck: ({ payload }) => requireExpiry(payload),
    });
    return async (token) => {
      const payload = await verifier.verify(token);
      return { sub: payload.sub, session: sessionOf(payload) };
    };
  }
  const issuer = `${settings.localEndpoint.replace(/\/$/, '')}/${settings.userPoolId}`;
  const verifier = JwtRsaVerifier.create({
    issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    // Access tokens carry `client_id`, not `aud`; it is checked below like CognitoJwtVerifier does.
    audience: null,
    customJwtCheck: ({ payload }) => {
      requireExpiry(payload);
      if (payload.token_use !== 'access') throw new CognitoJwtInvalidTokenUseError('Token use not allowed', payload.token_use as string, ['access']);
      if (payload.client_id !== settings.clientId) throw new CognitoJwtInvalidClientIdError('Client ID not allowed', payload.client_id as string, settings.clientId);
    },
  }, { jwksCache: new SimpleJwksCache({ fetcher: loopbackFetcher }) });
  return async (token) => {
    const payload = await verifier.verify(token);
    return { sub: String(payload.sub), session: sessionOf(payload) };
  };
}

/**
 * aws-jwt-verify's own fetcher speaks https only; the local pool serves its JWKS over http on
 * loopback. A kid the JWKS lacks is fetched again at most every 10 s (the cache's penalty box).
 */
const loopbackFetcher = {
  async fetch(uri: string): Promise<ArrayBuffer> {
    const response = await fetch(uri);
    if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
    return response.arrayBuffer();
  },
};
