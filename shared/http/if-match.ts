import { HttpError } from './problem';

/**
 * The one reading of `If-Match` for the whole API. ETags are the record's version in quotes
 * (`"3"`); the weak form `W/"3"` names the same version. `*` is refused: it would turn a
 * conditional update back into last-writer-wins, which is what the header requirement prevents.
 */
const ETAG = /^(?:W\/)?"(\d{1,9})"$/;

/** The version an ETag names, or undefined when the value is not an ETag of this API. */
export function versionOfEtag(value: string): number | undefined {
  const match = ETAG.exec(value.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * The version a conditional update must still find: 428 `precondition_required` without the
 * header, 400 `invalid_request` when it is not one of this API's ETags.
 */
export function requiredIfMatch(header: string | undefined): number {
  if (header === undefined || header.trim() === '') {
    throw new HttpError('precondition_required', 'This update is conditional: send If-Match with the ETag of your last read of the record (e.g. If-Match: "3").');
  }
  const version = versionOfEtag(header);
  if (version === undefined) {
    throw new HttpError('invalid_request', `If-Match ${header.slice(0, 100)} is not an ETag of this API (they look like "3"; "*" is not accepted).`, {
      errors: [{ field: 'if-match', in: 'header', message: 'Send the ETag of the last read, e.g. "3"' }],
    });
  }
  return version;
}
