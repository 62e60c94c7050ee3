import type { JobLease } from '../job-lease';

/** A long flood analysis, run after the 202 and polled at its URL. */
export type HazardJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface HazardJob {
  job_id: string;
  account_id: string;
  kind: 'flood_analysis';
  status: HazardJobStatus;
  progress: number;
  created_at: string;
  updated_at: string;
  /** Where the validated request is kept (a boundary can exceed an item's size), replayed by the worker. */
  request_key: string;
  error: { code: string; detail: string } | null;
  /** Where the result is kept once the job succeeded. */
  result_key: string | null;
  /** Held by the worker running the job, renewed with its progress; an expired one means the worker was lost. */
  lease?: JobLease | null;
}

/** Secondary port: jobs are owned by an account; another account's job does not exist for it. */
export interface HazardJobStore {
  create(job: HazardJob): Promise<void>;
  get(accountId: string, jobId: string): Promise<HazardJob | undefined>;
  /** queued → running under this worker's lease, once: false when another worker started it. */
  start(accountId: string, jobId: string, progress: number, now: Date): Promise<boolean>;
  /** Records the running job's progress and renews its lease; false when this worker no longer holds it. */
  progress(accountId: string, jobId: string, progress: number, now: Date): Promise<boolean>;
  /** running → succeeded or failed, if this worker still holds it: a late result of a lost worker does not land. */
  finish(accountId: string, jobId: string, outcome: Pick<HazardJob, 'result_key'> | Pick<HazardJob, 'error'>, now: Date): Promise<boolean>;
  /** Running jobs whose lease expired before `now` (their worker was lost). */
  listExpiredLeases(now: Date): Promise<HazardJob[]>;
  /** Jobs still queued that were created before `before`, oldest first (their start may have been lost). */
  listQueued(before: Date): Promise<HazardJob[]>;
  /** Fails a running job whose lease is still the expired one read; false if it moved on meanwhile. */
  failLost(job: HazardJob, error: { code: string; detail: string }, now: Date): Promise<boolean>;
  /** Stores the job's request or result document; returns its key. */
  putDocument(accountId: string, jobId: string, kind: 'request' | 'result', value: unknown): Promise<string>;
  getDocument(key: string): Promise<unknown>;
}

/** Starts a stored job outside the request (self-invocation in AWS, in-process locally). */
export interface HazardJobRunner {
  start(job: HazardJob): Promise<void>;
}

/** Jobs and their results are kept a week. */
export const JOB_RETENTION_SECONDS = 7 * 24 * 3600;
