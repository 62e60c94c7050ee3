import middy from '@middy/core';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { RouteDef } from '../routes/types';
import type { Tier } from '../domain/tiers';
import type { AccountContext, IdempotencyStore, UsageCounter } from '../ports';
import { meterRequest, rateLimitHeaders } from './quota';
import { requiredIfMatch } from './if-match';
import { withIdempotency } from './idempotency';
import { HttpError, JSON_CONTENT_TYPE, PROBLEM_CONTENT_TYPE, problemBody, type FieldError } from './problem';
import type { RateLimitState, RouteImplementation, RouteRequest, RouteResult } from './types';
import { sourceMappedStack } from './source-mapped-stack';
import { asHttpError } from './domain-problems';
import { parseJsonText, PROTOTYPE_NAME, ReservedNameError } from '../domain/json-text';
import { fieldErrorsOf, invalidRequest } from './zod-errors';
import { attachLambdaContext, logger } from '../observability/logger';
import { countApiAnswer, publishMetrics } from '../observability/metrics';
import { BEARER_CHALLENGE, accountRateSubject, assertRoleAllowed, bearerUserFromContext, perUserIdempotency } from './bearer';
import type { BearerUser } from '../domain/identity/signed-in-user';
import type { readRouteForm } from './multipart';

/** API Gateway's own payload limit; routes may set a lower `maxBodyBytes`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The body of every request without one: zero bytes, nothing to change, no need for one each. */
const NO_BODY = Buffer.alloc(0);
/** Seconds a client is asked to wait after an answer that ran out of the invocation's time (the service was busy). */
const OUT_OF_TIME_RETRY_AFTER_SECONDS = 5;

/**
 * What middy throws when the invocation's time is about to run out (API Gateway's 29 s, or the
 * function's timeout) before the route answered: the service was too busy to answer in time, not a
 * bug of the request or the code, so the client is told to retry (503 with Retry-After) as for a
 * busy dependency.
 */
function outOfTime(): never {
  throw new HttpError(
    'service_unavailable',
    'The service was too busy to answer within the time a request may take; nothing was wrong with the request. Retry after a short wait.',
    { headers: { 'Retry-After': String(OUT_OF_TIME_RETRY_AFTER_SECONDS) } },
    new Error('The invocation ran out of its time before the route answered'),
  );
}

export interface PipelineDeps {
  usage: () => UsageCounter;
  clock: () => Date;
  /** The `Idempotency-Key` store of the routes that declare `idempotency`. */
  idempotency?: () => IdempotencyStore;
  /**
   * Reads multipart forms; only the functions whose routes take one pass it, so the others do not
   * bundle the multipart parser.
   */
  readForm?: typeof readRouteForm;
}

interface PipelineState {
  route?: RouteDef;
  account?: AccountContext;
  user?: BearerUser;
  rate?: RateLimitState;
  request?: RouteRequest;
}

type PipelineRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context & { pipeline: PipelineState }>;

/**
 * Builds the Lambda handler of one function group from the group's own routes (its route module,
 * not the whole table: a function bundles only its routes' schemas and data). Middlewares run in this order: route
 * resolution → quota (tier, then the hourly count; see quota.ts) → request parsing and validation → the route's
 * implementation; errors of any step become RFC 9457 problems (the error middleware is last).
 * Every route the table gives the group needs its implementation: a missing one stops the function
 * at load, so the table never lists a route that cannot answer.
 */
export function createGroupHandler(
  routes: readonly RouteDef[],
  implementations: Partial<Record<string, RouteImplementation<any>>>,
  deps: PipelineDeps,
) {
  const group = routes[0]?.group ?? 'unknown';
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  const unimplemented = routes.filter((route) => !implementations[route.id]).map((route) => route.id);
  if (unimplemented.length > 0) throw new Error(`The ${group} function has no implementation of ${unimplemented.join(', ')}.`);
  const readForm = deps.readForm;
  const formRoutes = routes.filter((route) => route.request?.form).map((route) => route.id);
  if (formRoutes.length > 0 && !readForm) throw new Error(`The ${group} function has no multipart reader for ${formRoutes.join(', ')}.`);
  const keyedRoutes = routes.filter((route) => route.idempotency).map((route) => route.id);
  if (keyedRoutes.length > 0 && !deps.idempotency) throw new Error(`The ${group} function has no Idempotency-Key store for ${keyedRoutes.join(', ')}.`);

  // Route, quota and request in one step, in that order: one middleware, not three (each costs
  // the request an await in middy's chain, a measurable share of a warm request).
  const prepare: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> = {
    before: async (request) => {
      const state = initState(request as PipelineRequest);
      const route = byKey.get(`${request.event.httpMethod} ${request.event.resource}`);
      if (!route) throw new HttpError('not_found', `No route ${request.event.httpMethod} ${request.event.path}`);
      state.route = route;

      if (route.auth !== 'none') {
        const account = route.auth === 'bearer' ? bearerAccount(request.event, state) : accountFromAuthorizer(request.event);
        if (!account) throw new HttpError('missing_api_key', 'Send your API key in the X-API-Key header.');
        state.account = account;
        state.rate = await meterRequest(route, account, deps.usage(), deps.clock());
      }

      const parsed = parseAndValidate(route, request.event, state, deps.clock());
      const form = route.request?.form;
      // A multipart form is parsed and validated here, as a JSON body is in parseAndValidate.
      if (form) {
        parsed.form = await readForm!(form, parsed.rawBody, parsed.headers['content-type'], route.request!.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) as never;
      }
      state.request = parsed;
    },
  };

  const problems: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> = {
    onError: async (request) => {
      // Domain refusals become their problem here, so later hooks see the answer's code.
      const httpError = asHttpError(request.error);
      if (httpError) request.error = httpError;
      const state = (request as PipelineRequest).context.pipeline ?? {};
      const requestId = request.event?.requestContext?.requestId ?? 'unknown';
      request.response = errorResponse(request.error, requestId, state.rate);
    },
  };

  // First in, so its error hook runs last, once the problem answer exists. One metrics flush per request.
  const observe: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> = {
    after: (request) => observeAnswer(group, request as PipelineRequest),
    onError: (request) => observeAnswer(group, request as PipelineRequest),
  };

  const base = async (_event: APIGatewayProxyEvent, context: Context & { pipeline: PipelineState }): Promise<APIGatewayProxyResult> => {
    const state = context.pipeline;
    const route = state.route!;
    const implementation = implementations[route.id]!;
    const request = state.request!;
    const result = route.idempotency
      ? await withIdempotency(route.idempotency === 'user' ? perUserIdempotency(request) : request, deps.idempotency!(), () => implementation(request))
      : await implementation(request);
    return toLambdaResult(result, state.request!.requestId, state.rate);
  };

  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context & { pipeline: PipelineState }>(base, { timeoutEarlyResponse: outOfTime })
    .use(observe)
    .use(prepare)
    .use(problems);
  const handler: ApiHandler = (event, context) => {
    attachLambdaContext(context);
    return chain(event, context as Context & { pipeline: PipelineState });
  };
  return handler;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

function observeAnswer(group: string, request: PipelineRequest): void {
  const state = request.context.pipeline ?? {};
  countApiAnswer({
    group,
    routeId: state.route?.id,
    tier: state.account?.tier,
    status: request.response?.statusCode ?? 500,
    problemCode: request.error instanceof HttpError ? request.error.code : undefined,
  });
  publishMetrics();
}

function initState(request: PipelineRequest): PipelineState {
  request.context.pipeline = {};
  return request.context.pipeline;
}

function accountFromAuthorizer(event: APIGatewayProxyEvent): AccountContext | undefined {
  const ctx = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  if (!ctx || typeof ctx.accountId !== 'string' || typeof ctx.keyHash !== 'string') return undefined;
  return { accountId: ctx.accountId, tier: ctx.tier as Tier, keyHash: ctx.keyHash };
}

/** Bearer routes: the authorizer's verdict; the user's account is what the hourly limit counts. */
function bearerAccount(event: APIGatewayProxyEvent, state: PipelineState): AccountContext {
  const outcome = bearerUserFromContext(event.requestContext?.authorizer);
  if (!outcome.ok) throw new HttpError('invalid_token', outcome.detail, { headers: { 'WWW-Authenticate': BEARER_CHALLENGE } });
  assertRoleAllowed(state.route!, outcome.user);
  state.user = outcome.user;
  return { accountId: outcome.user.account_id, tier: outcome.user.tier, keyHash: accountRateSubject(outcome.user.account_id) };
}

function lowerCaseHeaders(event: APIGatewayProxyEvent): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = event.headers ?? {};
  for (const name in given) {
    const value = given[name];
    if (value !== undefined && value !== null) headers[name.toLowerCase()] = value;
  }
  return headers;
}

/** Repeated query parameters arrive as a comma-separated list (`time_horizon=2040&time_horizon=2070`). */
function flatQuery(event: APIGatewayProxyEvent): Record<string, string> {
  const query: Record<string, string> = {};
  if (!event.queryStringParameters) return query;
  const multi = event.multiValueQueryStringParameters ?? {};
  for (const [name, value] of Object.entries(event.queryStringParameters)) {
    if (value === undefined) continue;
    const all = multi[name];
    query[name] = all && all.length > 1 ? all.join(',') : value;
  }
  return query;
}

function validate<T>(schema: z.ZodType<T> | undefined, input: unknown, location: NonNullable<FieldError['in']>, errors: FieldError[]): T | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  errors.push(...fieldErrorsOf(result.error, location));
  return undefined;
}

function parseAndValidate(route: RouteDef, event: APIGatewayProxyEvent, state: PipelineState, now: Date): RouteRequest {
  const headers = lowerCaseHeaders(event);
  const rawBody = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : NO_BODY;
  const spec = route.request ?? {};
  const maxBytes = spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (rawBody.length > maxBytes) {
    const hint = spec.tooLargeHint ? ` ${spec.tooLargeHint}` : '';
    throw new HttpError('payload_too_large', `The request body is ${rawBody.length} bytes; ${route.method} ${route.path} accepts at most ${maxBytes} bytes.${hint}`, { max_bytes: maxBytes });
  }

  const ifMatch = route.requiresIfMatch ? requiredIfMatch(headers['if-match']) : undefined;

  let body: unknown;
  if (spec.body) {
    const expected = spec.bodyContentType ?? 'application/json';
    const mediaType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (rawBody.length === 0 && expected === 'application/json') {
      throw new HttpError('invalid_request', 'A JSON request body is required.', { errors: [{ field: '(root)', in: 'body', message: 'Required' }] });
    }
    if (mediaType !== expected) {
      throw new HttpError('unsupported_media_type', `Send the body as ${expected}${mediaType ? `, not ${mediaType}` : ''}.`);
    }
    if (expected === 'application/json') {
      try {
        body = parseJsonText(rawBody.toString('utf8'));
      } catch (error) {
        if (error instanceof ReservedNameError) throw invalidRequest([{ field: PROTOTYPE_NAME, in: 'body', message: error.message }]);
        throw new HttpError('malformed_body', `The body is not valid JSON: ${(error as Error).message}`);
      }
    }
  }

  const errors: FieldError[] = [];
  const params = validate(spec.params?.(), event.pathParameters ?? {}, 'path', errors);
  const query = validate(spec.query?.(), flatQuery(event), 'query', errors);
  const headerValues = validate(spec.headers?.(), headers, 'header', errors);
  const parsedBody = spec.body && (spec.bodyContentType ?? 'application/json') === 'application/json'
    ? validate(spec.body(), body, 'body', errors)
    : undefined;
  if (errors.length > 0) throw invalidRequest(errors);

  // Read before the validated header values are merged into the same object.
  const baseUrl = stageBaseUrl(event, headers);
  return {
    route,
    params: (params ?? {}) as never,
    query: (query ?? {}) as never,
    body: parsedBody as never,
    form: undefined as never,
    rawBody,
    // This request's own object: merged into, not copied.
    headers: headerValues ? Object.assign(headers, headerValues as Record<string, string>) : headers,
    account: state.account,
    ifMatch,
    user: state.user,
    clientIp: event.requestContext?.identity?.sourceIp ?? 'unknown',
    rate: state.rate,
    requestId: event.requestContext?.requestId ?? 'unknown',
    baseUrl,
    now,
  };
}

function stageBaseUrl(event: APIGatewayProxyEvent, headers: Record<string, string>): string {
  const host = headers['x-forwarded-host'] ?? headers.host ?? event.requestContext?.domainName ?? 'localhost';
  const proto = headers['x-forwarded-proto'] ?? 'https';
  return `${proto}://${host}/${event.requestContext?.stage ?? 'api'}`;
}

function toLambdaResult(result: RouteResult, requestId: string, rate: RateLimitState | undefined): APIGatewayProxyResult {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...rateLimitHeaders(rate), ...result.headers };
  if (result.rawBody !== undefined) {
    const binary = Buffer.isBuffer(result.rawBody);
    if (result.contentType) headers['Content-Type'] = result.contentType;
    return {
      statusCode: result.status,
      headers,
      body: binary ? (result.rawBody as Buffer).toString('base64') : (result.rawBody as string),
      isBase64Encoded: binary,
    };
  }
  if (result.body === undefined) return { statusCode: result.status, headers, body: '' };
  headers['Content-Type'] = result.contentType ?? JSON_CONTENT_TYPE;
  return { statusCode: result.status, headers, body: JSON.stringify(result.body) };
}

export function errorResponse(error: unknown, requestId: string, rate?: RateLimitState): APIGatewayProxyResult {
  const httpError = asHttpError(error);
  if (!httpError) {
    // Internals stay in the logs; the client sees only the request id to quote.
    if (error instanceof Error && error.stack) error.stack = sourceMappedStack(error.stack);
    logger.error('Unhandled error', { requestId, error: error as Error });
  } else if (httpError.code === 'service_unavailable') {
    logger.warn('Dependency unavailable', { requestId, error: httpError.cause as Error });
  }
  const problem = httpError
    ? problemBody(httpError.code, httpError.message, requestId, httpError.extra)
    : problemBody('internal_error', 'An unexpected error occurred. Quote the instance id when reporting it.', requestId);
  return {
    statusCode: problem.status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'X-Request-Id': requestId,
      ...rateLimitHeaders(rate),
      ...(httpError?.extra.headers ?? {}),
    },
    body: JSON.stringify(problem),
  };
}

export type { RouteRequest, RouteResult };
