/**
 * Bounds that follow from how the API works, stated in the document as OWASP API4 asks. Nothing
 * here loosens a request: bounds of request bodies are the zod schemas' own (`.max()`), enforced
 * by the pipeline, and the document test fails on any it leaves open.
 * - A string checked against a date, time or uuid format cannot be longer than that format.
 * - An integer zod accepts (`.int()`) is a safe integer.
 * - Path, query and header values cannot exceed what API Gateway accepts in a request line or
 *   header (10,240 bytes).
 * - Response-only schemas are bounded by the 6 MB Lambda response payload: no answer is larger.
 */

const FORMAT_MAX_LENGTH: Record<string, number> = {
  date: 10,
  'date-time': 35,
  time: 25,
  uuid: 36,
  ipv4: 15,
  ipv6: 45,
};

/** API Gateway REST: the request line and each header together stay within 10,240 bytes. */
export const GATEWAY_MAX_PARAMETER_LENGTH = 10_240;
/** Lambda's synchronous response payload. */
export const RESPONSE_PAYLOAD_MAX_BYTES = 6 * 1024 * 1024;

type Json = Record<string, any>;

// In a schema, the values of these keywords are data (examples, defaults), not schemas.
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

export function deriveBounds(document: Json): void {
  const requestComponents = componentsReachable(document, requestRoots(document));
  walk(document.paths, (schema) => boundFormatAndInteger(schema));
  walk(document.webhooks, (schema) => boundFormatAndInteger(schema));
  walk(document.components, (schema) => boundFormatAndInteger(schema));
  for (const item of Object.values<Json>(document.paths ?? {})) {
    for (const operation of Object.values<Json>(item)) {
      for (const parameter of operation.parameters ?? []) walk(parameter.schema, (schema) => boundLength(schema, GATEWAY_MAX_PARAMETER_LENGTH));
      for (const response of Object.values<Json>(operation.responses ?? {})) {
        for (const header of Object.values<Json>(response.headers ?? {})) walk(header.schema, (schema) => boundLength(schema, GATEWAY_MAX_PARAMETER_LENGTH));
        for (const media of Object.values<Json>(response.content ?? {})) walk(media.schema, (schema) => boundLength(schema, RESPONSE_PAYLOAD_MAX_BYTES));
      }
    }
  }
  for (const header of Object.values<Json>(document.components?.headers ?? {})) walk(header.schema, (schema) => boundLength(schema, GATEWAY_MAX_PARAMETER_LENGTH));
  for (const [name, schema] of Object.entries<Json>(document.components?.schemas ?? {})) {
    if (!requestComponents.has(name)) walk(schema, (node) => boundLength(node, RESPONSE_PAYLOAD_MAX_BYTES));
  }
}

/** Request bodies and parameters, of operations and of the webhook events (which this API sends, not receives). */
function requestRoots(document: Json): Json[] {
  return Object.values<Json>(document.paths ?? {}).flatMap((item) => Object.values<Json>(item))
    .flatMap((operation) => [operation.requestBody, operation.parameters]);
}

function componentsReachable(document: Json, roots: unknown[]): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!found.has(name)) {
        found.add(name);
        visit(document.components?.schemas?.[name]);
      }
    }
    for (const value of Object.values(node as Json)) visit(value);
  };
  roots.forEach(visit);
  return found;
}

/** Every schema node below `node` (values of data keywords are not schemas). */
function walk(node: unknown, visit: (schema: Json) => void): void {
  if (Array.isArray(node)) {
    node.forEach((item) => walk(item, visit));
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const isSchema = typesOf(schema).length > 0;
  if (isSchema) visit(schema);
  for (const [key, value] of Object.entries(schema)) {
    if (!(isSchema && DATA_KEYWORDS.has(key))) walk(value, visit);
  }
}

function typesOf(schema: Json): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t: unknown): t is string => typeof t === 'string') : [];
}

function boundLength(schema: Json, limit: number): void {
  const types = typesOf(schema);
  if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) schema.maxLength = limit;
  if (types.includes('array') && schema.maxItems === undefined) schema.maxItems = limit;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function boundFormatAndInteger(schema: Json): void {
  const types = typesOf(schema);
  if (types.includes('string') && schema.maxLength === undefined && typeof schema.format === 'string' && FORMAT_MAX_LENGTH[schema.format]) {
    schema.maxLength = FORMAT_MAX_LENGTH[schema.format];
  }
  if (!types.includes('integer')) return;
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
