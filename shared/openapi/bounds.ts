/**
 * Makes every size explicit in the generated schemas, as OWASP API4 asks: strings and arrays the
 * zod schemas leave unbounded get the payload limit (no request or response can hold a longer one),
 * strings with a format get that format's length, integers get a range and an int32/int64 format.
 */

/** Lambda's synchronous payload limit: the largest request or response body there can be. */
export const PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

const FORMAT_MAX_LENGTH: Record<string, number> = {
  date: 10,
  'date-time': 40,
  time: 30,
  duration: 100,
  uuid: 36,
  email: 320,
  uri: 2048,
  url: 2048,
  ipv4: 15,
  ipv6: 45,
};

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

type Json = Record<string, unknown>;

// In a schema, the values of these keywords are data (examples, defaults), not schemas.
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

export function boundSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(boundSchemas);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const types = typesOf(schema);
  if (types.includes('string')) boundString(schema);
  if (types.includes('array') && schema.maxItems === undefined) schema.maxItems = PAYLOAD_LIMIT_BYTES;
  if (types.includes('integer')) boundInteger(schema);
  const isSchema = types.length > 0;
  for (const [key, value] of Object.entries(schema)) {
    if (!(isSchema && DATA_KEYWORDS.has(key))) boundSchemas(value);
  }
}

function typesOf(schema: Json): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

function boundString(schema: Json): void {
  if (schema.maxLength !== undefined || schema.enum !== undefined || schema.const !== undefined) return;
  schema.maxLength = FORMAT_MAX_LENGTH[String(schema.format)] ?? PAYLOAD_LIMIT_BYTES;
}

function boundInteger(schema: Json): void {
  // One lower and one upper bound: keep the tighter when both the inclusive and exclusive forms are set.
  if (typeof schema.minimum === 'number' && typeof schema.exclusiveMinimum === 'number') {
    if (schema.exclusiveMinimum >= schema.minimum) delete schema.minimum;
    else delete schema.exclusiveMinimum;
  }
  if (typeof schema.maximum === 'number' && typeof schema.exclusiveMaximum === 'number') {
    if (schema.exclusiveMaximum <= schema.maximum) delete schema.maximum;
    else delete schema.exclusiveMaximum;
  }
  if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) schema.minimum = Number.MIN_SAFE_INTEGER;
  if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) schema.maximum = Number.MAX_SAFE_INTEGER;
  if (schema.format === undefined) {
    const low = Number(schema.minimum ?? schema.exclusiveMinimum);
    const high = Number(schema.maximum ?? schema.exclusiveMaximum);
    schema.format = low >= INT32_MIN && high <= INT32_MAX ? 'int32' : 'int64';
  }
}
