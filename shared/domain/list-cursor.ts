import { InvalidCursorError } from './errors';

/**
 * The one codec of list cursors for the whole API: where the next page starts, as base64url JSON,
 * opaque to the client. Each list decides what its cursor holds and when it accepts one (its own
 * filters, its own account's partition); anything else answers InvalidCursorError (400).
 */
export function encodeListCursor(content: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
}

/**
 * What `read` makes of the cursor's content; InvalidCursorError when the cursor is not base64url
 * JSON of an object or `read` refuses it (undefined).
 */
export function decodeListCursor<T>(cursor: string, read: (content: Record<string, unknown>) => T | undefined): T {
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) throw new InvalidCursorError();
  const value = read(content as Record<string, unknown>);
  if (value === undefined) throw new InvalidCursorError();
  return value;
}
