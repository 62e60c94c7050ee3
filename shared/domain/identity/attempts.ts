/**
 * Sliding-window limits on sign-in failures and registrations. A subject (an email, a client
 * address) is refused once `limit` attempts fall inside the last `windowMs`, until the oldest of
 * them leaves the window.
 */
export interface AttemptPolicy {
  limit: number;
  windowMs: number;
}

export const LOGIN_FAILURES_PER_EMAIL: AttemptPolicy = { limit: 10, windowMs: 15 * 60_000 };
export const LOGIN_FAILURES_PER_ADDRESS: AttemptPolicy = { limit: 50, windowMs: 15 * 60_000 };
export const REGISTRATIONS_PER_ADDRESS: AttemptPolicy = { limit: 20, windowMs: 60 * 60_000 };

/** Attempt times (epoch ms) still inside the window, oldest first. */
export function attemptsInWindow(times: readonly number[], now: number, policy: AttemptPolicy): number[] {
  return times.filter((t) => t > now - policy.windowMs && t <= now).sort((a, b) => a - b);
}

/** Whole seconds until one more attempt is allowed, or 0 when it is allowed now. */
export function secondsUntilAllowed(times: readonly number[], now: number, policy: AttemptPolicy): number {
  const recent = attemptsInWindow(times, now, policy);
  if (recent.length < policy.limit) return 0;
  // The attempt that must leave the window before the count drops below the limit.
  const blocking = recent[recent.length - policy.limit]!;
  return Math.max(1, Math.ceil((blocking + policy.windowMs - now) / 1000));
}
