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
