import { resolveApplicant } from '../../shared/domain/compliance/inputs';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { HttpError } from '../../shared/http/problem';

/** Request-side helpers of the assets routes: jurisdictions and file errors. */

/** A Florida county or municipality by name ("Monroe County", "City of Key West") or id (`county:12087`). */
export function requireJurisdiction(text: string, location: 'body' | 'query' | 'path'): { id: string; name: string } {
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
