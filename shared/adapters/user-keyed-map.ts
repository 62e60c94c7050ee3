/**
 * A map whose keys come from users (profile preferences, a file's column names), as the DynamoDB
 * document client must be given it: it marshals a plain object only while `constructor` is not
 * one of its own keys ("Unsupported type passed"), while a Map becomes the same M attribute
 * whatever its keys. Read back, it is a plain object again.
 */
export function userKeyedMap<V>(record: Readonly<Record<string, V>>): Map<string, V> {
  return new Map(Object.entries(record));
}
