/** The pricing tiers, lowest first: what a key may call and how often. */
export const TIER_ORDER = ['free', 'pro', 'enterprise'] as const;
export type Tier = typeof TIER_ORDER[number];

/** Requests per API key per clock hour (UTC); `null` is unlimited. */
export const HOURLY_LIMITS: Record<Tier, number | null> = {
  free: 25,
  pro: 5000,
  enterprise: null,
};

export function tierAllows(callerTier: Tier, minimumTier: Tier): boolean {
  return TIER_ORDER.indexOf(callerTier) >= TIER_ORDER.indexOf(minimumTier);
}

export interface HourWindow {
  /** `2026-11-21T05`: the UTC clock hour the request falls in. */
  id: string;
  resetAt: Date;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

const HOUR_MS = 3600_000;
// Every request needs its window: the id and reset time are built once per hour.
let currentHour: { start: number; id: string; resetAt: Date } | undefined;

export function hourWindow(now: Date): HourWindow {
  const ms = now.getTime();
  // UTC hours are whole multiples of an hour since the epoch (no leap seconds in epoch time).
  const start = ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);
  if (currentHour?.start !== start) {
    currentHour = { start, id: new Date(start).toISOString().slice(0, 13), resetAt: new Date(start + HOUR_MS) };
  }
  return {
    id: currentHour.id,
    resetAt: currentHour.resetAt,
    resetSeconds: Math.max(1, Math.ceil((start + HOUR_MS - ms) / 1000)),
  };
}

/**
 * Quota leasing. An instance takes a block of a key's remaining hourly quota with one conditional
 * write and serves requests from it in memory; what it has not used after `QUOTA_LEASE_MS` goes
 * back to the pool. A block is at most a tenth of what remains, so the instances together can
 * strand little of a small limit (a Free key leases 2, then 1 at a time), and follows the key's
 * recent demand (twice what the last block served) up to `MAX_LEASE_BLOCK`.
 */
export const QUOTA_LEASE_MS = 1000;
export const MAX_LEASE_BLOCK = 200;
export const INITIAL_LEASE_DEMAND = 10;

export function leaseBlockSize(remaining: number, demand: number): number {
  return Math.max(1, Math.min(MAX_LEASE_BLOCK, Math.floor(remaining / 10), Math.ceil(demand)));
}

/** Unlimited keys count in memory and flush at most once a second per instance, to one of these shards. */
export const USAGE_FLUSH_MS = 1000;
export const USAGE_SHARDS = 32;
