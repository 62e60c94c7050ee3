import { randomUUID } from 'node:crypto';
import { ImportInterruptedError, RESTART_IMPORT, importAssetFile } from '../../domain/assets/import-assets';
import { AssetFileError } from '../../domain/assets/file-error';
import { jobFailureOf } from '../../domain/job-failure';
import type { AssetCategory } from '../../domain/assets/classification';
import type { ImportRecord } from '../../domain/assets/ports';
import { logger } from '../../observability/logger';
import { METRIC } from '../../observability/metrics';
import type { JobRunner, RunBudget } from '../jobs/harness';
import type { JobStart } from '../jobs/job-start';
import type { LapsedJob, SweptJobs } from '../jobs/sweep';
import type { AssetDeps } from './ports';

/**
 * Running imports to their end, in the background: the import kind of the job harness (its worker
 * in AWS, the upload watcher and the local job queue locally) and of the sweep.
 */

/** Largest upload accepted through the presigned URL (checked when processing). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** A worker holds an import this long and renews it with each progress report (about every second). */
export const IMPORT_LEASE_MS = 60_000;
/** An import whose worker is lost is started again until this long after it began, at most three times. */
const IMPORT_DEADLINE_MS = 60 * 60 * 1000;
const MAX_ATTEMPTS = 3;
/** Waiting imports older than this are not restarted by the sweep (their upload URL expired long ago). */
const WAITING_WINDOW_MS = 24 * 3600 * 1000;
/** One run's time budget where the platform sets none (locally); Lambda's own timeout applies in AWS. */
export const IMPORT_RUN_BUDGET_MS = 14 * 60 * 1000;
/** This process, as the holder of the leases it takes. */
const WORKER_ID = `worker_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
/** `uploads/<account>/<import>/<file>`: the key of an import's uploaded file. */
export const UPLOAD_KEY = /^uploads\/([^/]+)\/(imp_[a-z0-9]+)\/[^/]+$/;

/** The lease holder was replaced (its lease expired while it stalled): it stops and leaves the import alone. */
class LeaseLostError extends Error {}

/** The ports a background import reaches. */
export type ImportJobDeps = Pick<AssetDeps, 'assets' | 'imports' | 'blobs' | 'uploads' | 'boundaries'>;

/** A run's budget (`signal`: aborted when the local server stops, the import is left for the next start to resume), and its clock. */
export interface RunOptions extends RunBudget {
  now?: () => Date;
}

/**
 * One start of an import: its upload arrived (the bucket's notification, the local upload watcher,
 * or the sweep restarting one whose start was lost), or the sweep retries it after its worker was
 * lost (`retry_of`). The import is claimed under a lease first (or the lapsed lease taken over), so
 * a repeated start does nothing; a file refused as a whole ends the import as `failed`.
 */
export async function runImportStart(deps: ImportJobDeps, start: JobStart, options: RunOptions = {}): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { account_id: accountId, job_id: importId } = start.ref;
  const { imports } = deps;
  if (start.retry_of) {
    const expired = await imports.get(accountId, importId);
    const claimed = expired && await imports.takeOver({ ...expired, lease: start.retry_of }, { owner: WORKER_ID, now: now(), leaseMs: IMPORT_LEASE_MS });
    if (claimed) await runClaimedImport(deps, claimed, options);
    return;
  }
  const current = await imports.get(accountId, importId);
  // Only the upload the import waits for starts it (a stale notification of another file does not).
  if (!current?.object_key || (start.upload && current.object_key !== start.upload.key)) return;
  const at = now();
  const record = await imports.claim(accountId, importId, { owner: WORKER_ID, now: at, leaseMs: IMPORT_LEASE_MS, deadline: new Date(at.getTime() + IMPORT_DEADLINE_MS) });
  if (!record) return;
  const size = start.upload?.size;
  if (size !== undefined && size > MAX_UPLOAD_BYTES) {
    const error = new AssetFileError('file_too_large', `The upload is ${size} bytes; at most ${MAX_UPLOAD_BYTES} are accepted.`);
    await imports.finish(accountId, importId, { error: { code: error.code, detail: error.message } }, now(), WORKER_ID);
    return;
  }
  await runClaimedImport(deps, record, options);
}

/** Runs an import this process holds the lease of, to its end: complete, or failed with the reason. */
export async function runClaimedImport(deps: ImportJobDeps, record: ImportRecord, options: RunOptions = {}): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { account_id: accountId, import_id: importId } = record;
  const { imports } = deps;
  let checkpoint: ImportRecord['progress'] = record.progress;
  try {
    const report = await importAssetFile(deps.assets, {
      accountId,
      importId,
      jurisdictionId: record.jurisdiction.id,
      officialBoundary: await deps.boundaries.get(accountId, record.jurisdiction.id),
      category: (record.asset_category ?? undefined) as AssetCategory | undefined,
      format: record.format,
      options: record.options,
      open: () => deps.uploads.open(record.object_key!),
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

/** The import kind of the job harness. */
export const importRunner = (deps: () => ImportJobDeps): JobRunner => ({
  kind: 'asset_import',
  status: async (ref) => (await deps().imports.get(ref.account_id, ref.job_id))?.status,
  run: (start, budget) => runImportStart(deps(), start, budget),
  startOfUpload(key, size) {
    const match = UPLOAD_KEY.exec(key);
    return match ? { kind: 'asset_import', ref: { account_id: match[1]!, job_id: match[2]! }, upload: { key, ...(size === undefined ? {} : { size }) } } : undefined;
  },
  metrics: { failed: METRIC.importsFailed },
});

/**
 * Imports for the sweep: one whose worker was lost is run again while it has attempts and time
 * left (rows already written are updated, never duplicated), else failed `worker_lost`; one whose
 * upload arrived but was never claimed is started again.
 */
export const importJobs = (deps: () => ImportJobDeps): SweptJobs => ({
  kind: 'asset_import',
  async listLapsed(now) {
    return (await deps().imports.listExpiredLeases(now)).flatMap((record): LapsedJob[] => {
      if (!record.lease) return [];
      const attempts = record.lease.attempt;
      const pastDeadline = record.deadline ? now.getTime() > Date.parse(record.deadline) : true;
      return [{
        ref: { account_id: record.account_id, job_id: record.import_id },
        lease: record.lease,
        retryable: attempts < MAX_ATTEMPTS && !pastDeadline && Boolean(record.object_key),
        failure: { code: 'worker_lost', detail: `The import stopped when its worker ended unexpectedly (attempt ${attempts}); ${RESTART_IMPORT}.` },
      }];
    });
  },
  // Conditional on the lost holder, so an import that finished meanwhile keeps its outcome.
  failLost: (job, now) => deps().imports.finish(job.ref.account_id, job.ref.job_id, { error: job.failure }, now, job.lease.owner),
  async listWaiting(before, now) {
    const waiting = (await deps().imports.listPending(new Date(now.getTime() - WAITING_WINDOW_MS)))
      .filter((record) => record.object_key && record.created_at < before.toISOString());
    const arrived = await Promise.all(waiting.map((record) => deps().blobs.exists(record.object_key!)));
    return waiting.filter((_, i) => arrived[i]).map((record) => ({
      kind: 'asset_import' as const, ref: { account_id: record.account_id, job_id: record.import_id }, upload: { key: record.object_key! },
    }));
  },
});
