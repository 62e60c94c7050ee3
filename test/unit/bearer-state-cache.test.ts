import { BEARER_STATE_TTL_MS, rememberedBearerState } from '../../functions/bearer-authorizer/handler';
import type { BearerUser } from '../../shared/domain/identity/signed-in-user';

const USER: BearerUser = { user_id: 'u-1', email: 'a@example.org', name: 'A', role: 'staff', account_id: 'acct-1', tier: 'pro' };

/** A directory and a revocation list the test changes underneath the cache, counting reads. */
function source() {
  const state = { user: USER as BearerUser | undefined, revoked: new Set<string>(), userReads: 0, revocationReads: 0 };
  return {
    state,
    directory: async (userId: string) => {
      state.userReads++;
      return userId === USER.user_id ? state.user : undefined;
    },
    isRevoked: async (userId: string, sessionId: string) => {
      state.revocationReads++;
      return state.revoked.has(`${userId}/${sessionId}`);
    },
  };
}

describe('bearer state remembered briefly', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 50_000;
  });

  it('reads the user and the session once per interval for requests in a row', async () => {
    const { state, directory, isRevoked } = source();
    const remembered = rememberedBearerState(directory, isRevoked, { ttlMs: 5000, maxEntries: 10, now });
    for (let i = 0; i < 20; i++) {
      expect(await remembered.directory('u-1')).toEqual(USER);
      expect(await remembered.isRevoked('u-1', 's-1')).toBe(false);
      clock += 100;
    }
    expect([state.userReads, state.revocationReads]).toEqual([1, 1]);
  });

  it('sees a sign-out made elsewhere within the interval and no later', async () => {
    const { state, directory, isRevoked } = source();
    const remembered = rememberedBearerState(directory, isRevoked, { ttlMs: 5000, maxEntries: 10, now });
    expect(await remembered.isRevoked('u-1', 's-1')).toBe(false);
    state.revoked.add('u-1/s-1');
    clock += 4999;
    expect(await remembered.isRevoked('u-1', 's-1')).toBe(false);
    clock += 1;
    expect(await remembered.isRevoked('u-1', 's-1')).toBe(true);
    // Another session of the same user is its own entry.
    expect(await remembered.isRevoked('u-1', 's-2')).toBe(false);
  });

  it('sees a suspended user (no longer in the directory) once the interval has passed', async () => {
    const { state, directory, isRevoked } = source();
    const remembered = rememberedBearerState(directory, isRevoked, { ttlMs: 5000, maxEntries: 10, now });
    await remembered.directory('u-1');
    state.user = undefined;
    clock += 5000;
    expect(await remembered.directory('u-1')).toBeUndefined();
  });

  it('does not remember a failed read', async () => {
    const { directory } = source();
    let fail = true;
    const flaky = async (_userId: string, sessionId: string) => {
      if (fail) throw new Error('table unavailable');
      return sessionId === 'gone';
    };
    const remembered = rememberedBearerState(directory, flaky, { ttlMs: 5000, maxEntries: 10, now });
    await expect(remembered.isRevoked('u-1', 'gone')).rejects.toThrow('table unavailable');
    fail = false;
    expect(await remembered.isRevoked('u-1', 'gone')).toBe(true);
  });

  it('states a bound of seconds, not minutes', () => {
    expect(BEARER_STATE_TTL_MS).toBeGreaterThan(0);
    expect(BEARER_STATE_TTL_MS).toBeLessThanOrEqual(5000);
  });
});
