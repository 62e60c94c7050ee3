import type { Tier } from '../routes/types';
import { TIER_ORDER } from '../routes/types';

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

export function hourWindow(now: Date): HourWindow {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours()));
  const resetAt = new Date(start.getTime() + 3600_000);
  return {
    id: start.toISOString().slice(0, 13),
    resetAt,
    resetSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}
