import { leaseExpired, type JobLease, type LeaseHolder } from '../job-lease';

/**
 * A deliverable package generated as a job from an assessment. The job runs under the job lease
 * every background job uses (renewed by nobody here: the build finishes well inside it), so a
 * stream retry or a second local poller never builds it twice, and a job whose worker died is
 * taken over once the lease expires, up to MAX_ATTEMPTS.
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
  /** Held while running (its `attempt` counts the runs); null before the first claim and once ended. */
  lease: JobLease | null;
}

export type DeliverableRef = Pick<DeliverableJob, 'account_id' | 'assessment_id' | 'deliverable_id'>;

export const DELIVERABLE_LEASE_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 3;

export interface DeliverableStore {
  /**
   * Creates `job` unless a job of the same assessment with the same `inputs` is still open (queued,
   * or running and not lost): then answers that job instead. Of concurrent calls one creates, the
   * others join it (a conditional write on the assessment's open-job slot).
   */
  open(job: DeliverableJob, inputs: string, now: Date): Promise<DeliverableJob>;
  get(ref: DeliverableRef): Promise<DeliverableJob | undefined>;
  /** queued, or running with an expired lease and attempts left → running under `owner`'s lease (one more attempt); undefined otherwise, or when another worker took it first. */
  claim(ref: DeliverableRef, owner: string, now: Date, leaseMs: number): Promise<DeliverableJob | undefined>;
  /** Ends the running job if `holder` still holds its lease (or it is still the lapsed one a sweep saw); false otherwise. */
  finish(ref: DeliverableRef, holder: LeaseHolder, outcome: { files: DeliverableFile[] } | { error: { code: string; detail: string } }, now: Date): Promise<boolean>;
  /** Jobs not finished yet (queued or running), oldest first. */
  listOpen(): Promise<DeliverableJob[]>;
}

/** Whether a worker may take the job now. */
export function isRunnable(job: DeliverableJob, now: Date): boolean {
  if (job.status === 'queued') return true;
  return job.status === 'running' && leaseExpired(job.lease, now) && job.lease!.attempt < MAX_ATTEMPTS;
}

/** Whether a new request for the same inputs may join the job rather than start another. */
export function isJoinable(job: DeliverableJob, now: Date): boolean {
  return (job.status === 'queued' || job.status === 'running') && !isLostForGood(job, now);
}

/** A running job whose worker was lost on its last attempt: it is failed, not run again. */
export function isLostForGood(job: DeliverableJob, now: Date): boolean {
  return job.status === 'running' && leaseExpired(job.lease, now) && job.lease!.attempt >= MAX_ATTEMPTS;
}
