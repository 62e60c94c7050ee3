import {
  attemptsInWindow, freeSlot, secondsUntilAllowed, slowdownMs, LOGIN_FAILURES_PER_EMAIL, LOGIN_SLOWDOWN_PER_ADDRESS, LOGIN_SLOWDOWN_PER_EMAIL,
} from '../../shared/domain/identity/attempts';
import { passwordPolicyViolations } from '../../shared/domain/identity/pool-settings';
import { applyProfileUpdate, countyName, etagOf, type UserRecord } from '../../shared/domain/identity/profile';
import { signOut, type IdentityDeps } from '../../shared/application/identity/use-cases';

const MINUTE = 60_000;

describe('sliding-window attempt limits', () => {
  const policy = { limit: 3, windowMs: 15 * MINUTE };
  const now = Date.parse('2026-11-23T12:00:00Z');

  it('keeps only attempts inside the window, oldest first', () => {
    expect(attemptsInWindow([now - 16 * MINUTE, now - MINUTE, now - 15 * MINUTE, now - 14 * MINUTE, now + 1], now, policy))
      .toEqual([now - 14 * MINUTE, now - MINUTE]);
  });

  it('allows below the limit and blocks at it until the blocking attempt leaves the window', () => {
    expect(secondsUntilAllowed([now - 2 * MINUTE, now - MINUTE], now, policy)).toBe(0);
    // Three in the window: the oldest (10 min ago) leaves it in 5 minutes.
    expect(secondsUntilAllowed([now - 10 * MINUTE, now - 2 * MINUTE, now - MINUTE], now, policy)).toBe(5 * 60);
    // Four in the window: the count drops below 3 only when the second oldest (8 min ago) leaves.
    expect(secondsUntilAllowed([now - 10 * MINUTE, now - 8 * MINUTE, now - 2 * MINUTE, now - MINUTE], now, policy)).toBe(7 * 60);
  });

  it('never answers less than one second while blocked', () => {
    expect(secondsUntilAllowed([now - 15 * MINUTE + 1, now - 1, now], now, policy)).toBe(1);
  });

  it('is 10 failures in 15 minutes per email, as the contract fixes', () => {
    expect(LOGIN_FAILURES_PER_EMAIL).toEqual({ limit: 10, windowMs: 900_000 });
    const nine = Array.from({ length: 9 }, (_, i) => now - i * MINUTE);
    expect(secondsUntilAllowed(nine, now, LOGIN_FAILURES_PER_EMAIL)).toBe(0);
    expect(secondsUntilAllowed([...nine, now], now, LOGIN_FAILURES_PER_EMAIL)).toBe(15 * 60 - 8 * 60);
  });
});

describe('attempt slots', () => {
  const policy = { limit: 3, windowMs: 15 * MINUTE };
  const now = Date.parse('2026-11-23T12:00:00Z');
  const first = () => 0;

  it('offers a slot never taken, or one whose attempt left the window', () => {
    expect(freeSlot([], now, policy, first)).toBe(0);
    expect(freeSlot([now - MINUTE, undefined, now], now, policy, first)).toBe(1);
    // Exactly 15 minutes old has left the window (the window holds the last 15 minutes, open at its start).
    expect(freeSlot([now - MINUTE, now - 15 * MINUTE, now], now, policy, first)).toBe(1);
    expect(freeSlot([now - MINUTE, now - 15 * MINUTE + 1, now], now, policy, first)).toBeUndefined();
  });

  it('chooses among the free slots only, and never beyond the limit', () => {
    const free = [undefined, now, undefined, now - 20 * MINUTE, undefined];
    // Slots 0 and 2 are free; 3 and 4 lie beyond the limit of 3, so they are never offered.
    expect([0, 1, 2, 7, -1].map((n) => freeSlot(free, now, policy, () => n))).toEqual([0, 2, 2, 2, 0]);
  });
});

describe('sign-in slowdown before the refusal', () => {
  it('costs nothing for the first failures, then doubles from 1 s and stays at 4 s', () => {
    const policy = { free: 2, firstDelayMs: 1000, maxDelayMs: 4000 };
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((failures) => slowdownMs(failures, policy))).toEqual([0, 0, 1000, 2000, 4000, 4000, 4000, 4000]);
  });

  it('slows an email from its 4th attempt and an address from its 21st, each well before its refusal', () => {
    expect(LOGIN_SLOWDOWN_PER_EMAIL).toEqual({ free: 3, firstDelayMs: 1000, maxDelayMs: 4000 });
    expect(LOGIN_SLOWDOWN_PER_ADDRESS).toEqual({ free: 20, firstDelayMs: 1000, maxDelayMs: 4000 });
    expect(LOGIN_SLOWDOWN_PER_EMAIL.free).toBeLessThan(LOGIN_FAILURES_PER_EMAIL.limit);
  });
});

describe('password policy', () => {
  it.each([
    ['Abcdefghij1!', []],
    ['Abcdefghi1!', ['at least 12 characters']],
    ['abcdefghijk1!', ['an upper-case letter']],
    ['ABCDEFGHIJK1!', ['a lower-case letter']],
    ['Abcdefghijkl!', ['a digit']],
    ['Abcdefghijkl1', ['a symbol']],
    ['Abcdefghijk 1', []],
    ['', ['at least 12 characters', 'a lower-case letter', 'an upper-case letter', 'a digit', 'a symbol']],
  ])('%j breaks %j', (password, expected) => {
    expect(passwordPolicyViolations(password)).toEqual(expected);
  });
});

describe('profile updates', () => {
  const user: UserRecord = {
    user_id: 'u1', email: 'a@example.org', name: 'A', role: 'resident', organization: null, county_fips: null, preferences: {},
    account_id: 'acct_1', status: 'active', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', version: 4,
  };
  const now = new Date('2026-11-23T12:00:00Z');

  it('bumps the version and names only the fields that changed', () => {
    const { user: next, changed } = applyProfileUpdate(user, { name: 'A', county_fips: '12086', preferences: { units: 'ft' } }, now);
    expect(changed).toEqual(['county_fips', 'preferences']);
    expect(next).toMatchObject({ version: 5, updated_at: now.toISOString(), county_fips: '12086', name: 'A' });
    expect(etagOf(next)).toBe('"5"');
  });

  it('changes nothing, not even the version, when nothing differs', () => {
    const { user: next, changed } = applyProfileUpdate(user, { name: 'A', organization: null }, now);
    expect(changed).toEqual([]);
    expect(next).toEqual(user);
  });

  it('names Florida counties by FIPS and nothing else', () => {
    expect(countyName('12086')).toBe('Miami-Dade');
    expect(countyName('12999')).toBeNull();
    expect(countyName(null)).toBeNull();
  });
});

describe('sign-out', () => {
  const client = { ip: '203.0.113.7', userAgent: 'test' };
  const session = { id: 'origin-1', expires_at: 1_795_000_000 };

  function depsWith(revokeRefresh: () => Promise<void>) {
    const revoked: [string, string, string][] = [];
    const events: string[] = [];
    const deps = {
      provider: { revoke: revokeRefresh },
      sessions: { revoke: async (userId: string, sessionId: string, until: Date) => { revoked.push([userId, sessionId, until.toISOString()]); } },
      events: { append: async (event: { type: string }) => { events.push(event.type); } },
      clock: () => new Date('2026-11-23T12:00:00Z'),
      newId: () => 'e1',
    } as unknown as IdentityDeps;
    return { deps, revoked, events };
  }

  it('revokes the refresh token, then records the session as revoked until its token expires', async () => {
    const { deps, revoked, events } = depsWith(async () => undefined);
    await signOut(deps, 'u1', session, 'refresh', client);
    expect(revoked).toEqual([['u1', 'origin-1', new Date(1_795_000_000 * 1000).toISOString()]]);
    expect(events).toEqual(['sign_out']);
  });

  it('leaves the access token usable when the identity provider fails, so the logout can be sent again', async () => {
    const { deps, revoked, events } = depsWith(async () => { throw new Error('provider unavailable'); });
    await expect(signOut(deps, 'u1', session, 'refresh', client)).rejects.toThrow('provider unavailable');
    expect(revoked).toEqual([]);
    expect(events).toEqual([]);
  });
});
