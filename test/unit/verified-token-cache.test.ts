import { cachedAccessTokenVerifier } from '../../shared/http/verified-token-cache';

/** A verifier that counts its calls; tokens named `bad*` are refused, others verified with exp in seconds. */
function countingVerifier(expSeconds: number) {
  const calls: string[] = [];
  const verify = async (token: string) => {
    calls.push(token);
    if (token.startsWith('bad')) throw new Error(`refused ${token}`);
    return { sub: `sub-${token}`, session: { id: `jti-${token}`, expires_at: expSeconds } };
  };
  return { calls, verify };
}

describe('cachedAccessTokenVerifier', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('verifies a token once and answers it from memory until its exp, then verifies it again', async () => {
    const { calls, verify } = countingVerifier(1_000 + 60);
    const cached = cachedAccessTokenVerifier(verify, { maxEntries: 10, failureTtlMs: 2000, now });
    expect(await cached('t1')).toEqual({ sub: 'sub-t1', session: { id: 'jti-t1', expires_at: 1060 } });
    clock = 1_059_999;
    expect((await cached('t1')).sub).toBe('sub-t1');
    expect(calls).toEqual(['t1']);
    clock = 1_060_000;
    await cached('t1');
    expect(calls).toEqual(['t1', 't1']);
  });

  it('keeps a refusal for the failure time only, and throws the verifier\'s own error', async () => {
    const { calls, verify } = countingVerifier(2000);
    const cached = cachedAccessTokenVerifier(verify, { maxEntries: 10, failureTtlMs: 2000, now });
    await expect(cached('bad1')).rejects.toThrow('refused bad1');
    clock += 1999;
    await expect(cached('bad1')).rejects.toThrow('refused bad1');
    expect(calls).toEqual(['bad1']);
    clock += 1;
    await expect(cached('bad1')).rejects.toThrow('refused bad1');
    expect(calls).toEqual(['bad1', 'bad1']);
  });

  it('holds at most maxEntries tokens, dropping the least recently used', async () => {
    const { calls, verify } = countingVerifier(5000);
    const cached = cachedAccessTokenVerifier(verify, { maxEntries: 2, failureTtlMs: 2000, now });
    await cached('a');
    await cached('b');
    await cached('a'); // a is now the most recently used
    await cached('c'); // drops b
    expect(calls).toEqual(['a', 'b', 'c']);
    await cached('a');
    await cached('c');
    expect(calls).toEqual(['a', 'b', 'c']);
    await cached('b');
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not remember a verified token without a session, whose end it does not know', async () => {
    const calls: string[] = [];
    const cached = cachedAccessTokenVerifier(async (token) => {
      calls.push(token);
      return { sub: 'x' };
    }, { maxEntries: 10, failureTtlMs: 2000, now });
    await cached('t');
    await cached('t');
    expect(calls).toEqual(['t', 't']);
  });

  it('tells tokens apart', async () => {
    const { verify } = countingVerifier(5000);
    const cached = cachedAccessTokenVerifier(verify, { maxEntries: 10, failureTtlMs: 2000, now });
    await cached('one');
    expect((await cached('two')).sub).toBe('sub-two');
    await expect(cached('bad')).rejects.toThrow('refused bad');
    expect((await cached('one')).sub).toBe('sub-one');
  });
});
