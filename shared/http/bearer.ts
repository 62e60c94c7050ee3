import type { RouteDef } from '../routes/types';
import type { Tier } from '../domain/tiers';
import type { RouteRequest } from './types';
import { HttpError } from './problem';
import { isUserRole } from '../domain/identity/roles';
import type { BearerUser } from '../domain/identity/signed-in-user';
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
 * In AWS a Lambda REQUEST authorizer (functions/bearer-authorizer) runs `authenticateBearer`
 * (bearer-tokens.ts, the only module that loads the token verifier) and hands its verdict to the
 * function in the authorizer context; locally the gateway runs the same function. The pipeline
 * turns the context back into `request.user` with `bearerUserFromContext`.
 */
export type BearerOutcome = { ok: true; user: BearerUser } | { ok: false; detail: string };

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
