import { LruCache } from '../lru-cache';
import type { Tier } from './tiers';

export interface Throttle {
  /** Steady-state requests per second. */
  rateLimit: number;
  burstLimit: number;
}

/**
 * The usage plans' throttles per usage key (each account's own). The hourly quota (25 / 5,000 /
 * unlimited) is counted by the application: usage plans cannot count per clock hour, so these
 * only stop bursts.
 */
export const TIER_THROTTLES: Record<Tier, Throttle> = {
  free: { rateLimit: 2, burstLimit: 5 },
  pro: { rateLimit: 20, burstLimit: 50 },
  enterprise: { rateLimit: 100, burstLimit: 200 },
};

/**
 * Throttles of each `/v1` bearer method per usage key, in place of the plan's own: every user of
 * an account shares its key, residents included, so they are higher than `TIER_THROTTLES`.
 */
export const V1_TIER_THROTTLES: Record<Tier, Throttle> = {
  free: { rateLimit: 20, burstLimit: 40 },
  pro: { rateLimit: 50, burstLimit: 100 },
  enterprise: { rateLimit: 100, burstLimit: 200 },
};

/**
 * Token buckets by name, as API Gateway throttles a usage key: each holds up to `burstLimit`
 * tokens, refills at `rateLimit` a second, and a request takes one or is refused. A bucket starts
 * full. At most `maxBuckets` are kept (the least recently used go first, and come back full).
 */
export class TokenBuckets {
  private readonly buckets: LruCache<string, { tokens: number; at: number }>;

  constructor(maxBuckets: number, private readonly now: () => number = Date.now) {
    this.buckets = new LruCache(maxBuckets);
  }

  /** Takes a token from the named bucket; false when it is empty (the request is throttled). */
  take(name: string, throttle: Throttle): boolean {
    const now = this.now();
    const bucket = this.buckets.getOrCreate(name, () => ({ tokens: throttle.burstLimit, at: now }));
    bucket.tokens = Math.min(throttle.burstLimit, bucket.tokens + ((now - bucket.at) / 1000) * throttle.rateLimit);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
