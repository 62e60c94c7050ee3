import type * as z from 'zod';
import { resolveApplicant } from '../../shared/domain/compliance/inputs';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { HttpError } from '../../shared/http/problem';
import { parseMultipart, type MultipartFile, type MultipartForm } from '../../shared/http/multipart';
import { fieldErrorsOf, invalidRequest } from '../../shared/http/zod-errors';
import { MULTIPART_MAX_BYTES } from '../../shared/routes/assets';
import type { RouteRequest } from '../../shared/http/types';

/** Request-side helpers of the assets routes: form parsing, field validation, jurisdictions, file errors. */

export async function readForm(request: RouteRequest, files: number): Promise<MultipartForm> {
  return parseMultipart(request.rawBody, request.headers['content-type'], { fileBytes: MULTIPART_MAX_BYTES, files, fields: 6 });
}

export function requireFilePart(form: MultipartForm, name: string): MultipartFile {
  const file = form.files.find((f) => f.field === name);
  const unknown = form.files.filter((f) => f.field !== name && f.field !== 'metadata');
  if (unknown.length > 0) throw fieldError(unknown[0]!.field, 'Unknown file part');
  if (!file) throw fieldError(name, name in form.fields ? 'Send the file as a file part (with a file name)' : 'Required: the file, as a multipart file part');
  return file;
}

function fieldError(field: string, message: string): HttpError {
  return new HttpError('invalid_request', `${field}: ${message}.`, { errors: [{ field, in: 'body', message }] });
}

/** The text fields of a form, validated like a JSON body (same `errors` shape). */
export function validateFields<T>(schema: z.ZodType<T>, fields: Record<string, string>): T {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  throw invalidRequest(fieldErrorsOf(result.error, 'body'));
}

/** A Florida county or municipality by name ("Monroe County", "City of Key West") or id (`county:12087`). */
export function requireJurisdiction(text: string, location: 'body' | 'query'): { id: string; name: string } {
  const { id, display_name: name } = resolveApplicant({ jurisdiction: text }, location, 'ids');
  return { id, name };
}

/** A file refused as a whole is a 400 (413 when too large) with the reason code. */
export function fileProblem(error: AssetFileError): HttpError {
  if (error.code === 'file_too_large') return new HttpError('payload_too_large', error.message, { reason: error.code, ...error.extra });
  return new HttpError('invalid_request', error.message, {
    reason: error.code,
    errors: [{ field: 'file', in: 'body', message: error.message }],
    ...error.extra,
  });
}

/** Runs a step that reads the file, turning its AssetFileError into the HTTP problem. */
export async function readingFile<T>(step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AssetFileError) throw fileProblem(error);
    throw error;
  }
}
