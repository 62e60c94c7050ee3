import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { API_TITLE, API_VERSION } from './api-identity';
import { ROUTES } from '../routes';
import type { RouteDef } from '../routes/types';
import { apiDescription, TAG_DESCRIPTIONS } from './api-guide';
import { attachExamples } from './attach-examples';
import { deriveBounds } from './derived-bounds';
import { documentedExamples } from './examples';
import { ProblemSchema } from '../schemas/common';
import { API_KEY_SCHEME, BEARER_SCHEME, operationsOf, RESPONSE_HEADERS } from './operations';
import { registerWebhooks } from './webhooks';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;


/**
 * The OpenAPI 3.1 document of the route table. Deterministic: paths, methods and components are
 * ordered by name, so the committed `openapi.json` diffs cleanly when a route changes.
 */
export function buildOpenApiDocument(routes: readonly RouteDef[] = ROUTES): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'The key issued for your account. Free, Pro and Enterprise keys differ in hourly limit and in the routes they may call (`x-min-tier`).',
  });
  registry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token from `POST /v1/users/login` (a Cognito user pool JWT, valid for one hour), for the `/v1` routes. Verified as RFC8725 (JWT best current practices) asks: an algorithm allow-list (RS256), the issuer, the token use and client, and the expiry.',
  });
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', name, header);
  registry.register('Problem', ProblemSchema());
  const operations = operationsOf(routes);
  for (const [name, response] of Object.entries(operations.responses)) registry.registerComponent('responses', name, response);
  for (const route of operations.routes) registry.registerPath(route);
  registerWebhooks(registry);

  const generated = new OpenApiGeneratorV31(registry.definitions, { sortComponents: 'alphabetically' }).generateDocument({
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description: apiDescription(),
      contact: { name: 'API support', url: 'https://floridadep.gov/rcp/resilient-florida-program' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/api', description: 'This deployment: production on AWS API Gateway (stage `api`), or local with `npm start`.', 'x-internal': false }],
    tags: tagsOf(routes),
  });

  const document: OpenApiDocument = {
    ...generated,
    paths: sortPaths(generated.paths ?? {}),
    webhooks: sortKeys(generated.webhooks ?? {}),
    components: sortKeys(generated.components ?? {}),
  };
  fixNullableRefs(document);
  deriveBounds(document);
  attachExamples(document.paths ?? {}, documentedExamples());
  return document;
}

/**
 * zod-to-openapi writes a nullable reference as `allOf: [{$ref}, {type: [T, 'null']}]`, which
 * no null satisfies (allOf needs the referenced object too); OpenAPI 3.1 says it with anyOf.
 */
function fixNullableRefs(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(fixNullableRefs);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, any>;
  const parts = schema.allOf;
  if (Array.isArray(parts) && parts.length === 2 && parts[0]?.$ref && Array.isArray(parts[1]?.type) && parts[1].type.includes('null') && Object.keys(parts[1]).length === 1) {
    delete schema.allOf;
    schema.anyOf = [parts[0], { type: 'null' }];
  }
  Object.values(schema).forEach(fixNullableRefs);
}

/** The committed file's bytes: two-space JSON with a final newline. */
export function serializeOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function tagsOf(routes: readonly RouteDef[]) {
  const names = [...new Set(routes.flatMap((route) => route.tags))];
  return names.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
}

const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function sortPaths<T extends Record<string, object>>(paths: T): T {
  const sorted: Record<string, object> = {};
  for (const path of Object.keys(paths).sort()) {
    const item = paths[path] as Record<string, unknown>;
    const keys = Object.keys(item).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    sorted[path] = Object.fromEntries(keys.map((key) => [key, item[key]]));
  }
  return sorted as T;
}

function rank(key: string): number {
  const index = METHOD_ORDER.indexOf(key);
  return index === -1 ? METHOD_ORDER.length : index;
}

function sortKeys<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b))) as T;
}
