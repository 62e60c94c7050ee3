import { leaseExpired, type JobLease } from '../job-lease';

/** How long one model's processing may run: the worker Lambda's timeout, and locally the processing thread's limit. */
export const MODEL_PROCESSING_LIMIT_MS = 15 * 60 * 1000;
/** Longer than any processing run may take, so only a lost worker lets it lapse (never a slow one, which would be processed twice). */
export const MODEL_LEASE_MS = MODEL_PROCESSING_LIMIT_MS + 60 * 1000;
/** A model whose worker was lost is processed once more; lost again, it is failed (the file may be what ends the worker). */
export const MAX_MODEL_ATTEMPTS = 2;

interface LeasedModel { status: string; lease?: JobLease | null }

/** Processing whose worker was lost, with an attempt left: it is taken over and run again. */
export function isRetryable(model: LeasedModel, now: Date): boolean {
  return model.status === 'processing' && leaseExpired(model.lease, now) && model.lease!.attempt < MAX_MODEL_ATTEMPTS;
}

/** Processing whose worker was lost on its last attempt: failed, never left `processing`. */
export function isLostForGood(model: LeasedModel, now: Date): boolean {
  return model.status === 'processing' && leaseExpired(model.lease, now) && model.lease!.attempt >= MAX_MODEL_ATTEMPTS;
}

/** Why a model whose upload could not be read from storage on its last attempt ended `failed`. */
export const unreadableUploadError = (reason: string): { code: 'storage_unavailable'; detail: string } => ({
  code: 'storage_unavailable',
  detail: `The upload could not be read from storage on ${MAX_MODEL_ATTEMPTS} attempts (${reason}); the file itself was not judged. Create the model again.`,
});

/** Why a model whose worker was lost ended `failed`. */
export const lostModelError = (attempt: number): { code: 'worker_lost'; detail: string } => ({
  code: 'worker_lost',
  detail: `Processing stopped when its worker ended unexpectedly (attempt ${attempt}), a crash, a timeout or a file too heavy to process; create the model again, with smaller tiles if it happens again.`,
});

/**
 * A model of more windows than one run processes (windows.ts, `WINDOWS_PER_RUN`) is processed by a
 * fan-out: in AWS a Step Functions execution, stopped past this (its lease lasts 10 minutes longer,
 * so a run is never taken over while it goes on).
 */
export const PROCESSING_RUN_LIMIT_MS = 2 * 3600 * 1000;
export const PROCESSING_FAN_OUT_LEASE_MS = PROCESSING_RUN_LIMIT_MS + 10 * 60 * 1000;
