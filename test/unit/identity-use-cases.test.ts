import { createHash } from 'node:crypto';
import { hashApiKey } from '../../shared/domain/api-keys';
import {
  EMAILED_CODES_PER_ADDRESS, EMAILED_CODES_PER_EMAIL, LOGIN_FAILURES_PER_EMAIL, REGISTRATIONS_PER_ADDRESS, secondsUntilAllowed, type AttemptPolicy,
} from '../../shared/domain/identity/attempts';
import { InvalidConfirmationCodeError, InvalidCredentialsError, TooManyAttemptsError, WeakPasswordError, type AccountKey, type TokenSet } from '../../shared/domain/identity/ports';
import { countyName, isFloridaCountyFips, type UserRecord } from '../../shared/domain/identity/profile';
import { isUserRole } from '../../shared/domain/identity/roles';
import type { SecurityEvent } from '../../shared/domain/identity/security-events';
import {
  confirmRegistration, issueAccountKey, requestPasswordReset, resendConfirmationCode, resetPassword, KeyLimitReachedError, MAX_ACTIVE_KEYS, profileOf, ProfileNotFoundError, registerUser,
  revokeAccountKey, signIn, StaleVersionError, updateProfile, type IdentityDeps,
} from '../../shared/application/identity/use-cases';
import type { Tier } from '../../shared/domain/tiers';
import type { Account } from '../../shared/ports';

/**
 * The identity use cases against in-memory ports: what each records, refuses and undoes. The
 * e2e tests drive the same cases through Cognito's emulator; these pin each branch on its own.
 */

const NOW = new Date('2026-11-23T15:00:00Z');
const client = { ip: '198.51.100.7', userAgent: 'curl/8.5' };
const STRONG = 'Correct-Horse-42';

const tokens: TokenSet = { access_token: 'a', id_token: 'i', refresh_token: 'r', token_type: 'Bearer', expires_in: 3600 };

function world(options: { confirmed?: boolean; password?: string } = {}) {
  const users = new Map<string, UserRecord>();
  const attempts = new Map<string, number[]>();
  const events: SecurityEvent[] = [];
  const sleeps: number[] = [];
  const calls: string[] = [];
  const accounts = new Map<string, Account>();
  const keys = new Map<string, Array<AccountKey & { hash: string; tier?: Tier; usage_key?: string }>>();
  /** What the usage plans hold: each usage key's plan, as the API Gateway adapter would leave them. */
  const plans = new Map<string, Tier>();
  let failAttach = false;
  let ids = 0;
  let failAccountWrite = false;
  const deps: IdentityDeps = {
    provider: {
      async register(input) { calls.push(`register:${input.email}:${input.role}`); return { userId: 'u-1', confirmed: options.confirmed ?? true }; },
      async confirm(email, code) { calls.push(`confirm:${email}:${code}`); },
      async resendCode(email) { calls.push(`resendCode:${email}`); },
      async requestPasswordReset(email) { calls.push(`requestPasswordReset:${email}`); },
      async resetPassword(email, code) {
        calls.push(`resetPassword:${email}:${code}`);
        if (code === 'explode') throw new Error('provider unavailable');
        if (code !== '246810') throw new InvalidConfirmationCodeError();
      },
      async signOutEverywhere(email) { calls.push(`signOutEverywhere:${email}`); },
      async signIn(email, password) {
        calls.push(`signIn:${email}`);
        if (password === 'explode') throw new Error('provider unavailable');
        if (password !== (options.password ?? STRONG)) throw new InvalidCredentialsError();
        return tokens;
      },
      async refresh() { return tokens; },
      async revoke() { calls.push('revoke'); },
      async remove(email) { calls.push(`remove:${email}`); },
    },
    users: {
      async get(id) { return users.get(id); },
      async findByEmail(email) { return [...users.values()].find((u) => u.email === email); },
      async create(user) { users.set(user.user_id, user); },
      async replace(user, expected) {
        if (users.get(user.user_id)?.version !== expected) return false;
        users.set(user.user_id, user);
        return true;
      },
      async markActive(id, at) { calls.push(`markActive:${id}:${at.toISOString()}`); },
      async linkAccount() {},
    },
    accounts: {
      async openAccount(account) {
        if (failAccountWrite) throw new Error('table unavailable');
        accounts.set(account.account_id, account);
        calls.push(`openAccount:${account.account_id}:${account.name}:${account.tier}`);
      },
      async getAccount(id) { return accounts.get(id); },
      async addKey(accountId, hash, key, known) {
        keys.set(accountId, [...(keys.get(accountId) ?? []), { ...key, last_used_at: null, hash, tier: known?.tier, usage_key: known?.usage_key }]);
      },
      async assignUsageKey(accountId, candidate) {
        const account = accounts.get(accountId);
        if (!account) return undefined;
        account.usage_key ??= candidate;
        return account.usage_key;
      },
      async listKeys(accountId) { return keys.get(accountId) ?? []; },
      async revokeAccountKey(accountId, keyId) {
        const list = keys.get(accountId) ?? [];
        keys.set(accountId, list.filter((k) => k.key_id !== keyId));
        return list.some((k) => k.key_id === keyId);
      },
      async setTier() { return true; },
    },
    // Slots as the attempt times of each subject (the adapter's slot indexes play no part here).
    attempts: {
      async take(subject, now, policy: AttemptPolicy) {
        const inWindow = (attempts.get(subject) ?? []).filter((t) => t > now.getTime() - policy.windowMs);
        if (inWindow.length >= policy.limit) return { retryAfterSeconds: secondsUntilAllowed(inWindow, now.getTime(), policy) };
        attempts.set(subject, [...(attempts.get(subject) ?? []), now.getTime()]);
        return { slot: { subject, index: inWindow.length, at: now.getTime() }, othersInWindow: inWindow.length };
      },
      async release(slot) {
        const times = attempts.get(slot.subject) ?? [];
        const at = times.lastIndexOf(slot.at);
        const rest = times.filter((_, i) => i !== at);
        if (rest.length > 0) attempts.set(slot.subject, rest);
        else attempts.delete(slot.subject);
      },
      async clear(subject) { attempts.delete(subject); },
    },
    usageKeys: {
      async attach(account) {
        if (failAttach) throw new Error('API Gateway unavailable');
        calls.push(`attach:${account.account_id}:${account.tier}`);
        plans.set(account.usage_key, account.tier);
      },
      async move(account) { plans.set(account.usage_key, account.tier); },
    },
    sessions: { async revoke() {} },
    events: { async append(event) { events.push(event); }, async list() { return { data: [], next_cursor: null }; } },
    clock: () => NOW,
    newId: () => `id${++ids}`,
    sleep: async (ms) => { sleeps.push(ms); },
  };
  return {
    deps, users, attempts, events, sleeps, calls, accounts, keys, plans,
    failAccounts: () => { failAccountWrite = true; },
    failAttach: () => { failAttach = true; },
  };
}

const emailSubject = (email: string) => `login-email#${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;
const registration = { email: 'ana@example.org', password: STRONG, name: 'Ana', role: 'staff' as const };

describe('registration', () => {
  it('creates the provider user, a Free account named after the organisation and an active user record', async () => {
    const w = world();
    const user = await registerUser(w.deps, { ...registration, organization: 'Monroe County', county_fips: '12087' }, client);
    expect(user).toMatchObject({
      user_id: 'u-1', email: 'ana@example.org', role: 'staff', organization: 'Monroe County', county_fips: '12087',
      status: 'active', version: 1, created_at: NOW.toISOString(), updated_at: NOW.toISOString(), preferences: {},
    });
    expect(user.account_id).toMatch(/^acct_id\d+$/);
    expect(w.calls).toEqual(['register:ana@example.org:staff', `attach:${user.account_id}:free`, `openAccount:${user.account_id}:Monroe County:free`]);
    expect(w.users.get('u-1')).toEqual(user);
    expect(w.attempts.get(`register-address#${client.ip}`)).toEqual([NOW.getTime()]);
  });

  it('names the account after the person without an organisation, and waits for confirmation when the provider asks', async () => {
    const w = world({ confirmed: false });
    const user = await registerUser(w.deps, registration, client);
    expect(user).toMatchObject({ organization: null, county_fips: null, status: 'pending_confirmation' });
    expect(w.calls[2]).toBe(`openAccount:${user.account_id}:Ana:free`);
  });

  it('refuses a weak password before the provider sees it, naming every broken rule', async () => {
    const w = world();
    await expect(registerUser(w.deps, { ...registration, password: 'short' }, client))
      .rejects.toThrow(new WeakPasswordError('The password needs at least 12 characters, an upper-case letter, a digit, a symbol.'));
    expect(w.calls).toEqual([]);
  });

  it('removes the provider user again when the records cannot be written', async () => {
    const w = world();
    w.failAccounts();
    await expect(registerUser(w.deps, registration, client)).rejects.toThrow('table unavailable');
    // The usage key attached to the plan stays there, unnamed by any account: harmless, and not a customer credential.
    expect(w.calls).toEqual(['register:ana@example.org:staff', expect.stringMatching(/^attach:acct_id\d+:free$/), 'remove:ana@example.org']);
    expect(w.users.size).toBe(0);
  });

  it('allows the 20th registration from an address within the hour and refuses the 21st with the wait', async () => {
    const w = world();
    const subject = `register-address#${client.ip}`;
    w.attempts.set(subject, Array.from({ length: REGISTRATIONS_PER_ADDRESS.limit - 1 }, (_, i) => NOW.getTime() - (59 - i) * 60_000));
    await registerUser(w.deps, registration, client);
    const refused = registerUser(w.deps, { ...registration, email: 'bo@example.org' }, client);
    await expect(refused).rejects.toBeInstanceOf(TooManyAttemptsError);
    // The oldest of the 20 attempts (59 min ago) leaves the hour's window in one minute.
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 60, message: 'Too many registrations from this address.' });
  });
});

describe('confirmation', () => {
  it('marks a pending user active once the provider accepts the code, and leaves an active one alone', async () => {
    const w = world({ confirmed: false });
    await registerUser(w.deps, registration, client);
    await confirmRegistration(w.deps, 'ana@example.org', '123456');
    expect(w.calls.slice(-2)).toEqual(['confirm:ana@example.org:123456', `markActive:u-1:${NOW.toISOString()}`]);

    w.users.set('u-1', { ...w.users.get('u-1')!, status: 'active' });
    await confirmRegistration(w.deps, 'ana@example.org', '123456');
    expect(w.calls.filter((c) => c.startsWith('markActive'))).toHaveLength(1);
    await confirmRegistration(w.deps, 'nobody@example.org', '1');
    expect(w.calls.filter((c) => c.startsWith('markActive'))).toHaveLength(1);
  });
});

describe('emailed codes: a new confirmation code, a password reset code', () => {
  const codeSubject = (email: string) => `code-email#${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;

  it('asks the provider and counts the request against the email (case-insensitively) and the address', async () => {
    const w = world();
    await resendConfirmationCode(w.deps, 'Ana@Example.org', client);
    await requestPasswordReset(w.deps, 'ana@example.org', client);
    expect(w.calls).toEqual(['resendCode:Ana@Example.org', 'requestPasswordReset:ana@example.org']);
    expect(w.attempts.get(codeSubject('ana@example.org'))).toEqual([NOW.getTime(), NOW.getTime()]);
    expect(w.attempts.get(`code-address#${client.ip}`)).toEqual([NOW.getTime(), NOW.getTime()]);
    // Their own counters: sign-in failures of the email are another subject.
    expect(w.attempts.has(emailSubject('ana@example.org'))).toBe(false);
  });

  it('refuses once the email had 5 codes within the hour, both kinds together, until the oldest leaves the window', async () => {
    const w = world();
    expect(EMAILED_CODES_PER_EMAIL).toEqual({ limit: 5, windowMs: 3_600_000 });
    w.attempts.set(codeSubject('ana@example.org'), [50, 40, 30, 20, 10].map((m) => NOW.getTime() - m * 60_000));
    for (const ask of [resendConfirmationCode, requestPasswordReset]) {
      const error = await ask(w.deps, 'ana@example.org', client).catch((e: unknown) => e) as TooManyAttemptsError;
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect([error.retryAfterSeconds, error.message]).toEqual([10 * 60, 'Too many codes asked for this email.']);
    }
    expect(w.calls).toEqual([]);
    // Another email from the same address is still served.
    await requestPasswordReset(w.deps, 'bo@example.org', client);
    expect(w.calls).toEqual(['requestPasswordReset:bo@example.org']);
  });

  it('refuses an address that asked for 20 within the hour, whatever the email', async () => {
    const w = world();
    expect(EMAILED_CODES_PER_ADDRESS).toEqual({ limit: 20, windowMs: 3_600_000 });
    w.attempts.set(`code-address#${client.ip}`, Array.from({ length: 20 }, (_, i) => NOW.getTime() - (59 - i) * 60_000));
    const error = await resendConfirmationCode(w.deps, 'new@example.org', client).catch((e: unknown) => e) as TooManyAttemptsError;
    expect([error.retryAfterSeconds, error.message]).toEqual([60, 'Too many codes asked from this address.']);
    expect(w.calls).toEqual([]);
  });
});

describe('password reset', () => {
  const reset = (code: string, password = 'Another-Str0ng-pass') => ({ email: 'ana@example.org', code, password });

  it('sets the password, clears the email\'s sign-in failures, ends every session and records it for the user', async () => {
    const w = world();
    await registerUser(w.deps, registration, client);
    w.attempts.clear();
    w.events.length = 0;
    w.attempts.set(emailSubject('ana@example.org'), [NOW.getTime() - 60_000]);
    await resetPassword(w.deps, reset('246810'), client);
    expect(w.calls.slice(-2)).toEqual(['resetPassword:ana@example.org:246810', 'signOutEverywhere:ana@example.org']);
    expect(w.attempts.has(emailSubject('ana@example.org'))).toBe(false);
    expect(w.events.map((e) => [e.type, e.user_id, e.client_ip])).toEqual([['password_reset', 'u-1', client.ip]]);
  });

  it('counts a wrong code as a failed sign-in of the email and the address, and signs nobody out', async () => {
    const w = world();
    await expect(resetPassword(w.deps, reset('111111'), client)).rejects.toBeInstanceOf(InvalidConfirmationCodeError);
    expect(w.attempts.get(emailSubject('ana@example.org'))).toEqual([NOW.getTime()]);
    expect(w.attempts.get(`login-address#${client.ip}`)).toEqual([NOW.getTime()]);
    expect(w.calls).toEqual(['resetPassword:ana@example.org:111111']);
    expect(w.events).toEqual([]);
  });

  it('passes other provider errors through without counting them as failures', async () => {
    const w = world();
    await expect(resetPassword(w.deps, reset('explode'), client)).rejects.toThrow('provider unavailable');
    expect(w.attempts.size).toBe(0);
  });

  it('refuses after 10 failures of the email within 15 minutes, before the provider sees the code', async () => {
    const w = world();
    w.attempts.set(emailSubject('ana@example.org'), Array.from({ length: 10 }, (_, i) => NOW.getTime() - (14 - i) * 60_000));
    const error = await resetPassword(w.deps, reset('246810'), client).catch((e: unknown) => e) as TooManyAttemptsError;
    expect([error.retryAfterSeconds, error.message]).toEqual([60, 'Too many password reset attempts for this email.']);
    expect(w.calls).toEqual([]);
  });

  it('refuses a weak password before anything else, naming every broken rule', async () => {
    const w = world();
    const error = await resetPassword(w.deps, reset('246810', 'short'), client).catch((e: unknown) => e) as WeakPasswordError;
    expect(error).toBeInstanceOf(WeakPasswordError);
    expect(error.message).toMatch(/^The password needs at least 12 characters, /);
    expect([w.calls, w.attempts.size]).toEqual([[], 0]);
  });

  it('records no event for an email without a user record', async () => {
    const w = world();
    await resetPassword(w.deps, reset('246810'), client);
    expect(w.calls).toEqual(['resetPassword:ana@example.org:246810', 'signOutEverywhere:ana@example.org']);
    expect(w.events).toEqual([]);
  });
});

describe('sign-in', () => {
  async function registered() {
    const w = world();
    await registerUser(w.deps, registration, client);
    w.attempts.clear();
    return w;
  }

  it('answers the tokens, gives its own slots back (earlier failures stay counted) and records the sign-in', async () => {
    const w = await registered();
    w.attempts.set(emailSubject('ana@example.org'), [NOW.getTime() - 60_000]);
    await expect(signIn(w.deps, 'ana@example.org', STRONG, client)).resolves.toBe(tokens);
    expect(w.attempts.get(emailSubject('ana@example.org'))).toEqual([NOW.getTime() - 60_000]);
    expect(w.attempts.has(`login-address#${client.ip}`)).toBe(false);
    expect(w.events).toEqual([{ event_id: expect.any(String), type: 'sign_in', occurred_at: NOW.toISOString(), user_id: 'u-1', client_ip: client.ip, user_agent: 'curl/8.5', details: {} }]);
    expect(w.sleeps).toEqual([]);
  });

  it('counts a failure against the email (case-insensitively) and the address, and records it for a known user', async () => {
    const w = await registered();
    await expect(signIn(w.deps, 'ana@example.org', 'wrong', client)).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(w.attempts.get(emailSubject('ANA@example.org'))).toEqual([NOW.getTime()]);
    expect(w.attempts.get(`login-address#${client.ip}`)).toEqual([NOW.getTime()]);
    expect(w.events.map((e) => [e.type, e.user_id])).toEqual([['sign_in_failed', 'u-1']]);
  });

  it('records no event for an unknown email, failed or not', async () => {
    const w = world();
    await expect(signIn(w.deps, 'ghost@example.org', 'wrong', client)).rejects.toBeInstanceOf(InvalidCredentialsError);
    await signIn(w.deps, 'ghost@example.org', STRONG, client);
    expect(w.events).toEqual([]);
    // The failure stays counted; the success gave back only its own slot.
    expect(w.attempts.get(emailSubject('ghost@example.org'))).toHaveLength(1);
  });

  it('takes the slots of the email and the address before the password is checked', async () => {
    const w = await registered();
    const held: Array<number[] | undefined> = [];
    const check = w.deps.provider.signIn.bind(w.deps.provider);
    w.deps.provider.signIn = async (email, password) => {
      held.push(w.attempts.get(emailSubject(email)), w.attempts.get(`login-address#${client.ip}`));
      return check(email, password);
    };
    await expect(signIn(w.deps, 'ana@example.org', 'wrong', client)).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(held).toEqual([[NOW.getTime()], [NOW.getTime()]]);
  });

  it('passes other provider errors through without counting them as failures', async () => {
    const w = await registered();
    await expect(signIn(w.deps, 'ana@example.org', 'explode', client)).rejects.toThrow('provider unavailable');
    expect(w.attempts.size).toBe(0);
    expect(w.events).toEqual([]);
  });

  it('slows the fourth attempt after three failures by the larger of the two slowdowns', async () => {
    const w = await registered();
    w.attempts.set(emailSubject('ana@example.org'), [1, 2, 3].map((m) => NOW.getTime() - m * 60_000));
    await signIn(w.deps, 'ana@example.org', STRONG, client);
    expect(w.sleeps).toEqual([1000]);
    // Two failures: not yet slowed.
    w.attempts.set(emailSubject('ana@example.org'), [1, 2].map((m) => NOW.getTime() - m * 60_000));
    await signIn(w.deps, 'ana@example.org', STRONG, client);
    expect(w.sleeps).toEqual([1000]);
    // Five email failures (4 s) outweigh the address's 21 (2 s).
    w.attempts.set(emailSubject('ana@example.org'), [1, 2, 3, 4, 5].map((m) => NOW.getTime() - m * 60_000));
    w.attempts.set(`login-address#${client.ip}`, Array.from({ length: 21 }, (_, i) => NOW.getTime() - (i + 1) * 1000));
    await signIn(w.deps, 'ana@example.org', STRONG, client);
    expect(w.sleeps).toEqual([1000, 4000]);
  });

  it('refuses the email at 10 failures in 15 minutes and the address at 50, with the time left', async () => {
    const w = await registered();
    const tenMinutesOfFailures = Array.from({ length: LOGIN_FAILURES_PER_EMAIL.limit }, (_, i) => NOW.getTime() - (10 - i) * 60_000);
    w.attempts.set(emailSubject('ana@example.org'), tenMinutesOfFailures);
    await expect(signIn(w.deps, 'ana@example.org', STRONG, client))
      .rejects.toMatchObject({ retryAfterSeconds: 5 * 60, message: 'Too many sign-in attempts for this email.' });
    w.attempts.set(emailSubject('ana@example.org'), tenMinutesOfFailures.slice(1));
    w.attempts.set(`login-address#${client.ip}`, Array.from({ length: 50 }, () => NOW.getTime() - 60_000));
    await expect(signIn(w.deps, 'ana@example.org', STRONG, client))
      .rejects.toMatchObject({ retryAfterSeconds: 14 * 60, message: 'Too many sign-in attempts from this address.' });
    // The email's slot taken before the address refused was given back: nine, as before.
    expect(w.attempts.get(emailSubject('ana@example.org'))).toHaveLength(LOGIN_FAILURES_PER_EMAIL.limit - 1);
    expect(w.calls.filter((c) => c.startsWith('signIn'))).toEqual([]);
  });
});

describe('profile', () => {
  async function registered() {
    const w = world();
    await registerUser(w.deps, { ...registration, county_fips: '12087' }, client);
    return w;
  }

  it('shows the account tier and the county name, with the version as ETag', async () => {
    const w = await registered();
    const { profile, etag } = await profileOf(w.deps, 'u-1');
    expect(profile).toMatchObject({ user_id: 'u-1', subscription_tier: 'free', county_fips: '12087', county_name: 'Monroe' });
    expect(etag).toBe('"1"');
    await expect(profileOf(w.deps, 'nobody')).rejects.toBeInstanceOf(ProfileNotFoundError);
  });

  it('updates on the version read, records the changed fields, and changes nothing for an unchanged value', async () => {
    const w = await registered();
    const { profile, etag } = await updateProfile(w.deps, 'u-1', 1, { name: 'Ana B.', organization: null }, client);
    expect(profile.name).toBe('Ana B.');
    expect(etag).toBe('"2"');
    expect(w.users.get('u-1')!.version).toBe(2);
    expect(w.events.map((e) => [e.type, e.details])).toEqual([['profile_changed', { fields: ['name'] }]]);

    const same = await updateProfile(w.deps, 'u-1', 2, { name: 'Ana B.' }, client);
    expect(same.etag).toBe('"2"');
    expect(w.events).toHaveLength(1);
  });

  it('refuses a stale or missing version, and a write that loses the race, leaving the record as it was', async () => {
    const w = await registered();
    await expect(updateProfile(w.deps, 'u-1', 2, { name: 'X' }, client)).rejects.toBeInstanceOf(StaleVersionError);
    await expect(updateProfile(w.deps, 'u-1', undefined, { name: 'X' }, client)).rejects.toBeInstanceOf(StaleVersionError);
    await expect(updateProfile(w.deps, 'nobody', 1, { name: 'X' }, client)).rejects.toBeInstanceOf(ProfileNotFoundError);
    w.deps.users.replace = async () => false;
    await expect(updateProfile(w.deps, 'u-1', 1, { name: 'X' }, client)).rejects.toBeInstanceOf(StaleVersionError);
    expect(w.users.get('u-1')!.name).toBe('Ana');
    expect(w.events).toEqual([]);
  });
});

describe('account keys', () => {
  async function registered() {
    const w = world();
    const user = await registerUser(w.deps, registration, client);
    return { w, accountId: user.account_id };
  }

  it('issues a key at the account tier, stores only its hash and an 8-character prefix, and records it', async () => {
    const { w, accountId } = await registered();
    const issued = await issueAccountKey(w.deps, 'u-1', accountId, 'CI', 'key_1', client);
    expect(issued).toMatchObject({ key_id: 'key_1', name: 'CI', subscription_tier: 'free', created_at: NOW.toISOString() });
    expect(issued.prefix).toBe(issued.key.slice(0, 8));
    expect(issued.prefix).toHaveLength(8);
    const usageKey = w.accounts.get(accountId)!.usage_key!;
    expect(w.keys.get(accountId)).toEqual([{
      key_id: 'key_1', name: 'CI', prefix: issued.prefix, created_at: NOW.toISOString(), last_used_at: null, hash: hashApiKey(issued.key), tier: 'free', usage_key: usageKey,
    }]);
    expect(w.events.map((e) => [e.type, e.details])).toEqual([['key_created', { key_id: 'key_1', name: 'CI' }]]);
    await expect(issueAccountKey(w.deps, 'u-1', 'acct_none', 'CI', 'key_2', client)).rejects.toBeInstanceOf(ProfileNotFoundError);
  });

  it('gives every account its own usage key, in its tier\'s plan before the account is stored', async () => {
    const w = world();
    const first = await registerUser(w.deps, registration, client);
    const second = await registerUser(w.deps, { ...registration, email: 'bo@example.org' }, client);
    const [a, b] = [w.accounts.get(first.account_id)!.usage_key!, w.accounts.get(second.account_id)!.usage_key!];
    expect(a).toMatch(/^vacu_[A-Za-z0-9_-]{32}$/);
    expect(b).not.toBe(a);
    expect([w.plans.get(a), w.plans.get(b)]).toEqual(['free', 'free']);
  });

  it('stores no account and removes the provider user when the usage key cannot be attached', async () => {
    const w = world();
    w.failAttach();
    await expect(registerUser(w.deps, registration, client)).rejects.toThrow('API Gateway unavailable');
    expect(w.accounts.size).toBe(0);
    expect(w.calls).toContain('remove:ana@example.org');
  });

  it('gives an account opened before usage keys one when its next key is issued, and attaches it', async () => {
    const w = world();
    w.accounts.set('acct_old', { account_id: 'acct_old', name: 'Old', tier: 'pro', created_at: '2025-01-01T00:00:00Z' });
    await issueAccountKey(w.deps, 'u-1', 'acct_old', 'CI', 'key_1', client);
    const usageKey = w.accounts.get('acct_old')!.usage_key!;
    expect(usageKey).toMatch(/^vacu_/);
    expect(w.plans.get(usageKey)).toBe('pro');
    expect(w.keys.get('acct_old')![0]).toMatchObject({ tier: 'pro', usage_key: usageKey });
    // The next key keeps the same usage key.
    await issueAccountKey(w.deps, 'u-1', 'acct_old', 'CI 2', 'key_2', client);
    expect(w.keys.get('acct_old')![1]!.usage_key).toBe(usageKey);
  });

  it(`allows the ${MAX_ACTIVE_KEYS}th active key and refuses the next`, async () => {
    const { w, accountId } = await registered();
    expect(MAX_ACTIVE_KEYS).toBe(20);
    for (let i = 1; i < MAX_ACTIVE_KEYS; i++) await issueAccountKey(w.deps, 'u-1', accountId, `k${i}`, `key_${i}`, client);
    await issueAccountKey(w.deps, 'u-1', accountId, 'last', 'key_20', client);
    await expect(issueAccountKey(w.deps, 'u-1', accountId, 'one more', 'key_21', client)).rejects.toBeInstanceOf(KeyLimitReachedError);
    expect(w.keys.get(accountId)).toHaveLength(20);
  });

  it('records a revocation only when a key was revoked', async () => {
    const { w, accountId } = await registered();
    await issueAccountKey(w.deps, 'u-1', accountId, 'CI', 'key_1', client);
    await expect(revokeAccountKey(w.deps, 'u-1', accountId, 'key_1', client)).resolves.toBe(true);
    await expect(revokeAccountKey(w.deps, 'u-1', accountId, 'key_1', client)).resolves.toBe(false);
    expect(w.events.filter((e) => e.type === 'key_revoked').map((e) => e.details)).toEqual([{ key_id: 'key_1' }]);
  });
});

describe('roles and counties of a profile', () => {
  it('knows the four roles and nothing else', () => {
    for (const role of ['resident', 'staff', 'consultant', 'admin']) expect(isUserRole(role)).toBe(true);
    for (const value of ['Admin', '', 'owner', 1, null, undefined]) expect(isUserRole(value)).toBe(false);
  });

  it('names Florida counties by FIPS and no other code', () => {
    expect(isFloridaCountyFips('12086')).toBe(true);
    expect(isFloridaCountyFips('12133')).toBe(true);
    expect(isFloridaCountyFips('13001')).toBe(false);
    expect(isFloridaCountyFips('12000')).toBe(false);
    expect(countyName('12086')).toBe('Miami-Dade');
    expect(countyName('')).toBeNull();
    expect(countyName(null)).toBeNull();
    expect(countyName('99999')).toBeNull();
  });
});
