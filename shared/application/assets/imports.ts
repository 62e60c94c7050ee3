import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { importAssetFile, type InlineBudget } from '../../domain/assets/import-assets';
import { requireFormat } from '../../domain/assets/file-formats';
import type { ImportRecord } from '../../domain/assets/ports';
import type { ImportOptions } from '../../domain/assets/import-options';
import { requireImportAssessment } from '../../domain/assets/import-link';
import { ConflictError, NotFoundError } from '../../domain/errors';
import type { ImportFields, StartImportBody } from '../../schemas/assets';
import type * as z from 'zod';
import { MAX_UPLOAD_BYTES } from './import-jobs';
import { requireJurisdiction } from './jurisdiction';
import type { AssetDeps } from './ports';

/**
 * What `POST /assets/import` imports within the request: at most 5,000 rows, validated within 8 s
 * (the write pass then takes a few seconds, far inside API Gateway's 29 s). A larger or slower
 * file is stored and imported in the background: 202 with the import's URL.
 */
export const INLINE_IMPORT: InlineBudget = { maxRows: 5000, maxValidationMs: 8000 };
/** A pending import whose upload has not arrived this long after its URL expired is shown as failed. */
const UPLOAD_GRACE_MS = 15 * 60 * 1000;

const newImportId = () => `imp_${randomUUID().replace(/-/g, '')}`;

/** Who asks, and when. */
export interface ImportCaller {
  accountId: string;
  now: Date;
}

/** The file of `POST /assets/import`, whole. */
export interface ImportFile {
  filename: string;
  data: Buffer;
}

export type ImportView = ReturnType<typeof importView>;

function importView(record: ImportRecord, now: Date) {
  const expired = record.status === 'pending' && record.upload_expires_at !== null
    && now.getTime() > Date.parse(record.upload_expires_at) + UPLOAD_GRACE_MS;
  return {
    import_id: record.import_id,
    status: expired ? 'failed' : record.status,
    filename: record.filename,
    format: record.format,
    jurisdiction: record.jurisdiction,
    asset_category: record.asset_category,
    assessment_id: record.assessment_id ?? null,
    progress: record.progress,
    asset_count: record.report?.asset_count ?? null,
    // The two headline parts of the report, at the top level where clients look first.
    categorization: record.report?.categorization ?? null,
    validation: record.report?.validation ?? null,
    report: record.report,
    error: expired ? { code: 'upload_expired', detail: 'The file was not uploaded before the upload URL expired; start a new import.' } : record.error,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function newRecord(caller: ImportCaller, fields: { jurisdiction: { id: string; name: string }; asset_category?: string; filename: string; options: ImportOptions; assessment_id?: string }, mode: ImportRecord['mode']): ImportRecord {
  const now = caller.now.toISOString();
  return {
    import_id: newImportId(),
    account_id: caller.accountId,
    status: mode === 'direct' ? 'processing' : 'pending',
    mode,
    filename: fields.filename,
    format: requireFormat(fields.filename),
    jurisdiction: fields.jurisdiction,
    asset_category: fields.asset_category ?? null,
    options: fields.options,
    assessment_id: fields.assessment_id ?? null,
    object_key: null,
    progress: { phase: mode === 'direct' ? 'validating' : 'waiting_for_upload', rows_processed: 0 },
    report: null,
    error: null,
    created_at: now,
    updated_at: now,
    upload_expires_at: null,
  };
}

/** The optional reading fields of either import route, as stored on the import. */
function importOptions(fields: ImportOptions): ImportOptions {
  const { outside_jurisdiction, crs, header_row, column_map } = fields;
  return Object.fromEntries(Object.entries({ outside_jurisdiction, crs, header_row, column_map }).filter(([, v]) => v !== undefined));
}

/** `assessment_id`: checked before anything is read or written. */
async function checkAssessment(deps: AssetDeps, caller: ImportCaller, assessmentId: string | undefined, jurisdictionId: string): Promise<void> {
  if (assessmentId !== undefined) await requireImportAssessment(deps.assessments, caller.accountId, assessmentId, jurisdictionId);
}

/** After the import is stored: the assessment's checklist counts it from now on. */
async function linkToAssessment(deps: AssetDeps, record: ImportRecord): Promise<void> {
  if (record.assessment_id) await deps.evidence.linkImport(record.account_id, record.assessment_id, record.import_id);
}

const uploadKey = (accountId: string, importId: string, filename: string) => `uploads/${accountId}/${importId}/${filename.replace(/[^A-Za-z0-9._-]/g, '_')}`;

/**
 * `POST /assets/import`: the whole file in the request; validated, then written, then reported
 * (`complete`). A file beyond `INLINE_IMPORT` is stored and imported in the background like an
 * upload (`queued`, with the reason), with nothing written by the request itself. A file refused
 * as a whole throws its AssetFileError.
 */
export async function importAssets(deps: AssetDeps, caller: ImportCaller, fields: z.infer<ReturnType<typeof ImportFields>>, file: ImportFile): Promise<{ outcome: 'complete'; view: ImportView } | { outcome: 'queued'; view: ImportView; reason: string }> {
  const jurisdiction = requireJurisdiction(fields.jurisdiction, 'body');
  await checkAssessment(deps, caller, fields.assessment_id, jurisdiction.id);
  const record = newRecord(caller, { jurisdiction, asset_category: fields.asset_category, filename: file.filename, options: importOptions(fields), assessment_id: fields.assessment_id }, 'direct');
  const officialBoundary = await deps.boundaries.get(record.account_id, jurisdiction.id);
  const outcome = await importAssetFile(deps.assets, {
    accountId: record.account_id,
    importId: record.import_id,
    jurisdictionId: jurisdiction.id,
    officialBoundary,
    category: fields.asset_category,
    format: record.format,
    options: record.options,
    open: () => Readable.from([file.data]),
    now: caller.now,
  }, INLINE_IMPORT);
  if ('deferred' in outcome) {
    const key = uploadKey(record.account_id, record.import_id, file.filename);
    const queued: ImportRecord = { ...record, status: 'pending', object_key: key, progress: { phase: 'validating', rows_processed: 0 } };
    // The record first: the stored file's notification (or the local watcher) claims a pending import.
    await deps.imports.create(queued);
    await linkToAssessment(deps, queued);
    await deps.blobs.put(key, file.data, 'application/octet-stream');
    return { outcome: 'queued', view: importView(queued, caller.now), reason: `${outcome.deferred}: it is imported in the background. Follow it at the Location URL.` };
  }
  const done: ImportRecord = { ...record, status: 'complete', report: outcome.report, progress: { phase: 'done', rows_processed: outcome.report.total_rows } };
  await deps.imports.create(done);
  await linkToAssessment(deps, done);
  return { outcome: 'complete', view: importView(done, caller.now) };
}

/** `POST /assets/imports`: a pending import and a presigned PUT URL for its file. */
export async function startAssetImport(deps: AssetDeps, caller: ImportCaller, body: z.infer<ReturnType<typeof StartImportBody>>) {
  const jurisdiction = requireJurisdiction(body.jurisdiction, 'body');
  await checkAssessment(deps, caller, body.assessment_id, jurisdiction.id);
  const record = newRecord(caller, { jurisdiction, asset_category: body.asset_category, filename: body.filename, options: importOptions(body), assessment_id: body.assessment_id }, 'upload');
  const seconds = deps.signedUrlSeconds;
  const key = uploadKey(record.account_id, record.import_id, body.filename);
  const expiresAt = new Date(caller.now.getTime() + seconds * 1000).toISOString();
  const pending: ImportRecord = { ...record, object_key: key, upload_expires_at: expiresAt };
  const uploadUrl = await deps.blobs.signedPutUrl(key, seconds);
  await deps.imports.create(pending);
  await linkToAssessment(deps, pending);
  return { ...importView(pending, caller.now), upload_url: uploadUrl, upload_method: 'PUT', upload_expires_at: expiresAt, max_upload_bytes: MAX_UPLOAD_BYTES };
}

/** `GET /assets/imports/{import_id}` */
export async function getAssetImport(deps: AssetDeps, caller: ImportCaller, importId: string): Promise<ImportView> {
  const record = await deps.imports.get(caller.accountId, importId);
  if (!record) throw new NotFoundError(`No import ${importId}.`);
  return importView(record, caller.now);
}

/**
 * `DELETE /assets/imports/{import_id}`: undoes an import — every asset it created goes (those it
 * only updated stay, as the earlier import left them but for its changes), then the import. An
 * import still running is a conflict: delete it once it has finished.
 */
export async function deleteAssetImport(deps: AssetDeps, accountId: string, importId: string): Promise<void> {
  const record = await deps.imports.get(accountId, importId);
  if (!record) throw new NotFoundError(`No import ${importId}.`);
  if (record.status === 'processing' || (record.status === 'pending' && record.object_key && record.progress.phase !== 'waiting_for_upload')) {
    throw new ConflictError(`Import ${importId} is still running; delete it once it is complete or failed.`);
  }
  // Assets first: a retry after a failure in between finds the import and finishes the job.
  await deps.assets.deleteCreatedBy(accountId, importId);
  await deps.imports.delete(accountId, importId);
}
