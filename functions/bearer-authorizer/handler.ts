import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoSessionRevocationStore, DynamoUserStore, onSessionRevoked, userDirectory } from '../../shared/adapters/user-store';
import { expiringReads, type ExpiringReadsOptions } from '../../shared/lru-cache';
import type { SessionRevocations, UserDirectory } from '../../shared/domain/identity/signed-in-user';
import { appConfig, requiredSetting } from '../../shared/config';
import { bearerAuthorizerContext, type BearerOutcome } from '../../shared/http/bearer';
import { authenticateBearer, createAccessTokenVerifier } from '../../shared/http/bearer-tokens';
import { cachedAccessTokenVerifier } from '../../shared/http/verified-token-cache';
import { logger } from '../../shared/observability/logger';
import { usageKeyLookup, type UsageKeyLookup } from '../../shared/adapters/usage-keys';

/** Tokens whose verification this process remembers: some 3 MB at most. */
const VERIFIED_TOKENS_MAX = 10_000;
/** A refused token is answered from memory this long, no longer (a clock skew or a JWKS rotation heals). */
const REFUSED_TOKEN_MS = 2000;
/**
 * How long the user, their account and a session's revocation are answered from memory: the
 * longest a sign-out made in another process, a suspended user or a tier change goes unseen. A
 * sign-out written by this process is seen at once.
 */
export const BEARER_STATE_TTL_MS = 5000;
/** Users and sessions remembered at most (a few hundred bytes each). */
const BEARER_STATE_MAX = 10_000;

/**
 * The bearer step, configured from the environment: the pool's verifier (the emulator's, locally,
 * where `AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER` points at it) and the user directory. The
 * signature check is remembered per token until its `exp`; the user, account and revocation for
 * `BEARER_STATE_TTL_MS` (see `rememberedBearerState`).
 */
export function bearerAuthenticator(): (header: string | undefined) => Promise<BearerOutcome> {
  const verify = cachedAccessTokenVerifier(createAccessTokenVerifier({
    userPoolId: requiredSetting('USER_POOL_ID'),
    clientId: requiredSetting('USER_POOL_CLIENT_ID'),
    localEndpoint: appConfig().APP_MODE === 'local' ? process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER : undefined,
  }), { maxEntries: VERIFIED_TOKENS_MAX, failureTtlMs: REFUSED_TOKEN_MS });
  let users: DynamoUserStore | undefined;
  let accounts: DynamoAccountStore | undefined;
  let revocations: DynamoSessionRevocationStore | undefined;
  const { directory, isRevoked } = rememberedBearerState(
    userDirectory(() => (users ??= new DynamoUserStore()), () => (accounts ??= new DynamoAccountStore())),
    (userId, sessionId) => (revocations ??= new DynamoSessionRevocationStore()).isRevoked(userId, sessionId),
    { ttlMs: BEARER_STATE_TTL_MS, maxEntries: BEARER_STATE_MAX },
  );
  return (header) => authenticateBearer(header, verify, directory, isRevoked);
}

/**
 * The user directory and the revocation check with their answers reused for `ttlMs`: a client
 * sending requests in a row pays their reads once per interval, not three reads a request. A
 * sign-out this process writes drops its session's answer at once (`onSessionRevoked`).
 */
export function rememberedBearerState(
  directory: UserDirectory, isRevoked: SessionRevocations, options: ExpiringReadsOptions,
): { directory: UserDirectory; isRevoked: SessionRevocations } {
  const sessionKey = (userId: string, sessionId: string) => `${userId} ${sessionId}`;
  const userReads = expiringReads(directory, options);
  const revocationReads = expiringReads((key) => {
    const [userId, sessionId] = key.split(' ') as [string, string];
    return isRevoked(userId, sessionId);
  }, options);
  onSessionRevoked((userId, sessionId) => revocationReads.forget(sessionKey(userId, sessionId)));
  return { directory: userReads.read, isRevoked: (userId, sessionId) => revocationReads.read(sessionKey(userId, sessionId)) };
}

/**
 * The API Gateway REQUEST authorizer of the /v1 bearer routes. It always allows the call and
 * hands its verdict to the function in the context: API Gateway's own 401 is one response for
 * the whole API (shaped for the missing API key), while a bearer failure must answer 401
 * `invalid_token` with `WWW-Authenticate: Bearer`, which the function's pipeline does before any
 * handler code runs. Not cached (see lib/rest-api.ts), so a missing header reaches it too.
 *
 * The /v1 methods require a usage key, so every answer names a tier's usage plan, whose /v1
 * throttles API Gateway applies: the user's account tier, or Free for a request the function will
 * refuse 401 (without a key API Gateway would answer 403 itself, before the function).
 */
export function createBearerAuthorizer(authenticate: (header: string | undefined) => Promise<BearerOutcome>, usageKeys: UsageKeyLookup) {
  return async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const outcome = await authenticate(headerValue(event, 'authorization'));
    if (!outcome.ok) logger.info('Bearer token rejected', { detail: outcome.detail });
    // The account's own key; the tier's shared key for an account without one, Free's for a refused request.
    const usageKey = (outcome.ok ? outcome.user.usage_key : undefined) ?? (await usageKeys())[outcome.ok ? outcome.user.tier : 'free'];
    return {
      principalId: outcome.ok ? outcome.user.user_id : 'anonymous',
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
      context: bearerAuthorizerContext(outcome),
      ...(usageKey ? { usageIdentifierKey: usageKey } : {}),
    };
  };
}

function headerValue(event: APIGatewayRequestAuthorizerEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value != null) return value;
  }
  return undefined;
}

let authenticate: ((header: string | undefined) => Promise<BearerOutcome>) | undefined;

export const handler = createBearerAuthorizer((header) => (authenticate ??= bearerAuthenticator())(header), usageKeyLookup());
