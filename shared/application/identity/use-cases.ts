import { createHash } from 'node:crypto';
import { hashApiKey, newApiKey, newUsageKey } from '../../domain/api-keys';
import type { Tier } from '../../domain/tiers';
import type { Account, AccountUsageKeys, AccountWithUsageKey } from '../../ports';
import {
  EMAILED_CODES_PER_ADDRESS, EMAILED_CODES_PER_EMAIL, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_EMAIL, LOGIN_SLOWDOWN_PER_ADDRESS,
  LOGIN_SLOWDOWN_PER_EMAIL, REGISTRATIONS_PER_ADDRESS, slowdownMs, type AttemptPolicy,
} from '../../domain/identity/attempts';
import { passwordPolicyViolations } from '../../domain/identity/pool-settings';
import {
  InvalidConfirmationCodeError, InvalidCredentialsError, TooManyAttemptsError, WeakPasswordError, type AccountKey, type AccountKeyStore, type AttemptSlot,
  type AttemptStore, type IdentityProvider, type SecurityEventStore, type SessionRevocationStore, type TokenSet, type UserStore,
} from '../../domain/identity/ports';
import { applyProfileUpdate, countyName, etagOf, type ProfileUpdate, type UserRecord } from '../../domain/identity/profile';
import type { SecurityEvent, SecurityEventType } from '../../domain/identity/security-events';
import type { UserRole } from '../../domain/identity/roles';

export interface IdentityDeps {
  provider: IdentityProvider;
  users: UserStore;
  accounts: AccountKeyStore & { getAccount(accountId: string): Promise<Account | undefined> };
  /** Each account's own key in its tier's usage plan; absent where no API Gateway stands in front (local mode). */
  usageKeys?: AccountUsageKeys;
  attempts: AttemptStore;
  sessions: SessionRevocationStore;
  events: SecurityEventStore;
  clock: () => Date;
  newId: () => string;
  /** The pause of the sign-in slowdown (a timer; tests record it instead of waiting). */
  sleep: (ms: number) => Promise<void>;
}

/** Where a request came from, as recorded with security events. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export class ProfileNotFoundError extends Error {}
/** The profile is no longer at the version the caller read; `currentVersion` is the one to re-read. */
export class StaleVersionError extends Error {
  constructor(readonly currentVersion: number) {
    super(`The profile is at version ${currentVersion}.`);
  }
}
export class KeyLimitReachedError extends Error {}

export const MAX_ACTIVE_KEYS = 20;

/** Attempt counters are keyed by a hash, so the table holds no email address for them. */
const emailSubject = (kind: 'login' | 'code', email: string) => `${kind}-email#${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;
const addressSubject = (kind: 'login' | 'register' | 'code', ip: string) => `${kind}-address#${ip}`;

/** One limit an attempt is counted against, and the refusal's message. */
interface Limit {
  subject: string;
  policy: AttemptPolicy;
  message: string;
}

type HeldSlot = { slot: AttemptSlot; othersInWindow: number };

const releaseSlots = async (deps: IdentityDeps, held: readonly HeldSlot[]) => {
  await Promise.all(held.map(({ slot }) => deps.attempts.release(slot)));
};

/**
 * Takes a slot of every limit, in order, before the work they guard (a password or code is checked
 * only while its slots are held, so a burst checks at most the limit). If a limit is full, the
 * slots already taken are given back and the attempt is refused with the time left.
 */
async function takeSlots(deps: IdentityDeps, limits: readonly Limit[]): Promise<HeldSlot[]> {
  const held: HeldSlot[] = [];
  try {
    for (const { subject, policy, message } of limits) {
      const outcome = await deps.attempts.take(subject, deps.clock(), policy);
      if ('retryAfterSeconds' in outcome) throw new TooManyAttemptsError(outcome.retryAfterSeconds, message);
      held.push(outcome);
    }
  } catch (error) {
    await releaseSlots(deps, held);
    throw error;
  }
  return held;
}

/** The limits of a password or reset-code guess: per email and per client address, counted together. */
function guessLimits(email: string, client: ClientInfo, what: string): Limit[] {
  return [
    { subject: emailSubject('login', email), policy: LOGIN_FAILURES_PER_EMAIL, message: `Too many ${what} for this email.` },
    { subject: addressSubject('login', client.ip), policy: LOGIN_FAILURES_PER_ADDRESS, message: `Too many ${what} from this address.` },
  ];
}

/** The pool's password policy, checked before the identity provider sees the password, naming every broken rule. */
function assertStrongPassword(password: string): void {
  const violations = passwordPolicyViolations(password);
  if (violations.length > 0) throw new WeakPasswordError(`The password needs ${violations.join(', ')}.`);
}

async function record(deps: IdentityDeps, type: SecurityEventType, userId: string, client: ClientInfo, details: SecurityEvent['details'] = {}): Promise<void> {
  await deps.events.append({
    event_id: deps.newId(),
    type,
    occurred_at: deps.clock().toISOString(),
    user_id: userId,
    client_ip: client.ip,
    user_agent: client.userAgent,
    details,
  });
}

export interface RegistrationInput {
  email: string;
  password: string;
  name: string;
  role: UserRole;
  organization?: string;
  county_fips?: string;
}

/**
 * Identity provider user (in the role's group), then the user's own Free account and the user
 * record. If the records cannot be written the provider's user is removed again, so a failed
 * registration can be retried with the same email.
 */
export async function registerUser(deps: IdentityDeps, input: RegistrationInput, client: ClientInfo): Promise<UserRecord> {
  // Every registration attempt counts, a refused one too.
  await takeSlots(deps, [{ subject: addressSubject('register', client.ip), policy: REGISTRATIONS_PER_ADDRESS, message: 'Too many registrations from this address.' }]);
  assertStrongPassword(input.password);

  const { userId, confirmed } = await deps.provider.register({ email: input.email, password: input.password, name: input.name, role: input.role });
  const now = deps.clock().toISOString();
  const user: UserRecord = {
    user_id: userId,
    email: input.email,
    name: input.name,
    role: input.role,
    organization: input.organization ?? null,
    county_fips: input.county_fips ?? null,
    preferences: {},
    account_id: `acct_${deps.newId()}`,
    status: confirmed ? 'active' : 'pending_confirmation',
    created_at: now,
    updated_at: now,
    version: 1,
  };
  try {
    const account: AccountWithUsageKey = { account_id: user.account_id, name: input.organization ?? input.name, tier: 'free', created_at: now, usage_key: newUsageKey() };
    // Attached before it is stored: no stored account names a usage identifier the gateway does not know.
    await deps.usageKeys?.attach(account);
    await deps.accounts.openAccount(account);
    await deps.users.create(user);
  } catch (error) {
    await deps.provider.remove(input.email);
    throw error;
  }
  return user;
}

export async function confirmRegistration(deps: IdentityDeps, email: string, code: string): Promise<void> {
  await deps.provider.confirm(email, code);
  const user = await deps.users.findByEmail(email);
  if (user && user.status !== 'active') await deps.users.markActive(user.user_id, deps.clock());
}

/**
 * Every request for an emailed code counts, for the email and the client address, whatever its
 * outcome (the answer does not tell whether the email is registered).
 */
async function countEmailedCode(deps: IdentityDeps, email: string, client: ClientInfo): Promise<void> {
  await takeSlots(deps, [
    { subject: emailSubject('code', email), policy: EMAILED_CODES_PER_EMAIL, message: 'Too many codes asked for this email.' },
    { subject: addressSubject('code', client.ip), policy: EMAILED_CODES_PER_ADDRESS, message: 'Too many codes asked from this address.' },
  ]);
}

/** A new confirmation code for a registration whose code was lost or expired (Cognito's expire after 24 hours). */
export async function resendConfirmationCode(deps: IdentityDeps, email: string, client: ClientInfo): Promise<void> {
  await countEmailedCode(deps, email, client);
  await deps.provider.resendCode(email);
}

/** A password reset code, emailed to a registered user. */
export async function requestPasswordReset(deps: IdentityDeps, email: string, client: ClientInfo): Promise<void> {
  await countEmailedCode(deps, email, client);
  await deps.provider.requestPasswordReset(email);
}

/**
 * A new password with the emailed code. Guessing a code is guessing a password: the attempt takes
 * a sign-in slot of the email and the address before the code is checked, under the same limits,
 * and a wrong code keeps them. A success frees the email's slots (the mailbox's owner may sign in
 * again at once), ends every session of the user at the provider and is recorded in their activity.
 */
export async function resetPassword(deps: IdentityDeps, input: { email: string; code: string; password: string }, client: ClientInfo): Promise<void> {
  assertStrongPassword(input.password);
  const held = await takeSlots(deps, guessLimits(input.email, client, 'password reset attempts'));
  try {
    await deps.provider.resetPassword(input.email, input.code, input.password);
  } catch (error) {
    // Any other failure (the provider unavailable) told the caller nothing about the code.
    if (!(error instanceof InvalidConfirmationCodeError)) await releaseSlots(deps, held);
    throw error;
  }
  await deps.attempts.clear(emailSubject('login', input.email));
  await releaseSlots(deps, held.slice(1));
  await deps.provider.signOutEverywhere(input.email);
  const user = await deps.users.findByEmail(input.email);
  if (user) await record(deps, 'password_reset', user.user_id, client);
}

/**
 * Password sign-in under the limits of both the email and the client address: the attempt takes a
 * slot of each before the password is checked (slowed first when many attempts hold slots, then
 * refused). A wrong password keeps its slots for the window; a success gives its own back, so only
 * failures use up the limit, while failures already counted stay until they leave the window.
 * Failures for a registered email are also recorded in that user's activity.
 */
export async function signIn(deps: IdentityDeps, email: string, password: string, client: ClientInfo): Promise<TokenSet> {
  const held = await takeSlots(deps, guessLimits(email, client, 'sign-in attempts'));
  const [perEmail, perAddress] = held as [HeldSlot, HeldSlot];
  const delay = Math.max(slowdownMs(perEmail.othersInWindow, LOGIN_SLOWDOWN_PER_EMAIL), slowdownMs(perAddress.othersInWindow, LOGIN_SLOWDOWN_PER_ADDRESS));
  if (delay > 0) await deps.sleep(delay);
  let tokens: TokenSet;
  try {
    tokens = await deps.provider.signIn(email, password);
  } catch (error) {
    if (!(error instanceof InvalidCredentialsError)) {
      await releaseSlots(deps, held);
      throw error;
    }
    const user = await deps.users.findByEmail(email);
    if (user) await record(deps, 'sign_in_failed', user.user_id, client);
    throw error;
  }
  await releaseSlots(deps, held);
  const user = await deps.users.findByEmail(email);
  if (user) await record(deps, 'sign_in', user.user_id, client);
  return tokens;
}

/** The signed-in session (as the bearer step gave it), if any, and the refresh token. */
export interface SignedInSession {
  id: string;
  /** Epoch seconds: when the session's access token expires. */
  expires_at: number;
}

/**
 * Ends a session: the refresh token is revoked at the identity provider, and the session's access
 * tokens are refused from the next request (the bearer step checks the revocation record; Cognito's
 * own revocation binds only its APIs, not a JWT verifier). In this order, so a logout that fails
 * half-way can be sent again with the same access token (revoking a revoked refresh token is no error).
 */
export async function signOut(deps: IdentityDeps, userId: string, session: SignedInSession | undefined, refreshToken: string, client: ClientInfo): Promise<void> {
  await deps.provider.revoke(refreshToken);
  if (session) await deps.sessions.revoke(userId, session.id, new Date(session.expires_at * 1000));
  await record(deps, 'sign_out', userId, client);
}

/** The user as their profile shows it: the record's own fields, the county's name and the account's tier. */
export type Profile = Pick<UserRecord, 'user_id' | 'email' | 'name' | 'role' | 'organization' | 'county_fips' | 'account_id' | 'preferences' | 'created_at' | 'updated_at'> & {
  county_name: string | null;
  subscription_tier: Tier;
};

async function profileView(deps: IdentityDeps, user: UserRecord): Promise<{ profile: Profile; etag: string }> {
  const account = await deps.accounts.getAccount(user.account_id);
  return {
    profile: {
      user_id: user.user_id,
      email: user.email,
      name: user.name,
      role: user.role,
      organization: user.organization,
      county_fips: user.county_fips,
      county_name: countyName(user.county_fips),
      account_id: user.account_id,
      subscription_tier: account?.tier ?? 'free',
      preferences: user.preferences,
      created_at: user.created_at,
      updated_at: user.updated_at,
    },
    etag: etagOf(user),
  };
}

export async function profileOf(deps: IdentityDeps, userId: string): Promise<{ profile: Profile; etag: string }> {
  const user = await deps.users.get(userId);
  if (!user) throw new ProfileNotFoundError();
  return profileView(deps, user);
}

/** Conditional on the version the caller read: a stale version changes nothing. */
export async function updateProfile(
  deps: IdentityDeps, userId: string, expectedVersion: number | undefined, update: ProfileUpdate, client: ClientInfo,
): Promise<{ profile: Profile; etag: string }> {
  const user = await deps.users.get(userId);
  if (!user) throw new ProfileNotFoundError();
  if (expectedVersion !== user.version) throw new StaleVersionError(user.version);
  const { user: next, changed } = applyProfileUpdate(user, update, deps.clock());
  if (changed.length > 0) {
    if (!(await deps.users.replace(next, user.version))) {
      // Another write won after the version check: name the version that won.
      const latest = await deps.users.get(userId);
      if (!latest) throw new ProfileNotFoundError();
      throw new StaleVersionError(latest.version);
    }
    await record(deps, 'profile_changed', userId, client, { fields: changed });
  }
  return profileView(deps, next);
}

export interface IssuedKey {
  key_id: string;
  name: string;
  key: string;
  prefix: string;
  subscription_tier: Tier;
  created_at: string;
}

/** A key for the current API at the account's tier; the value leaves this function once, only its hash is stored. */
export async function issueAccountKey(deps: IdentityDeps, userId: string, accountId: string, name: string, keyId: string, client: ClientInfo): Promise<IssuedKey> {
  const account = await deps.accounts.getAccount(accountId);
  if (!account) throw new ProfileNotFoundError();
  if ((await deps.accounts.listKeys(accountId)).length >= MAX_ACTIVE_KEYS) throw new KeyLimitReachedError();
  // An account opened before accounts had a usage key gets one now; attaching again is harmless and
  // finishes an attachment that failed before.
  const usageKey = account.usage_key ?? await deps.accounts.assignUsageKey(accountId, newUsageKey());
  if (!usageKey) throw new ProfileNotFoundError();
  await deps.usageKeys?.attach({ ...account, usage_key: usageKey });
  const key = newApiKey();
  const created: Omit<AccountKey, 'last_used_at'> = { key_id: keyId, name, prefix: key.slice(0, 8), created_at: deps.clock().toISOString() };
  await deps.accounts.addKey(accountId, hashApiKey(key), created, { tier: account.tier, usage_key: usageKey });
  await record(deps, 'key_created', userId, client, { key_id: keyId, name });
  return { ...created, key, subscription_tier: account.tier };
}

export async function revokeAccountKey(deps: IdentityDeps, userId: string, accountId: string, keyId: string, client: ClientInfo): Promise<boolean> {
  const revoked = await deps.accounts.revokeAccountKey(accountId, keyId, deps.clock());
  if (revoked) await record(deps, 'key_revoked', userId, client, { key_id: keyId });
  return revoked;
}
