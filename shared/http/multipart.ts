import busboy from 'busboy';
import { HttpError, type FieldError } from './problem';
import type { RequestDef } from '../routes/types';
import type { MultipartFile, ParsedForm } from './types';
import { fieldErrorsOf, invalidRequest } from './zod-errors';

export interface MultipartForm {
  fields: Record<string, string>;
  files: MultipartFile[];
}

export interface MultipartLimits {
  /** Bytes per file part; above it the request is 413. */
  fileBytes: number;
  files?: number;
  fields?: number;
  fieldBytes?: number;
}

const bad = (detail: string, field = '(body)') =>
  new HttpError('invalid_request', detail, { errors: [{ field, in: 'body', message: detail }] });

/** A body that is not multipart at all is malformed, like broken JSON (DESIGN §3). */
const unreadable = (detail: string) => new HttpError('malformed_body', detail);

/**
 * Parses a `multipart/form-data` body already held in memory (API Gateway delivers it whole) with
 * busboy. Too large a file is 413; too many parts or a repeated part is a 400 naming it; a body
 * that cannot be read as multipart is 400 `malformed_body`. A part without a file name is a text
 * field (busboy's reading of RFC 7578).
 */
export function parseMultipart(body: Buffer, contentType: string | undefined, limits: MultipartLimits): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // busboy flags a file or field that reaches its size limit, and signals the parts limit on
      // the part that reaches it: one more than each inclusive limit.
      parser = busboy({
        headers: { 'content-type': contentType ?? '' },
        limits: { fileSize: limits.fileBytes + 1, files: limits.files ?? 2, fields: limits.fields ?? 10, fieldSize: (limits.fieldBytes ?? 2_000_000) + 1, parts: (limits.files ?? 2) + (limits.fields ?? 10) + 1 },
      });
    } catch (error) {
      reject(unreadable(`The multipart body cannot be read: ${(error as Error).message}.`));
      return;
    }
    const form: MultipartForm = { fields: {}, files: [] };
    let failure: HttpError | undefined;
    const fail = (error: HttpError) => {
      failure ??= error;
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError('payload_too_large', `Field "${name}" is longer than ${limits.fieldBytes ?? 2_000_000} bytes.`));
      else if (name in form.fields) fail(bad(`Field "${name}" is sent twice.`, name));
      else form.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A body cut short errors the open file stream as well as the parser: the parser reports it.
      stream.on('error', () => undefined);
      stream.on('limit', () => {
        truncated = true;
      });
      stream.on('end', () => {
        if (truncated) {
          fail(new HttpError('payload_too_large', `File "${info.filename ?? name}" is larger than ${limits.fileBytes} bytes; upload large files through POST /assets/imports.`, { max_bytes: limits.fileBytes }));
        } else if (form.files.some((f) => f.field === name)) {
          fail(bad(`File part "${name}" is sent twice.`, name));
        } else {
          form.files.push({ field: name, filename: info.filename ?? name, mimeType: info.mimeType, data: Buffer.concat(chunks) });
        }
      });
    });
    const limit = (what: string) => () => fail(bad(`Too many ${what} in the form.`));
    parser.on('partsLimit', limit('parts'));
    parser.on('filesLimit', limit('files'));
    parser.on('fieldsLimit', limit('fields'));
    parser.on('error', (error: Error) => fail(unreadable(`The multipart body is malformed: ${error.message}.`)));
    parser.on('close', () => (failure ? reject(failure) : resolve(form)));
    parser.end(body);
  });
}

/**
 * A route's multipart form, parsed and validated as the pipeline validates a JSON body: the text
 * fields against the route's strict schema, the required file part present and sent as a file,
 * no file part the route does not take. Every problem comes back in one 400 `errors` list.
 */
export async function readRouteForm(
  form: NonNullable<RequestDef['form']>, body: Buffer, contentType: string | undefined, fileBytes: number,
): Promise<ParsedForm<unknown>> {
  const allowedFiles = [form.file, ...(form.optionalFiles ?? [])];
  const fieldSchema = form.fields();
  const parsed = await parseMultipart(body, contentType?.trim(), { fileBytes, files: allowedFiles.length, fields: Object.keys(fieldSchema.shape).length });
  const errors: FieldError[] = [];
  const file = parsed.files.find((f) => f.field === form.file);
  for (const unknown of parsed.files.filter((f) => !allowedFiles.includes(f.field))) errors.push({ field: unknown.field, in: 'body', message: 'Unknown file part' });
  if (!file) {
    errors.push({ field: form.file, in: 'body', message: form.file in parsed.fields ? 'Send the file as a file part (with a file name)' : 'Required: the file, as a multipart file part' });
  }
  const fields = fieldSchema.safeParse(parsed.fields);
  if (!fields.success) errors.push(...fieldErrorsOf(fields.error, 'body'));
  if (errors.length > 0) throw invalidRequest(errors);
  return { fields: fields.data, file: file!, files: parsed.files };
}
