/**
 * Sliding-window limits on sign-in attempts, registrations and emailed codes. A subject (an email,
 * a client address) has `limit` slots; an attempt takes one before any work is done and holds it
 * for `windowMs`, so at most `limit` attempts run inside any window, however many arrive at once.
 * A full subject is refused until the oldest slot leaves the window.
 */
export interface AttemptPolicy {
  limit: number;
  windowMs: number;
}

export const LOGIN_FAILURES_PER_EMAIL: AttemptPolicy = { limit: 10, windowMs: 15 * 60_000 };
export const LOGIN_FAILURES_PER_ADDRESS: AttemptPolicy = { limit: 50, windowMs: 15 * 60_000 };
export const REGISTRATIONS_PER_ADDRESS: AttemptPolicy = { limit: 20, windowMs: 60 * 60_000 };
/**
 * Emailed codes (a new confirmation code, a password reset code), counted together: few per email,
 * so nobody can flood someone's inbox through this API.
 */
export const EMAILED_CODES_PER_EMAIL: AttemptPolicy = { limit: 5, windowMs: 60 * 60_000 };
export const EMAILED_CODES_PER_ADDRESS: AttemptPolicy = { limit: 20, windowMs: 60 * 60_000 };

/** Attempt times (epoch ms) still inside the window, oldest first. */
export function attemptsInWindow(times: readonly number[], now: number, policy: AttemptPolicy): number[] {
  return times.filter((t) => t > now - policy.windowMs && t <= now).sort((a, b) => a - b);
}

/**
 * Before the refusal, repeated failures are slowed: the first `free` failures in the window cost
 * nothing, then every sign-in attempt of the subject (right password or not, so a fast answer
 * never tells a guess was right) waits `firstDelayMs`, doubling with each further failure up to
 * `maxDelayMs`. The wait does not depend on whether the email is registered.
 */
export interface SlowdownPolicy {
  free: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

// At most 4 s, so a slowed sign-in still answers well inside the identity function's 10 s limit.
export const LOGIN_SLOWDOWN_PER_EMAIL: SlowdownPolicy = { free: 3, firstDelayMs: 1000, maxDelayMs: 4000 };
export const LOGIN_SLOWDOWN_PER_ADDRESS: SlowdownPolicy = { free: 20, firstDelayMs: 1000, maxDelayMs: 4000 };

/** Milliseconds to wait before trying the next attempt, given the failures still in the window. */
export function slowdownMs(failuresInWindow: number, policy: SlowdownPolicy): number {
  if (failuresInWindow < policy.free) return 0;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (failuresInWindow - policy.free));
}

/**
 * A slot an attempt may take: one never taken, or one whose attempt left the window; undefined when
 * every slot holds an attempt inside the window. `pick` chooses among the free ones (concurrent
 * takers that pick at random collide less).
 */
export function freeSlot(slots: ReadonlyArray<number | undefined>, now: number, policy: AttemptPolicy, pick: (count: number) => number): number | undefined {
  const free: number[] = [];
  for (let index = 0; index < policy.limit; index++) {
    const taken = slots[index];
    if (taken === undefined || attemptsInWindow([taken], now, policy).length === 0) free.push(index);
  }
  return free.length === 0 ? undefined : free[Math.min(free.length - 1, Math.max(0, pick(free.length)))];
}

/** Whole seconds until one more attempt is allowed, or 0 when it is allowed now. */
export function secondsUntilAllowed(times: readonly number[], now: number, policy: AttemptPolicy): number {
  const recent = attemptsInWindow(times, now, policy);
  if (recent.length < policy.limit) return 0;
  // The attempt that must leave the window before the count drops below the limit.
  const blocking = recent[recent.length - policy.limit]!;
  return Math.max(1, Math.ceil((blocking + policy.windowMs - now) / 1000));
}
