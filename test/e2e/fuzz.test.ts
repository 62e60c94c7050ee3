import { buildOpenApiDocument } from '../../shared/openapi/document';
import { documentedExamples } from '../../shared/openapi/examples';
import type { OperationExample } from '../../shared/openapi/examples';
import { Fuzzer } from '../helpers/schema-fuzz';
import { seededRandom } from '../helpers/synthetic-assets';
import { startTestApp, type TestResponse } from '../helpers/local-app';

type Json = Record<string, any>;

/**
 * Schema fuzz of every operation in the OpenAPI document, seeded (`FUZZ_SEED` to replay another
 * run): requests generated from the schemas and the documented examples, then broken (wrong
 * types, huge and unusual strings, missing and unknown fields, bad JSON, wrong media types, junk
 * path and query values). No answer may be a 5xx, and the server must keep answering.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 380093);
const TOTAL_REQUESTS = 3000;
const CONCURRENCY = 4;

interface Operation {
  method: string;
  path: string;
  op: Json;
  example?: OperationExample;
}

interface FuzzRequest {
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const doc = buildOpenApiDocument() as Json;
const examples = documentedExamples();
const operations: Operation[] = Object.entries<Json>(doc.paths).flatMap(([path, item]) => Object.entries<Json>(item)
  .map(([method, op]) => ({ method: method.toUpperCase(), path, op, example: examples.get(op.operationId) })));

/** Percent-encoding of any text; lone surrogates (which cannot be encoded) become U+FFFD as a browser would send them. */
function encode(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(text).join(',');
  return JSON.stringify(value) ?? '';
}

/**
 * Near-valid requests (a documented example with one change) per operation: enough to reach the
 * handlers with odd values, few enough that the costly analyses do not dominate the run.
 */
const NEAR_VALID_PER_OPERATION = 3;

function buildRequest(f: Fuzzer, operation: Operation, key: string, index: number): FuzzRequest {
  const nearValid = index > 0 && index <= NEAR_VALID_PER_OPERATION && operation.example !== undefined;
  const kind = index === 0 && operation.example ? 'example'
    : nearValid ? 'mutated-example'
      : f.pick(['schema', 'mutated-schema', 'mutated-schema', 'bad-json', 'media-type', 'junk-parameters']);
  const parameters: Json[] = operation.op.parameters ?? [];
  const fromExample = kind === 'example' || kind === 'mutated-example';
  const request = operation.example?.request ?? {};

  const valueOfParameter = (parameter: Json): string | undefined => {
    const exampleValue = { path: request.params, query: request.query, header: request.headers }[parameter.in as 'path']?.[parameter.name];
    if (kind === 'junk-parameters' && f.random() < 0.7) return text(f.hostile());
    if (fromExample && exampleValue !== undefined) return exampleValue;
    if (!parameter.required && f.random() < 0.5) return undefined;
    return text(f.valueOf(parameter.schema));
  };

  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name) ?? { name, in: 'path', required: true, schema: { type: 'string' } };
    return encode(valueOfParameter(parameter) || 'x');
  });
  const query = new URLSearchParams();
  const headers: Record<string, string> = { 'X-API-Key': key };
  for (const parameter of parameters) {
    if (parameter.in === 'path') continue;
    const value = valueOfParameter(parameter);
    if (value === undefined) continue;
    // Header values must be ByteStrings; hostile text goes in percent-encoded.
    if (parameter.in === 'header') headers[parameter.name] = /^[\x20-\x7e]*$/.test(value) ? value.slice(0, 8000) : encode(value).slice(0, 8000);
    else query.set(parameter.name, value);
  }
  if (kind === 'junk-parameters') query.set(f.pick(['unknown', 'limit', 'cursor', 'q', 'location']), text(f.hostile()));

  const content: Json = operation.op.requestBody?.content ?? {};
  const mediaType = Object.keys(content)[0];
  let body: string | Buffer | undefined;
  if (mediaType === 'application/json') {
    const schema = content[mediaType].schema;
    let value: unknown = fromExample && request.body !== undefined ? request.body : f.valueOf(schema);
    if (kind.startsWith('mutated')) value = f.mutate(value);
    headers['Content-Type'] = 'application/json';
    body = kind === 'bad-json'
      ? f.pick(['{', '{"a":', '[1,2', '\u0000', 'nul', '{"a":1}}', '{}'.repeat(10), '['.repeat(20000)])
      : JSON.stringify(value);
  } else if (mediaType === 'multipart/form-data') {
    const boundary = `fuzz${Math.floor(f.random() * 1e9)}`;
    const fields: Json = fromExample && request.form
      ? Object.fromEntries(Object.entries(request.form).map(([name, part]) => [name, typeof part === 'string' ? part : part.content]))
      : (f.valueOf(content[mediaType].schema) as Json);
    const form = kind.startsWith('mutated') ? f.mutate(fields) as Json : fields;
    const extension = f.pick(['csv', 'xlsx', 'geojson', 'json', 'zip', 'txt', 'exe', '']);
    const parts = Object.entries(form ?? {}).map(([name, value]) => (name === 'file'
      ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.${extension}"\r\nContent-Type: application/octet-stream\r\n\r\n${text(value)}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text(value)}\r\n`));
    headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
    body = kind === 'bad-json' ? `--${boundary}\r\nbroken` : Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
  } else if (operation.method !== 'GET' && f.random() < 0.5) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(f.hostile());
  }
  if (kind === 'media-type' && body !== undefined) headers['Content-Type'] = f.pick(['text/plain', 'application/xml', 'application/json; charset=utf-16', 'multipart/form-data', '']);
  const search = query.toString();
  return { kind, method: operation.method, url: `${path}${search ? `?${search}` : ''}`, headers, body };
}

describe(`schema fuzz of every operation (seed ${SEED})`, () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    // No webhook deliveries: nothing may leave loopback.
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  it(`sends ${TOTAL_REQUESTS} generated requests; none answers 5xx and the server keeps answering`, async () => {
    const fuzzer = new Fuzzer(doc, seededRandom(SEED));
    const perOperation = Math.ceil(TOTAL_REQUESTS / operations.length);
    const requests = operations.flatMap((operation) => Array.from({ length: perOperation }, (_, i) => buildRequest(fuzzer, operation, app.keys.enterprise, i)));
    const failures: string[] = [];
    // A keep-alive connection the server closes as the client reuses it fails without an answer:
    // that one is sent again on a new connection; a second failure is the server's.
    const send = async (request: FuzzRequest) => {
      const options = { headers: request.headers, body: request.body };
      try {
        return await app.request(request.method, request.url, options);
      } catch {
        return app.request(request.method, request.url, options);
      }
    };
    const kinds = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        kinds.set(request.kind, (kinds.get(request.kind) ?? 0) + 1);
        let response: TestResponse | undefined;
        try {
          response = await send(request);
        } catch (error) {
          const cause = (error as Error & { cause?: Error }).cause?.message ?? '';
          failures.push(`${request.method} ${request.url.slice(0, 200)} (${request.kind}): no answer (${(error as Error).message} ${cause})`);
          continue;
        }
        if (response.status >= 500) {
          failures.push(`${request.method} ${request.url.slice(0, 200)} (${request.kind}) → ${response.status} ${response.text.slice(0, 300)}; body ${String(request.body ?? '').slice(0, 300)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    expect(failures).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
    // Every kind of input was sent.
    expect([...kinds.keys()].sort()).toEqual(['bad-json', 'example', 'junk-parameters', 'media-type', 'mutated-example', 'mutated-schema', 'schema']);
    expect((await app.request('GET', '/health')).status).toBe(200);
  }, 300_000);
});
