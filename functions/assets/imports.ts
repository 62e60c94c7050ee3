import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { S3Event } from 'aws-lambda';
import { importAssetFile } from '../../shared/domain/assets/import-assets';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { requireFormat } from '../../shared/domain/assets/file-formats';
import type { AssetCategory } from '../../shared/domain/assets/classification';
import type { ImportRecord } from '../../shared/domain/assets/ports';
import { HttpError } from '../../shared/http/problem';
import { logger } from '../../shared/http/logger';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { ImportFields, StartImportBody } from '../../shared/schemas/assets';
import type * as z from 'zod';
import { assetDeps } from './deps';
import { readForm, readingFile, requireFilePart, requireJurisdiction, validateFields } from './request';

/** Largest upload accepted through the presigned URL (checked when processing). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** A pending import whose upload has not arrived this long after its URL expired is shown as failed. */
const UPLOAD_GRACE_MS = 15 * 60 * 1000;
const UPLOAD_KEY = /^uploads\/([^/]+)\/(imp_[a-z0-9]+)\/[^/]+$/;

const newImportId = () => `imp_${randomUUID().replace(/-/g, '')}`;

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

function newRecord(request: RouteRequest, fields: { jurisdiction: { id: string; name: string }; asset_category?: string; filename: string }, mode: ImportRecord['mode']): ImportRecord {
  const now = request.now.toISOString();
  return {
    import_id: newImportId(),
    account_id: request.account!.accountId,
    status: mode === 'direct' ? 'processing' : 'pending',
    mode,
    filename: fields.filename,
    format: requireFormat(fields.filename),
    jurisdiction: fields.jurisdiction,
    asset_category: fields.asset_category ?? null,
    object_key: null,
    progress: { phase: mode === 'direct' ? 'validating' : 'waiting_for_upload', rows_processed: 0 },
    report: null,
    error: null,
    created_at: now,
    updated_at: now,
    upload_expires_at: null,
  };
}

/** POST /assets/import: the whole file in the request; validated, then written, then reported. */
export async function importAssets(request: RouteRequest): Promise<RouteResult> {
  const form = await readForm(request, 1);
  const file = requireFilePart(form, 'file');
  const fields = validateFields(ImportFields, form.fields);
  const jurisdiction = requireJurisdiction(fields.jurisdiction, 'body');
  const record = await readingFile(() => newRecord(request, { jurisdiction, asset_category: fields.asset_category, filename: file.filename }, 'direct'));
  const report = await readingFile(() => importAssetFile(assetDeps.assets(), {
    accountId: record.account_id,
    importId: record.import_id,
    jurisdictionId: jurisdiction.id,
    category: fields.asset_category,
    format: record.format,
    open: () => Readable.from([file.data]),
    now: request.now,
  }));
  const done: ImportRecord = { ...record, status: 'complete', report, progress: { phase: 'done', rows_processed: report.total_rows } };
  await assetDeps.imports().create(done);
  return {
    status: 201,
    body: importView(done, request.now),
    headers: { Location: `${request.baseUrl}/assets/imports/${done.import_id}` },
  };
}

/** POST /assets/imports: a pending import and a presigned PUT URL for its file. */
export async function startAssetImport(request: RouteRequest): Promise<RouteResult> {
  const body = request.body as z.infer<typeof StartImportBody>;
  const jurisdiction = requireJurisdiction(body.jurisdiction, 'body');
  const record = await readingFile(() => newRecord(request, { jurisdiction, asset_category: body.asset_category, filename: body.filename }, 'upload'));
  const seconds = assetDeps.signedUrlSeconds();
  const safeName = body.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  const key = `uploads/${record.account_id}/${record.import_id}/${safeName}`;
  const expiresAt = new Date(request.now.getTime() + seconds * 1000).toISOString();
  const pending: ImportRecord = { ...record, object_key: key, upload_expires_at: expiresAt };
  const uploadUrl = await assetDeps.blobs().signedPutUrl(key, seconds);
  await assetDeps.imports().create(pending);
  return {
    status: 201,
    body: { ...importView(pending, request.now), upload_url: uploadUrl, upload_method: 'PUT', upload_expires_at: expiresAt, max_upload_bytes: MAX_UPLOAD_BYTES },
    headers: { Location: `${request.baseUrl}/assets/imports/${pending.import_id}` },
  };
}

/** GET /assets/imports/{import_id} */
export async function getAssetImport(request: RouteRequest): Promise<RouteResult> {
  const { import_id: importId } = request.params as { import_id: string };
  const record = await assetDeps.imports().get(request.account!.accountId, importId);
  if (!record) throw new HttpError('not_found', `No import ${importId}.`);
  return { status: 200, body: importView(record, request.now) };
}

/**
 * Processes an uploaded file: in AWS from the bucket's ObjectCreated notification, locally from
 * the upload watcher, through this same function. The import is claimed first, so a repeated
 * notification does nothing; a file refused as a whole ends the import as `failed`.
 */
export async function processUpload(key: string, size: number | undefined, now: () => Date = () => new Date()): Promise<void> {
  const match = UPLOAD_KEY.exec(key);
  if (!match) {
    logger.warn('Ignoring an object outside the import uploads', { key });
    return;
  }
  const [, accountId, importId] = match as unknown as [string, string, string];
  const record = await assetDeps.imports().claim(accountId, importId, now());
  if (!record || record.object_key !== key) return;
  try {
    if (size !== undefined && size > MAX_UPLOAD_BYTES) {
      throw new AssetFileError('file_too_large', `The upload is ${size} bytes; at most ${MAX_UPLOAD_BYTES} are accepted.`);
    }
    const report = await importAssetFile(assetDeps.assets(), {
      accountId,
      importId,
      jurisdictionId: record.jurisdiction.id,
      category: (record.asset_category ?? undefined) as AssetCategory | undefined,
      format: record.format,
      open: () => assetDeps.uploads().open(key),
      now: now(),
      onProgress: (progress) => assetDeps.imports().progress(accountId, importId, progress, now()),
    });
    await assetDeps.imports().finish(accountId, importId, { report }, now());
  } catch (error) {
    if (!(error instanceof AssetFileError)) logger.error('Import failed', { importId, error: error as Error });
    const failure = error instanceof AssetFileError
      ? { code: error.code, detail: error.message }
      : { code: 'internal_error', detail: 'The import stopped on an unexpected error; start it again (assets already written are updated, not duplicated).' };
    await assetDeps.imports().finish(accountId, importId, { error: failure }, now());
  }
}

export function isS3Event(event: unknown): event is S3Event {
  const records = (event as { Records?: { eventSource?: string }[] } | null)?.Records;
  return Array.isArray(records) && records.length > 0 && records.every((r) => r.eventSource === 'aws:s3');
}

/** S3 notification keys are URL-encoded, with `+` for spaces. */
export async function processS3Event(event: S3Event): Promise<void> {
  for (const record of event.Records) {
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    await processUpload(key, record.s3.object.size);
  }
}
