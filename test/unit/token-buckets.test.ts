import { TokenBuckets } from '../../shared/domain/throttles';

describe('TokenBuckets', () => {
  let clock = 0;
  const now = () => clock;
  const throttle = { rateLimit: 2, burstLimit: 5 };
  beforeEach(() => {
    clock = 10_000;
  });

  it('lets a burst through, then refuses until a token has refilled at the rate', () => {
    const buckets = new TokenBuckets(10, now);
    const burst = Array.from({ length: 6 }, () => buckets.take('a', throttle));
    expect(burst).toEqual([true, true, true, true, true, false]);
    clock += 499; // 0.998 of a token at 2 a second
    expect(buckets.take('a', throttle)).toBe(false);
    clock += 1;
    expect(buckets.take('a', throttle)).toBe(true);
    expect(buckets.take('a', throttle)).toBe(false);
  });

  it('refills no further than the burst', () => {
    const buckets = new TokenBuckets(10, now);
    buckets.take('a', throttle);
    clock += 3_600_000;
    expect(Array.from({ length: 6 }, () => buckets.take('a', throttle)).filter(Boolean)).toHaveLength(5);
  });

  it('keeps each name\'s bucket apart: one emptied does not refuse another', () => {
    const buckets = new TokenBuckets(10, now);
    for (let i = 0; i < 5; i++) buckets.take('a', throttle);
    expect(buckets.take('a', throttle)).toBe(false);
    expect(buckets.take('b', throttle)).toBe(true);
  });

  it('forgets the least recently used bucket beyond its capacity (it comes back full)', () => {
    const buckets = new TokenBuckets(1, now);
    for (let i = 0; i < 5; i++) buckets.take('a', throttle);
    buckets.take('b', throttle);
    expect(buckets.take('a', throttle)).toBe(true);
  });
});
