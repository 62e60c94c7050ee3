/**
 * A map whose keys come from users (profile preferences, a file's column names), as the DynamoDB
 * document client must be given it: it marshals a plain object only while `constructor` is not
 * one of its own keys ("Unsupported type passed"), while a Map becomes the same M attribute
 * whatever its keys. Read back, it is a plain object again.
 */
export function userKeyedMap<V>(record: Readonly<Record<string, V>>): Map<string, V> {
  return new Map(Object.entries(record));
}

/**
 * The value as the document client can store it, for records that carry user-keyed maps deep
 * inside (an assessment's methodology counts assets per category named by the user): every plain
 * object with `constructor` among its own keys becomes a Map, at any depth; the rest is unchanged.
 */
export function storableUserKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(storableUserKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, storableUserKeys(item)] as const);
  return (Object.hasOwn(value, 'constructor') ? new Map(entries) : Object.fromEntries(entries)) as T;
}
