import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../../shared/openapi/document';
import { deriveBounds } from '../../shared/openapi/derived-bounds';
import { describeDrift } from '../../shared/openapi/drift';
import { ROUTES } from '../../shared/routes';
import { PROBLEM_TYPES } from '../../shared/http/problem';
import { documentedExamples, recordedAnswerOf } from '../../shared/openapi/examples';

type Json = Record<string, any>;

const doc = buildOpenApiDocument() as Json;

function resolve(value: Json): Json {
  let current = value;
  while (current?.$ref) {
    current = current.$ref.slice(2).split('/').map((p: string) => p.replace(/~1/g, '/')).reduce((node: Json, key: string) => node[key], doc);
  }
  return current;
}

function operation(method: string, routePath: string): Json {
  return doc.paths[routePath]?.[method.toLowerCase()];
}

/** Every schema-like node of the document, with its JSON path. */
function schemaNodes(node: unknown, at = '$', out: Array<[string, Json]> = []): Array<[string, Json]> {
  if (Array.isArray(node)) node.forEach((item, i) => schemaNodes(item, `${at}[${i}]`, out));
  else if (node && typeof node === 'object') {
    const value = node as Json;
    if (typeof value.type === 'string' || Array.isArray(value.type)) out.push([at, value]);
    for (const [key, child] of Object.entries(value)) {
      if (!['example', 'examples', 'default', 'enum', 'const'].includes(key)) schemaNodes(child, `${at}.${key}`, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is the committed openapi.json, byte for byte (run `npm run openapi` after changing a route)', () => {
    const committed = readFileSync(path.join(__dirname, '..', '..', 'openapi.json'), 'utf8');
    expect(describeDrift(committed, serializeOpenApiDocument(buildOpenApiDocument()))).toBeUndefined();
  });

  it('is OpenAPI 3.1 with info, a relative server and the API key scheme', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: pkg.version, contact: expect.any(Object), license: expect.any(Object) });
    expect(doc.info.description).toContain('Tiers and limits');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/api' })]);
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }));
  });

  it('shows each operation\'s example: parameters, request body and the recorded answer with its status', () => {
    const examples = documentedExamples();
    for (const route of ROUTES) {
      const example = examples.get(route.id);
      if (!example) continue; // the end-to-end example test requires one for every route
      const op = operation(route.method, route.path);
      for (const [location, values] of [['path', example.request?.params], ['query', example.request?.query], ['header', example.request?.headers]] as const) {
        for (const [name, value] of Object.entries(values ?? {})) {
          const parameter = (op.parameters ?? []).find((p: Json) => p.in === location && p.name === name);
          // Shown in the parameter's type: lists and numbers, as sent on the wire.
          if (parameter) expect({ route: route.id, name, example: [parameter.example].flat().join(',') }).toEqual({ route: route.id, name, example: value });
        }
      }
      const requestExample = Object.values<Json>(op.requestBody?.content ?? {})[0]?.example;
      if (example.request?.body !== undefined) expect(requestExample).toEqual(example.request.body);
      if (example.request?.form) expect(Object.keys(requestExample)).toEqual(Object.keys(example.request.form));
      const response = resolve(op.responses[String(example.response.status)]);
      expect({ route: route.id, documented: Boolean(response) }).toEqual({ route: route.id, documented: true });
      // The answer is the one recorded from the API, not written by hand.
      const recorded = recordedAnswerOf(example)!;
      expect({ route: route.id, recorded: Boolean(recorded) }).toEqual({ route: route.id, recorded: true });
      if (recorded.body !== undefined) expect(Object.values<Json>(response.content)[0]!.example).toEqual(recorded.body);
      for (const [name, value] of Object.entries(recorded.headers ?? {})) expect(response.headers[name].example).toBe(value);
    }
  });

  it('declares no 501: every operation in the document is implemented', () => {
    for (const item of Object.values<Json>(doc.paths)) {
      for (const op of Object.values<Json>(item)) expect(Object.keys(op.responses)).not.toContain('501');
    }
  });

  it('states each tier limit (DESIGN §3: 25, 5,000, unlimited) and each problem code in the description', () => {
    expect(doc.info.description).toMatch(/\| Free \| 25 per hour \|/);
    expect(doc.info.description).toMatch(/\| Pro \| 5,000 per hour \|/);
    expect(doc.info.description).toMatch(/\| Enterprise \| unlimited \|/);
    for (const code of Object.keys(PROBLEM_TYPES)) expect(doc.info.description).toContain(`\`${code}\``);
  });

  it('documents every route of the table with its method, operationId, tags and minimum tier', () => {
    for (const route of ROUTES) {
      const op = operation(route.method, route.path);
      expect({ route: route.id, found: Boolean(op) }).toEqual({ route: route.id, found: true });
      expect(op.operationId).toBe(route.id);
      expect(op.summary).toBe(route.summary);
      expect(op.tags).toEqual(route.tags);
      expect(op['x-min-tier']).toBe(route.minTier);
    }
    const documented = Object.values<Json>(doc.paths).flatMap((item) => Object.keys(item));
    expect(documented).toHaveLength(ROUTES.length);
  });

  it('puts keyed routes behind X-API-Key with 401, 403, 429 (Retry-After) and rate-limit headers', () => {
    const keyed = ROUTES.filter((route) => route.auth === 'api_key');
    expect(keyed.length).toBeGreaterThan(20);
    for (const route of keyed) {
      const op = operation(route.method, route.path);
      expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
      for (const status of ['401', '403', '429', '500']) {
        const response = resolve(op.responses[status]);
        expect(response?.content?.['application/problem+json']).toBeDefined();
      }
      expect(resolve(op.responses['429']).headers['Retry-After']).toBeDefined();
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (!/^[24]/.test(status)) continue;
        expect(Object.keys(resolve(response).headers)).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
      }
    }
  });

  it('leaves the public routes, the documentation among them, without security', () => {
    const open = ROUTES.filter((route) => route.auth === 'none').map((route) => `${route.method} ${route.path}`).sort();
    expect(open).toEqual(expect.arrayContaining(['GET /docs', 'GET /health', 'GET /openapi.json']));
    for (const key of open) {
      const [method, routePath] = key.split(' ');
      expect(operation(method!, routePath!).security).toEqual([]);
    }
  });

  it('covers every row of the DESIGN §3 contract table (L, 1–22, E)', () => {
    const rows = new Set(ROUTES.flatMap((route) => (route.contractRow ?? '').split(',').map((row) => row.trim())).filter((row) => /^(L|E|\d+)$/.test(row)));
    const expected = ['L', 'E', ...Array.from({ length: 22 }, (_, i) => String(i + 1))];
    expect([...rows].sort()).toEqual(expected.sort());
    for (const route of ROUTES.filter((r) => r.contractRow)) expect(operation(route.method, route.path)).toBeDefined();
  });

  it('uses the declared request content types and problem+json for errors', () => {
    for (const route of ROUTES) {
      const op = operation(route.method, route.path);
      if (route.request?.body) expect(Object.keys(op.requestBody.content)).toEqual([route.request.bodyContentType ?? 'application/json']);
      for (const [status, def] of Object.entries(route.responses)) {
        const response = resolve(op.responses[status]);
        if (def.schema) expect(Object.keys(response.content)).toEqual([def.contentType ?? 'application/json']);
      }
    }
  });

  it('documents the assessment_complete, deadline_reminder and webhook_test events with Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(['assessment_complete', 'deadline_reminder', 'webhook_test']);
    const expectedData: Record<string, string[]> = {
      assessment_complete: ['assessment_id', 'jurisdiction', 'completed_at'],
      deadline_reminder: ['deadline_id', 'deadline_name', 'deadline_date', 'days_before'],
      webhook_test: ['webhook_id', 'message'],
    };
    for (const [type, item] of Object.entries<Json>(doc.webhooks)) {
      const headerNames = item.post.parameters.filter((p: Json) => p.in === 'header').map((p: Json) => p.name.toLowerCase());
      expect(headerNames.sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
      const body = resolve(item.post.requestBody.content['application/json'].schema);
      expect(Object.keys(body.properties)).toEqual(['type', 'timestamp', 'data']);
      expect(body.properties.type.const ?? body.properties.type.enum?.[0]).toBe(type);
      expect(Object.keys(resolve(body.properties.data).properties)).toEqual(expectedData[type]);
    }
  });

  it('bounds every string, array and integer (OWASP API4)', () => {
    const unbounded = schemaNodes(doc).filter(([, schema]) => {
      const types: string[] = [schema.type].flat();
      if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) return true;
      if (types.includes('array') && schema.maxItems === undefined) return true;
      if (types.includes('integer') && (!schema.format || (schema.minimum ?? schema.exclusiveMinimum) === undefined || (schema.maximum ?? schema.exclusiveMaximum) === undefined)) return true;
      return false;
    });
    expect(unbounded.map(([at]) => at)).toEqual([]);
  });

  it('is deterministic, with paths in sorted order', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(serializeOpenApiDocument(buildOpenApiDocument()));
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual([...paths].sort());
  });
});

describe('drift message', () => {
  it('names the first differing line, or the missing file', () => {
    expect(describeDrift('a\nb\n', 'a\nb\n')).toBeUndefined();
    expect(describeDrift('a\nb\n', 'a\nc\n')).toContain('line 2: committed "b", generated "c"');
    expect(describeDrift(undefined, 'a\n')).toContain('missing');
  });
});

describe('derived bounds', () => {
  it('bounds formats and integers everywhere, parameters by the gateway, and response-only schemas by the response payload; never a request body', () => {
    const document: Json = {
      paths: {
        '/x': {
          post: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } },
            responses: { 200: { headers: { Location: { schema: { type: 'string' } } }, content: { 'application/json': { schema: { $ref: '#/components/schemas/Output' } } } } },
          },
        },
      },
      components: {
        schemas: {
          Input: { type: 'object', properties: { note: { type: 'string' }, day: { type: 'string', format: 'date' }, list: { type: 'array', items: { type: 'integer', minimum: 0, exclusiveMinimum: 0 } } }, example: { note: { type: 'string' } } },
          Output: { type: 'object', properties: { text: { type: ['string', 'null'] }, kind: { type: 'string', enum: ['a'] }, count: { type: 'integer', minimum: 1, maximum: 100 } } },
        },
      },
    };
    deriveBounds(document);
    const input = document.components.schemas.Input.properties;
    expect(input.note.maxLength).toBeUndefined();
    expect(input.list.maxItems).toBeUndefined();
    expect(input.day.maxLength).toBe(10);
    expect(input.list.items).toEqual({ type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' });
    expect(document.components.schemas.Input.example).toEqual({ note: { type: 'string' } });
    const output = document.components.schemas.Output.properties;
    expect(output.text.maxLength).toBe(6 * 1024 * 1024);
    expect(output.kind.maxLength).toBeUndefined();
    expect(output.count.format).toBe('int32');
    expect(document.paths['/x'].post.parameters[0].schema.maxLength).toBe(10_240);
    expect(document.paths['/x'].post.responses[200].headers.Location.schema.maxLength).toBe(10_240);
  });
});
