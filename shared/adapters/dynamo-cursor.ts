import { InvalidCursorError } from '../domain/errors';

/**
 * Opaque list cursors: the DynamoDB LastEvaluatedKey, base64url JSON. A cursor is accepted only
 * for the partition it was issued for, so it cannot be turned into a read of another account's
 * items; anything else is InvalidCursorError (the route answers 400).
 */
export type StartKey = Record<string, string>;

export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  return key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;
}

export function decodeCursor(cursor: string | undefined, expected: { pk: string; index?: { name: string; pk: string } }): StartKey | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) throw new InvalidCursorError();
  const entries = Object.entries(key as Record<string, unknown>);
  if (entries.length > 6 || !entries.every(([, value]) => typeof value === 'string' && value.length <= 512)) throw new InvalidCursorError();
  const start = key as StartKey;
  if (start.pk !== expected.pk || typeof start.sk !== 'string') throw new InvalidCursorError();
  return start;
}
