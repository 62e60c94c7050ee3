import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { STATUS_CODES } from 'node:http';
import { CONFLICT, IDEMPOTENCY_REUSED, KEYED_ERRORS, NOT_FOUND, PUBLIC_ERRORS } from '../routes/responses';
import type { ResponseDef, RouteDef } from '../routes/types';
import { ProblemSchema } from '../schemas/common';

export const API_KEY_SCHEME = 'ApiKeyAuth';
export const BEARER_SCHEME = 'bearerAuth';

type RouteResponse = RouteConfig['responses'][string];
/** A component as `registerComponent` takes it. */
export type Component = Parameters<OpenAPIRegistry['registerComponent']>[2];

/** Response headers documented once under `components.headers` and referenced by every response. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'Id of this request; the `instance` of a problem. Quote it when reporting an issue.', schema: { type: 'string', format: 'uuid', maxLength: 36 } },
  'RateLimit-Limit': { description: 'Requests the key may make per clock hour (UTC). Absent for unlimited keys and for requests that were not counted (missing or invalid key).', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 1_000_000 } },
  'RateLimit-Remaining': { description: 'Requests left in the current hour, this one deducted. Absent when `RateLimit-Limit` is.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 } },
  'RateLimit-Reset': { description: 'Seconds until the hourly window resets. Absent when `RateLimit-Limit` is.', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600 } },
  'Retry-After': { description: 'Seconds to wait before the next request is accepted (the end of the hourly window).', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600 } },
} as const;

type HeaderName = keyof typeof RESPONSE_HEADERS;
const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** Problem responses many routes share, documented once under `components.responses`. */
const SHARED_PROBLEMS = new Map<ResponseDef, number>(
  [KEYED_ERRORS, PUBLIC_ERRORS, NOT_FOUND, CONFLICT, IDEMPOTENCY_REUSED]
    .flatMap((fragment) => Object.entries(fragment).map(([status, def]) => [def, Number(status)] as const))
    .filter(([def]) => def.schema === ProblemSchema),
);

export interface Operations {
  routes: RouteConfig[];
  /** Components the operations refer to, by name. */
  responses: Record<string, Component>;
}

/** The routes of the table as zod-to-openapi path registrations. */
export function operationsOf(routes: readonly RouteDef[]): Operations {
  const responses: Record<string, Component> = {};
  const owners = new Map<string, ResponseDef>();

  const responseOf = (def: ResponseDef, status: number, keyed: boolean): RouteResponse => {
    const headers = responseHeaders(def, status, keyed);
    const schema = def.schema?.();
    const inline = { description: def.description, headers, ...(schema ? { content: { [def.contentType ?? 'application/json']: { schema } } } : {}) };
    if (SHARED_PROBLEMS.get(def) !== status) return inline;
    const name = `${pascalCase(STATUS_CODES[status] ?? String(status))}${keyed ? '' : 'WithoutKey'}`;
    if (owners.has(name) && owners.get(name) !== def) return inline;
    owners.set(name, def);
    responses[name] = { description: def.description, headers, content: { [def.contentType!]: { schema: { $ref: '#/components/schemas/Problem' } } } };
    return { $ref: `#/components/responses/${name}` };
  };

  const operationOf = (route: RouteDef): RouteConfig => {
    const spec = route.request ?? {};
    const keyed = route.auth !== 'none';
    const missingParams = undeclaredPathParameters(route);
    return {
      method: route.method.toLowerCase() as RouteConfig['method'],
      path: route.path,
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      // An empty list states explicitly that the public routes need no key.
      security: keyed ? [{ [route.auth === 'bearer' ? BEARER_SCHEME : API_KEY_SCHEME]: [] }] : [],
      'x-min-tier': route.minTier,
      ...(missingParams.length > 0 ? { parameters: missingParams as RouteConfig['parameters'] } : {}),
      request: {
        params: spec.params?.(),
        query: spec.query?.(),
        headers: spec.headers?.(),
        ...(spec.body
          ? { body: { required: true, content: { [spec.bodyContentType ?? 'application/json']: { schema: spec.body() } } } }
          : {}),
      },
      responses: Object.fromEntries(
        Object.keys(route.responses)
          .map(Number)
          .sort((a, b) => a - b)
          .map((status) => [String(status), responseOf(route.responses[status]!, status, keyed)]),
      ),
    };
  };

  return { routes: routes.map(operationOf), responses };
}

function responseHeaders(def: ResponseDef, status: number, keyed: boolean) {
  const names: HeaderName[] = ['X-Request-Id', ...(keyed ? RATE_LIMIT_HEADERS : []), ...(status === 429 ? ['Retry-After' as const] : [])];
  return { ...Object.fromEntries(names.map((name) => [name, ref(name)])), ...(def.headers ?? {}) };
}

function pascalCase(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** Path parameters the route's schema leaves out are still documented (as strings), so the path stays valid. */
function undeclaredPathParameters(route: RouteDef) {
  const declared = Object.keys(route.request?.params?.().shape ?? {});
  return [...route.path.matchAll(/\{(\w+)\}/g)]
    .map((match) => match[1]!)
    .filter((name) => !declared.includes(name))
    .map((name) => ({ name, in: 'path' as const, required: true, schema: { type: 'string' as const, maxLength: 200 } }));
}
