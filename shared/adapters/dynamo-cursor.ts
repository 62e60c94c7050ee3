import { decodeListCursor, encodeListCursor } from '../domain/list-cursor';

/**
 * Opaque list cursors: the DynamoDB LastEvaluatedKey, base64url JSON. A cursor is accepted only
 * for the partition it was issued for, so it cannot be turned into a read of another account's
 * items; anything else is InvalidCursorError (the route answers 400).
 */
export type StartKey = Record<string, string>;

export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  return key ? encodeListCursor(key) : undefined;
}

export function decodeCursor(cursor: string | undefined, expected: { pk: string; index?: { name: string; pk: string } }): StartKey | undefined {
  if (cursor === undefined) return undefined;
  return decodeListCursor(cursor, (key) => {
    const entries = Object.entries(key);
    if (entries.length > 6 || !entries.every(([, value]) => typeof value === 'string' && value.length <= 512)) return undefined;
    const start = key as StartKey;
    return start.pk === expected.pk && typeof start.sk === 'string' ? start : undefined;
  });
}
