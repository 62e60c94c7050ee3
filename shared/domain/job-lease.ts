/**
 * One lease for every background job (asset imports, hazard jobs, deliverable packages): the worker
 * holding the job, until when, and which attempt this is. The holder renews it as it goes (or
 * finishes well inside it); once it has expired the job is the worker's that took it, so a lost
 * worker's job is taken over or failed, and a late result of the lost worker no longer lands.
 */
export interface JobLease {
  owner: string;
  /** ISO 8601: the lease sorts and compares as text. */
  expires_at: string;
  /** 1 for the first run, one more for each take-over. */
  attempt: number;
}

export function newLease(owner: string, now: Date, leaseMs: number, attempt = 1): JobLease {
  return { owner, expires_at: new Date(now.getTime() + leaseMs).toISOString(), attempt };
}

export function leaseExpired(lease: JobLease | null | undefined, now: Date): boolean {
  return lease !== null && lease !== undefined && lease.expires_at < now.toISOString();
}

/** Who may end a running job: its lease holder, or a sweeper that saw this lease lapse. */
export type LeaseHolder = { owner: string } | { seen: JobLease };

/**
 * The life cycle every leased job kind stores through, whatever its own fields (`fields`, set with
 * each change) and keys: claimed once from its waiting status under a lease, renewed by the holder,
 * taken over once that lease lapsed (one attempt more), finished by the holder, and listed while its
 * lease has lapsed so a sweep never leaves it running.
 */
export interface LeasedJobRecords<T> {
  /** waiting → running under `lease`; undefined when another worker (or a repeated event) got there first. */
  claim(accountId: string, id: string, lease: JobLease, now: Date, fields?: Record<string, unknown>): Promise<T | undefined>;
  /** running under the lapsed lease `seen` → running under `lease`; undefined when another sweep took it or it ended meanwhile. */
  takeOver(accountId: string, id: string, seen: JobLease | null | undefined, lease: JobLease, now: Date, fields?: Record<string, unknown>): Promise<T | undefined>;
  /** Moves `owner`'s lease on to `expiresAt` with `fields` (its progress); false when it no longer holds it. */
  renew(accountId: string, id: string, owner: string, expiresAt: string, now: Date, fields?: Record<string, unknown>): Promise<boolean>;
  /** running → ended with `fields` (its outcome) if `holder` still holds it (any running job without one); false otherwise. */
  finish(accountId: string, id: string, fields: Record<string, unknown>, now: Date, holder?: LeaseHolder): Promise<boolean>;
  /** Running jobs whose lease lapsed before `now`, soonest lapsed first. */
  listExpiredLeases(now: Date): Promise<T[]>;
  /** Every running job, lapsed or not, soonest lapsing first. */
  listRunning(): Promise<T[]>;
}
