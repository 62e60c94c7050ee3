import { randomUUID } from 'node:crypto';
import type { S3Event } from 'aws-lambda';
import { ImportInterruptedError, RESTART_IMPORT, importAssetFile } from '../../shared/domain/assets/import-assets';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { jobFailureOf } from '../../shared/domain/job-failure';
import type { AssetCategory } from '../../shared/domain/assets/classification';
import type { ImportRecord } from '../../shared/domain/assets/ports';
import { logger } from '../../shared/observability/logger';
import { assetDeps } from './deps';

/**
 * Running imports to their end, in the background: the use case the import worker (AWS) and the
 * upload watcher (locally) call. The API routes of imports are in imports.ts.
 */

/** Largest upload accepted through the presigned URL (checked when processing). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** A worker holds an import this long and renews it with each progress report (about every second). */
export const IMPORT_LEASE_MS = 60_000;
/** An import whose worker is lost is started again until this long after it began, at most three times. */
const IMPORT_DEADLINE_MS = 60 * 60 * 1000;
const MAX_ATTEMPTS = 3;
/** One run's time budget where the platform sets none (locally); Lambda's own timeout applies in AWS. */
export const IMPORT_RUN_BUDGET_MS = 14 * 60 * 1000;
/** This process, as the holder of the leases it takes. */
const WORKER_ID = `worker_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
/** `uploads/<account>/<import>/<file>`: the key of an import's uploaded file. */
export const UPLOAD_KEY = /^uploads\/([^/]+)\/(imp_[a-z0-9]+)\/[^/]+$/;

/** The lease holder was replaced (its lease expired while it stalled): it stops and leaves the import alone. */
class LeaseLostError extends Error {}

export interface RunOptions {
  now?: () => Date;
  /** When this run must stop (Lambda's remaining time, or the local per-job budget). */
  runDeadline?: Date;
  /** Aborted when the local server stops: the import is left for the next start to resume. */
  signal?: AbortSignal;
}

/**
 * Processes an uploaded file: in AWS from the bucket's ObjectCreated notification, locally from
 * the upload watcher, through this same function. The import is claimed under a lease first, so
 * a repeated notification does nothing; a file refused as a whole ends the import as `failed`.
 */
export async function processUpload(key: string, size: number | undefined, options: RunOptions = {}): Promise<void> {
  const now = options.now ?? (() => new Date());
  const match = UPLOAD_KEY.exec(key);
  if (!match) {
    logger.warn('Ignoring an object outside the import uploads', { key });
    return;
  }
  const [, accountId, importId] = match as unknown as [string, string, string];
  const start = now();
  const record = await assetDeps.imports().claim(accountId, importId, { owner: WORKER_ID, now: start, leaseMs: IMPORT_LEASE_MS, deadline: new Date(start.getTime() + IMPORT_DEADLINE_MS) });
  if (!record || record.object_key !== key) return;
  if (size !== undefined && size > MAX_UPLOAD_BYTES) {
    const error = new AssetFileError('file_too_large', `The upload is ${size} bytes; at most ${MAX_UPLOAD_BYTES} are accepted.`);
    await assetDeps.imports().finish(accountId, importId, { error: { code: error.code, detail: error.message } }, now(), WORKER_ID);
    return;
  }
  await runClaimedImport(record, options);
}

/** Runs an import this process holds the lease of, to its end: complete, or failed with the reason. */
export async function runClaimedImport(record: ImportRecord, options: RunOptions = {}): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { account_id: accountId, import_id: importId } = record;
  const imports = assetDeps.imports();
  let checkpoint: ImportRecord['progress'] = record.progress;
  try {
    const report = await importAssetFile(assetDeps.assets(), {
      accountId,
      importId,
      jurisdictionId: record.jurisdiction.id,
      officialBoundary: await assetDeps.boundaries().get(accountId, record.jurisdiction.id),
      category: (record.asset_category ?? undefined) as AssetCategory | undefined,
      format: record.format,
      options: record.options,
      open: () => assetDeps.uploads().open(record.object_key!),
      now: now(),
      deadline: options.runDeadline ?? new Date(now().getTime() + IMPORT_RUN_BUDGET_MS),
      signal: options.signal,
      onProgress: async (progress) => {
        checkpoint = progress;
        if (!(await imports.progress(accountId, importId, WORKER_ID, progress, now(), IMPORT_LEASE_MS))) throw new LeaseLostError();
      },
    });
    await imports.finish(accountId, importId, { report }, now(), WORKER_ID);
  } catch (error) {
    if (error instanceof LeaseLostError) return;
    if (error instanceof ImportInterruptedError) {
      // The lease lapses now rather than in a minute: the next start's sweep resumes the import at once.
      await imports.progress(accountId, importId, WORKER_ID, checkpoint, now(), 0);
      return;
    }
    const refusal = jobFailureOf(error);
    if (!refusal) logger.error('Import failed', { importId, error: error as Error });
    const failure = refusal ?? { code: 'internal_error', detail: `The import stopped on an unexpected error; ${RESTART_IMPORT}.` };
    await imports.finish(accountId, importId, { error: failure }, now(), WORKER_ID);
  }
}

/**
 * Imports whose worker was lost (its lease expired: a crash, a killed process, a timeout). Those
 * with attempts and time left are returned, to be resumed with `resumeImport` when a worker is
 * free; the others are ended `failed`. None stays `processing`.
 */
export async function sweepLostImports(now: Date = new Date()): Promise<ImportRecord[]> {
  const imports = assetDeps.imports();
  const resumable: ImportRecord[] = [];
  for (const record of await imports.listExpiredLeases(now)) {
    const attempts = record.lease?.attempt ?? 1;
    const pastDeadline = record.deadline ? now.getTime() > Date.parse(record.deadline) : true;
    if (attempts < MAX_ATTEMPTS && !pastDeadline && record.object_key) {
      resumable.push(record);
      continue;
    }
    const failure = { code: 'worker_lost', detail: `The import stopped when its worker ended unexpectedly (attempt ${attempts}); ${RESTART_IMPORT}.` };
    // Conditional on the lost holder, so an import that finished meanwhile keeps its outcome.
    await imports.finish(record.account_id, record.import_id, { error: failure }, now, record.lease?.owner);
  }
  return resumable;
}

/**
 * Takes over a lost import (if no other worker did first) and runs it again from the start: rows
 * already written are unchanged or updated, never duplicated.
 */
export async function resumeImport(expired: ImportRecord, options: RunOptions = {}): Promise<void> {
  const now = options.now ?? (() => new Date());
  const claimed = await assetDeps.imports().takeOver(expired, { owner: WORKER_ID, now: now(), leaseMs: IMPORT_LEASE_MS });
  if (claimed) await runClaimedImport(claimed, options);
}

export function isS3Event(event: unknown): event is S3Event {
  const records = (event as { Records?: { eventSource?: string }[] } | null)?.Records;
  return Array.isArray(records) && records.length > 0 && records.every((r) => r.eventSource === 'aws:s3');
}

/** S3 notification keys are URL-encoded, with `+` for spaces. */
export const notifiedKey = (record: S3Event['Records'][number]): string => decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));

export async function processS3Event(event: S3Event, options: RunOptions = {}): Promise<void> {
  for (const record of event.Records) await processUpload(notifiedKey(record), record.s3.object.size, options);
}

