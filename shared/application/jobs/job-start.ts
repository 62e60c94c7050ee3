import type { JobLease } from '../../domain/job-lease';

/** Every background job kind: each has its own queue, worker and concurrency (lib/background-jobs.ts). */
export const JOB_KINDS = ['hazard_job', 'asset_import', 'elevation_model', 'deliverable'] as const;
export type JobKindName = (typeof JOB_KINDS)[number];

/** Which job: its account and id (a deliverable also names its assessment). */
export interface JobRef {
  account_id: string;
  job_id: string;
  assessment_id?: string;
}

/**
 * The message that starts one run of a job: sent when the job is created (or its upload arrives),
 * and by the sweep to run a job again whose worker was lost (`retry_of`, the lapsed lease it saw,
 * so of two retries of the same loss only one takes the job over).
 */
export interface JobStart {
  kind: JobKindName;
  ref: JobRef;
  retry_of?: JobLease;
  /** The uploaded object a job started by its upload reads, and its size when the notification said. */
  upload?: { key: string; size?: number };
}

/** Starts a job outside the request that created it: a queue message in AWS and locally. */
export interface JobStarter {
  start(message: JobStart): Promise<void>;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 256;

/** A queue message body as a JobStart; undefined for anything else (it is not retried). */
export function parseJobStart(body: unknown): JobStart | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { kind, ref, retry_of: retryOf, upload } = body as Partial<JobStart>;
  if (!(JOB_KINDS as readonly unknown[]).includes(kind) || typeof ref !== 'object' || ref === null) return undefined;
  if (!isText(ref.account_id) || !isText(ref.job_id) || (ref.assessment_id !== undefined && !isText(ref.assessment_id))) return undefined;
  const validLease = retryOf === undefined || (typeof retryOf === 'object' && retryOf !== null && isText(retryOf.owner) && isText(retryOf.expires_at) && Number.isInteger(retryOf.attempt));
  const validUpload = upload === undefined || (typeof upload === 'object' && upload !== null && isText(upload.key));
  if (!validLease || !validUpload) return undefined;
  return {
    kind: kind!,
    ref: { account_id: ref.account_id, job_id: ref.job_id, ...(ref.assessment_id ? { assessment_id: ref.assessment_id } : {}) },
    ...(retryOf ? { retry_of: { owner: retryOf.owner, expires_at: retryOf.expires_at, attempt: retryOf.attempt } } : {}),
    ...(upload ? { upload: { key: upload.key, ...(typeof upload.size === 'number' ? { size: upload.size } : {}) } } : {}),
  };
}
