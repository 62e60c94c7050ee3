import type { RouteDef } from '../routes/types';
import type { AccountContext, UsageCounter } from '../ports';
import { HOURLY_LIMITS, hourWindow, tierAllows, type HourWindow } from '../domain/tiers';
import { HttpError } from './problem';
import type { RateLimitState } from './types';

/**
 * The hourly quota step of every keyed request (DESIGN §3). Only served requests count: a refusal
 * for the tier (403 `subscription_required`) is not charged, and an unmetered route (`metered:
 * false`, the usage report) reads the count without adding to it and is answered even when the
 * limit is spent. Every keyed answer, refusals included, carries the `RateLimit-*` headers.
 */
export async function meterRequest(route: RouteDef, account: AccountContext, usage: UsageCounter, now: Date): Promise<RateLimitState> {
  const window = hourWindow(now);
  const limit = HOURLY_LIMITS[account.tier];

  if (!tierAllows(account.tier, route.minTier)) {
    const current = rateState(limit, await usage.used(account.keyHash, window, limit), window);
    throw new HttpError('subscription_required', `${route.method} ${route.path} needs the ${route.minTier} tier or above; this key is on the ${account.tier} tier. API access requires a paid subscription.`, {
      required_tier: route.minTier,
      current_tier: account.tier,
      headers: rateLimitHeaders(current),
    });
  }
  if (route.metered === false) return rateState(limit, await usage.used(account.keyHash, window, limit), window);

  const count = await usage.consume(account.keyHash, window, limit);
  if (!count.allowed) {
    throw new HttpError('rate_limit_exceeded', `The ${account.tier} tier allows ${limit} requests per hour; the window resets at ${window.resetAt.toISOString()}.`, {
      headers: { ...rateLimitHeaders(rateState(limit, count.used, window)), 'Retry-After': String(window.resetSeconds) },
    });
  }
  return rateState(limit, count.used, window);
}

function rateState(limit: number | null, used: number, window: HourWindow): RateLimitState {
  return { limit, used, remaining: limit === null ? null : Math.max(0, limit - used), resetSeconds: window.resetSeconds, resetAt: window.resetAt };
}

export function rateLimitHeaders(rate: RateLimitState | undefined): Record<string, string> {
  if (!rate || rate.limit === null) return {};
  return {
    'RateLimit-Limit': String(rate.limit),
    'RateLimit-Remaining': String(rate.remaining),
    'RateLimit-Reset': String(rate.resetSeconds),
  };
}
