import type { Tier } from '../tiers';
import type { Account } from '../../ports';
import type { AttemptPolicy } from './attempts';
import type { UserRecord } from './profile';
import type { SecurityEvent } from './security-events';
import type { UserRole } from './roles';

/** Tokens as the login route answers them (RFC 6749 §5.1 names). */
export interface TokenSet {
  access_token: string;
  id_token: string;
  /** Password sign-in only; a refresh answers without one. */
  refresh_token?: string;
  token_type: 'Bearer';
  expires_in: number;
}

export class EmailTakenError extends Error {}
export class WeakPasswordError extends Error {}
/** Wrong password, unknown email, unconfirmed user: deliberately one error. */
export class InvalidCredentialsError extends Error {}
export class InvalidConfirmationCodeError extends Error {}
/** The provider could not email a code to the address (a registration that failed so is not kept); the message says which. */
export class EmailUndeliverableError extends Error {}
/** Concurrent attempts of one subject kept changing its counter: answered as too many attempts, never as a failure. */
export class AttemptCounterBusyError extends Error {}
/**
 * Attempts refused for now, with the seconds to wait: by this API's own limits (failed sign-ins,
 * registrations per address) or by the identity provider's (repeated wrong codes, throttling).
 */
export class TooManyAttemptsError extends Error {
  constructor(readonly retryAfterSeconds: number, message: string) {
    super(message);
  }
}

/** The identity provider (Cognito in AWS, cognito-local on the machine): it alone sees passwords. */
export interface IdentityProvider {
  /** Creates the user in the role's group; confirmed at once where no mail can be sent (local mode). */
  register(input: { email: string; password: string; name: string; role: UserRole }): Promise<{ userId: string; confirmed: boolean }>;
  confirm(email: string, code: string): Promise<void>;
  /**
   * Emails a new confirmation code to a user awaiting confirmation; does nothing, without saying so,
   * for an unknown or already confirmed email.
   */
  resendCode(email: string): Promise<void>;
  /** Emails a password reset code; does nothing, without saying so, for an unknown email. */
  requestPasswordReset(email: string): Promise<void>;
  /** A new password with the emailed code: `InvalidConfirmationCodeError` for a wrong, expired or unknown one. */
  resetPassword(email: string, code: string, password: string): Promise<void>;
  /** Ends every session of the user at the provider: their refresh tokens stop working. */
  signOutEverywhere(email: string): Promise<void>;
  signIn(email: string, password: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Revokes a refresh token and the access tokens issued from it. */
  revoke(refreshToken: string): Promise<void>;
  /** Undoes a registration whose records could not be written. */
  remove(email: string): Promise<void>;
}

export interface UserStore {
  get(userId: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  create(user: UserRecord): Promise<void>;
  /** Writes the record if its stored version is still `expectedVersion`; false otherwise. */
  replace(user: UserRecord, expectedVersion: number): Promise<boolean>;
  markActive(userId: string, at: Date): Promise<void>;
  /** Operator: moves the user to another account. */
  linkAccount(userId: string, accountId: string, at: Date): Promise<void>;
}

/** Signed-out sessions, whose access tokens the bearer step refuses until they expire. */
export interface SessionRevocationStore {
  revoke(userId: string, sessionId: string, until: Date): Promise<void>;
}

/** An attempt's hold on one of its subject's slots (see attempts.ts). */
export interface AttemptSlot {
  subject: string;
  index: number;
  /** Epoch ms: when the slot was taken. */
  at: number;
}

/** Either the slot, with how many other attempts of the subject hold one, or the seconds until one frees. */
export type SlotOutcome = { slot: AttemptSlot; othersInWindow: number } | { retryAfterSeconds: number };

export interface AttemptStore {
  /**
   * Takes a free slot of the subject in one atomic conditional write, so concurrent attempts never
   * hold more than `policy.limit` slots inside the window. `AttemptCounterBusyError` when concurrent
   * takers kept winning the slots it chose.
   */
  take(subject: string, now: Date, policy: AttemptPolicy): Promise<SlotOutcome>;
  /** Gives the slot back (an attempt that must not count); a slot taken again since is left alone. */
  release(slot: AttemptSlot): Promise<void>;
  /** Frees every slot of the subject. */
  clear(subject: string): Promise<void>;
}

export interface SecurityEventStore {
  append(event: SecurityEvent): Promise<void>;
  list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: SecurityEvent[]; next_cursor: string | null }>;
}

/** An API key of the current API as the /v1/keys routes show it (never the key itself). */
export interface AccountKey {
  key_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AccountKeyStore {
  openAccount(account: Account): Promise<void>;
  /** `account`: the account's tier and usage key, when the caller has just read them. */
  addKey(accountId: string, keyHash: string, key: Omit<AccountKey, 'last_used_at'>, account?: Pick<Account, 'tier' | 'usage_key'>): Promise<void>;
  /** The account's usage key, `candidate` stored if it has none yet; undefined without such an account. */
  assignUsageKey(accountId: string, candidate: string): Promise<string | undefined>;
  listKeys(accountId: string): Promise<AccountKey[]>;
  /** Revokes the account's key with this id; false when the account has no such active key. */
  revokeAccountKey(accountId: string, keyId: string, at: Date): Promise<boolean>;
  setTier(accountId: string, tier: Tier): Promise<boolean>;
}
