/**
 * Retry schedule of a failed delivery: the delays before attempts 2, 3, … The default follows the
 * Standard Webhooks suggestion — 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts over about
 * 27 h 5 min) — and each delay is stretched by up to 20 % of random jitter, never shortened, so
 * the retries always span at least 24 h and endpoints recovering together are not hit in step.
 * Deployments and tests set another schedule in WEBHOOK_RETRY_SCHEDULE (e.g. `200ms,1s`).
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
export const RETRY_JITTER = 0.2;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `5s,5m,2h` → delays in milliseconds; throws on anything else. */
export function parseRetrySchedule(spec: string): number[] {
  return spec.split(',').map((token) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(token.trim());
    if (!match) throw new Error(`Invalid retry delay "${token}" (use e.g. 500ms, 5s, 5m, 2h)`);
    return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  });
}

/** The first attempt plus one per delay. */
export function maxAttempts(schedule: number[]): number {
  return schedule.length + 1;
}

/** Delay after attempt `attempt` (1-based) failed, or undefined when it was the last. */
export function retryDelayMs(schedule: number[], attempt: number, random: () => number = Math.random): number | undefined {
  const base = schedule[attempt - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + RETRY_JITTER * random()));
}
