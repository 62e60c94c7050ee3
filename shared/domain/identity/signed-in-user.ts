import type { Tier } from '../tiers';
import type { UserRole } from './roles';

/**
 * Who a request signed in with a bearer token is: resolved by the HTTP edge from the token, read
 * by the use cases and the user store, so it lives with the identity domain.
 */
export interface BearerUser {
  /** The Cognito `sub`: stable, never reused. */
  user_id: string;
  email: string;
  name: string;
  role: UserRole;
  /** The account the user's API keys and hourly limit belong to. */
  account_id: string;
  tier: Tier;
  /** The sign-in session of the token the request came with (set by the token verifier). */
  session?: BearerSession;
  /** The account's usage identifier (`Account.usage_key`), for the authorizer only: never in the function's context. */
  usage_key?: string;
}

/**
 * A signed-out session's access tokens are refused until they expire: the session is Cognito's
 * `origin_jti` (shared by every access token refreshed from one sign-in, when the pool has token
 * revocation on), or the token's own `jti` where there is none (the local emulator).
 */
export interface BearerSession {
  id: string;
  /** The token's `exp` (epoch seconds): a revocation record need not outlive it. */
  expires_at: number;
}

/** Looks up who a verified token's `sub` is (profile and account), or undefined if unknown. */
export type UserDirectory = (userId: string) => Promise<BearerUser | undefined>;

/** Whether the user signed this session out (POST /v1/users/logout). */
export type SessionRevocations = (userId: string, sessionId: string) => Promise<boolean>;
