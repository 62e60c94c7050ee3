/**
 * A deliverable package generated as a job from an assessment. The job runs under a lease (owner
 * and expiry, renewed by nobody: the build finishes well inside it), so a stream retry or a
 * second local poller never builds it twice, and a job whose worker died is taken over once the
 * lease expires, up to MAX_ATTEMPTS.
 */
export const DELIVERABLE_KINDS = ['report_pdf', 'gis_package', 'asset_list_xlsx'] as const;
export type DeliverableKind = (typeof DELIVERABLE_KINDS)[number];
export type DeliverableStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface DeliverableFile {
  name: string;
  kind: DeliverableKind;
  content_type: string;
  bytes: number;
  sha256: string;
  key: string;
}

export interface DeliverableJob {
  deliverable_id: string;
  assessment_id: string;
  account_id: string;
  status: DeliverableStatus;
  created_at: string;
  updated_at: string;
  error: { code: string; detail: string } | null;
  files: DeliverableFile[];
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
}

export type DeliverableRef = Pick<DeliverableJob, 'account_id' | 'assessment_id' | 'deliverable_id'>;

export const DELIVERABLE_LEASE_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 3;

export interface DeliverableStore {
  create(job: DeliverableJob): Promise<void>;
  get(ref: DeliverableRef): Promise<DeliverableJob | undefined>;
  /** queued, or running with an expired lease and attempts left → running under `owner`'s lease; undefined otherwise. */
  claim(ref: DeliverableRef, owner: string, now: Date, leaseMs: number): Promise<DeliverableJob | undefined>;
  /** Ends the job if `owner` still holds the lease; false otherwise. */
  finish(ref: DeliverableRef, owner: string, outcome: { files: DeliverableFile[] } | { error: { code: string; detail: string } }, now: Date): Promise<boolean>;
  /** Jobs not finished yet (queued or running), oldest first. */
  listOpen(): Promise<DeliverableJob[]>;
}

/** Whether a worker may take the job now. */
export function isRunnable(job: DeliverableJob, now: Date): boolean {
  if (job.status === 'queued') return true;
  return job.status === 'running' && job.attempts < MAX_ATTEMPTS && job.lease_until !== null && job.lease_until < now.toISOString();
}
