import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ROUTES } from '../shared/routes';
import type { FunctionGroup, RouteDef } from '../shared/routes/types';
import type { AccountStore } from '../shared/ports';
import { authenticateApiKey, authorizerContext, type AuthOutcome } from '../shared/http/auth';
import { BINARY_MEDIA_TYPES, GATEWAY_MAX_BODY_BYTES, GATEWAY_RESPONSES, type GatewayResponseType } from '../shared/http/gateway-responses';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../shared/http/problem';
import { errorResponse, type ApiHandler } from '../shared/http/pipeline';
import { bearerAuthorizerContext, type BearerOutcome } from '../shared/http/bearer';
import { registerLocalAuthorizerCache } from '../shared/adapters/authorizer-cache';
import { aggregateApiMetrics } from '../shared/observability/metrics';
import { TokenBuckets, type Throttle } from '../shared/domain/throttles';
import type { Tier } from '../shared/domain/tiers';
import { outlastClientKeepAlive } from './keep-alive';

/** The same handler modules API Gateway invokes in AWS, loaded on first use like a cold start. */
const GROUP_HANDLERS: Record<FunctionGroup, () => Promise<{ handler: ApiHandler }>> = {
  library: () => import('../functions/library/handler'),
  assessments: () => import('../functions/assessments/handler'),
  assets: () => import('../functions/assets/handler'),
  hazards: () => import('../functions/hazards/handler'),
  grants: () => import('../functions/grants/handler'),
  compliance: () => import('../functions/compliance/handler'),
  account: () => import('../functions/account/handler'),
  docs: () => import('../functions/docs/handler'),
  'v1-risk': () => import('../functions/v1-risk/handler'),
  'v1-training': () => import('../functions/v1-training/handler'),
  'v1-identity': () => import('../functions/v1-identity/handler'),
};

const loadedHandlers = new Map<FunctionGroup, ApiHandler>();
const loadingHandlers = new Map<FunctionGroup, Promise<ApiHandler>>();

/** Imports a group's handler module once, on its first request (a cold start); later requests reuse it, as a warm Lambda does. */
function loadGroupHandler(group: FunctionGroup): Promise<ApiHandler> {
  let loading = loadingHandlers.get(group);
  if (!loading) {
    loading = GROUP_HANDLERS[group]().then(({ handler }) => {
      loadedHandlers.set(group, handler);
      return handler;
    });
    loadingHandlers.set(group, loading);
    // A module that failed to load is tried again on the next request, like a new cold start.
    loading.catch(() => loadingHandlers.delete(group));
  }
  return loading;
}

export const STAGE = 'api';
const STAGE_PREFIX = `/${STAGE}`;

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  paramNames: string[];
  staticSegments: number;
}

function compile(route: RouteDef): CompiledRoute {
  const paramNames: string[] = [];
  const segments = route.path.split('/').filter(Boolean);
  const pattern = segments.map((segment) => {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (param) {
      paramNames.push(param[1]!);
      return '([^/]+)';
    }
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }).join('/');
  return { route, pattern: new RegExp(`^/${pattern}/?$`), paramNames, staticSegments: segments.length - paramNames.length };
}

// Static segments win over parameters, as in API Gateway (`/assets/imports` before `/assets/{id}`).
const COMPILED = ROUTES.map(compile).sort((a, b) => b.staticSegments - a.staticSegments);
/** Routes without parameters by method and path: most requests are answered by one lookup. */
const STATIC_ROUTES = new Map(COMPILED.filter((c) => c.paramNames.length === 0).map((c) => [`${c.route.method} ${c.route.path}`, c.route]));

export function matchRoute(method: string, path: string): { route: RouteDef; params: Record<string, string> } | undefined {
  // A fully static route has more static segments than any parameter route of the same length, so it wins.
  const exact = STATIC_ROUTES.get(`${method} ${path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path}`);
  if (exact) return { route: exact, params: {} };
  for (const candidate of COMPILED) {
    if (candidate.route.method !== method) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < candidate.paramNames.length; i++) params[candidate.paramNames[i]!] = safeDecode(match[i + 1]!);
    return { route: candidate.route, params };
  }
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export interface GatewayOptions {
  port: number;
  accounts: AccountStore;
  /** The bearer step of the /v1 routes, as the bearer authorizer runs it in AWS (not cached there either). */
  bearer: (authorizationHeader: string | undefined) => Promise<BearerOutcome>;
  /**
   * The usage plans' throttles, applied as API Gateway applies them: a token bucket per usage key
   * (each account's own), with the tier's rate and burst, and for each /v1 method its own bucket
   * with the tier's /v1 throttle. Absent: no throttling (tests and benches that load the API).
   */
  usagePlans?: UsagePlanThrottles;
}

export interface UsagePlanThrottles {
  throttles: Record<Tier, Throttle>;
  v1Throttles: Record<Tier, Throttle>;
}

/** Usage keys whose buckets are kept: the least recently used come back full, as after a quiet spell. */
const THROTTLED_KEYS_MAX = 100_000;

/**
 * API Gateway reuses an authorizer's answer for the same X-API-Key header for a while (one minute
 * in the dev stage, see lib/stage-config.ts); the local gateway does the same, so a revoked key
 * keeps working for that long in both modes.
 */
const AUTHORIZER_CACHE_MS = 60_000;
const AUTHORIZER_CACHE_MAX_ENTRIES = 10_000;

/** The authorizer's verdict on an X-API-Key header, with the context it hands to the function and the usage identifier it names. */
type KeyVerdict =
  | { ok: true; authorizer: Readonly<Record<string, string>>; usage: UsageIdentity }
  | { ok: false; code: 'missing_api_key' | 'invalid_api_key' };

/** The usage key an authorizer names and the tier whose plan holds it. */
interface UsageIdentity {
  key: string;
  tier: Tier;
}

/** The account's own key; the tier's shared key (named by its tier here) for an account without one. */
const usageIdentity = (tier: Tier, usageKey: string | undefined): UsageIdentity => ({ key: usageKey ?? `tier:${tier}`, tier });

function verdictOf(outcome: AuthOutcome): KeyVerdict {
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    authorizer: Object.freeze({ ...authorizerContext(outcome.account), principalId: outcome.account.accountId }),
    usage: usageIdentity(outcome.account.tier, outcome.account.usageKey),
  };
}

/** Whether a request named by this usage identifier may pass the plan's throttle now. */
type Throttler = (usage: UsageIdentity, route: RouteDef) => boolean;

function usagePlanThrottler(plans: UsagePlanThrottles): Throttler {
  const buckets = new TokenBuckets(THROTTLED_KEYS_MAX);
  return (usage, route) => (route.auth === 'bearer'
    // A method's throttle in a usage plan replaces the plan's own for that method.
    ? buckets.take(`${usage.key} ${route.method} ${route.path}`, plans.v1Throttles[usage.tier])
    : buckets.take(usage.key, plans.throttles[usage.tier]));
}

/** The steps of the gateway in front of every function. */
interface GatewaySteps {
  authenticate: Authenticate;
  bearer: GatewayOptions['bearer'];
  throttle?: Throttler;
}

/** A cached verdict is answered as it is, without a promise: most requests are answered from the cache. */
type Authenticate = (header: string | undefined) => KeyVerdict | Promise<KeyVerdict>;

function cachedAuthenticator(accounts: AccountStore): Authenticate {
  const cache = new Map<string, { verdict: KeyVerdict; expires: number }>();
  // Revoking a key flushes the cache, as the revocation flushes API Gateway's stage cache in AWS.
  registerLocalAuthorizerCache(() => cache.clear());
  const authenticate = async (header: string | undefined) => {
    const verdict = verdictOf(await authenticateApiKey(accounts, header));
    if (header) {
      if (cache.size >= AUTHORIZER_CACHE_MAX_ENTRIES) cache.clear();
      cache.set(header, { verdict, expires: Date.now() + AUTHORIZER_CACHE_MS });
    }
    return verdict;
  };
  return (header) => {
    const hit = header ? cache.get(header) : undefined;
    return hit && hit.expires > Date.now() ? hit.verdict : authenticate(header);
  };
}

/**
 * A loopback stand-in for API Gateway: route matching from the route table, the API key
 * authorizer, the gateway's body limit and its reshaped error responses, then a REST (v1) proxy
 * event to the group's Lambda handler.
 */
export async function startGateway(options: GatewayOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const steps: GatewaySteps = {
    authenticate: cachedAuthenticator(options.accounts),
    bearer: options.bearer,
    throttle: options.usagePlans && usagePlanThrottler(options.usagePlans),
  };
  const server = createServer((req, res) => {
    void answer(req, res, steps);
  });
  outlastClientKeepAlive(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // One process answers every request here: API counts go out once a second, not once per answer.
  const stopMetrics = aggregateApiMetrics();
  return {
    server,
    url: `http://127.0.0.1:${port}/${STAGE}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        stopMetrics();
        resolve();
      });
    }),
  };
}

function gatewayProblem(type: GatewayResponseType, requestId: string): APIGatewayProxyResult {
  const { code, detail } = GATEWAY_RESPONSES[type];
  const body = problemBody(code, detail, requestId);
  return { statusCode: body.status, headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'X-Request-Id': requestId }, body: JSON.stringify(body) };
}

/** One request, whatever happens: an error no step turned into an answer becomes a 500 problem. */
async function answer(req: IncomingMessage, res: ServerResponse, steps: GatewaySteps): Promise<void> {
  try {
    await handle(req, res, steps);
  } catch (error) {
    if (!res.headersSent) send(res, errorResponse(error, randomUUID()));
    else res.destroy();
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, steps: GatewaySteps): Promise<void> {
  const requestId = randomUUID();
  const { pathname, search } = splitTarget(req.url ?? '/');
  const path = pathname === STAGE_PREFIX ? '/' : pathname.startsWith(`${STAGE_PREFIX}/`) ? pathname.slice(STAGE_PREFIX.length) : undefined;
  const method = (req.method ?? 'GET').toUpperCase();
  const matched = path === undefined ? undefined : matchRoute(method, path);
  if (!matched) {
    req.resume();
    return send(res, gatewayProblem('MISSING_AUTHENTICATION_TOKEN', requestId));
  }

  const body = hasBody(req) ? await readBody(req) : noBody(req);
  if (body === 'too_large') return send(res, gatewayProblem('REQUEST_TOO_LARGE', requestId), true);

  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
    (multiValueHeaders[name] ??= []).push(value);
  }
  headers['X-Forwarded-Proto'] = 'http';
  multiValueHeaders['X-Forwarded-Proto'] = ['http'];

  let authorizer: Readonly<Record<string, string>> | null = null;
  let usage: UsageIdentity | undefined;
  if (matched.route.auth === 'api_key') {
    const pending = steps.authenticate(req.headers['x-api-key'] as string | undefined);
    const verdict = pending instanceof Promise ? await pending : pending;
    if (!verdict.ok) return send(res, gatewayProblem(verdict.code === 'missing_api_key' ? 'UNAUTHORIZED' : 'ACCESS_DENIED', requestId));
    authorizer = verdict.authorizer;
    usage = verdict.usage;
  } else if (matched.route.auth === 'bearer') {
    // The verdict travels to the function, which answers 401 invalid_token itself (see shared/http/bearer.ts).
    const outcome = await steps.bearer(req.headers.authorization);
    authorizer = bearerAuthorizerContext(outcome);
    // A refused token is counted against the Free plan's shared key, as the bearer authorizer names it.
    usage = outcome.ok ? usageIdentity(outcome.user.tier, outcome.user.usage_key) : usageIdentity('free', undefined);
  }
  if (usage && steps.throttle && !steps.throttle(usage, matched.route)) return send(res, gatewayProblem('THROTTLED', requestId));

  const queryStringParameters: Record<string, string> = {};
  const multiValueQueryStringParameters: Record<string, string[]> = {};
  let hasQuery = false;
  if (search) {
    for (const [name, value] of new URLSearchParams(search)) {
      queryStringParameters[name] = value; // API Gateway keeps the last value here
      (multiValueQueryStringParameters[name] ??= []).push(value);
      hasQuery = true;
    }
  }
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const binary = (BINARY_MEDIA_TYPES as readonly string[]).includes(mediaType);

  const event: APIGatewayProxyEvent = {
    resource: matched.route.path,
    path: path!,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? queryStringParameters : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQueryStringParameters : null,
    pathParameters: Object.keys(matched.params).length > 0 ? matched.params : null,
    stageVariables: null,
    body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: binary && body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer,
      domainName: req.headers.host ?? '127.0.0.1',
      httpMethod: method,
      path: pathname,
      protocol: `HTTP/${req.httpVersion}`,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: matched.route.path,
      stage: STAGE,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
    },
  };

  const handler = loadedHandlers.get(matched.route.group) ?? (await loadGroupHandler(matched.route.group));
  const result = await handler(event, new LocalLambdaContext(matched.route.group, requestId));
  send(res, result ?? gatewayProblem('DEFAULT_5XX', requestId));
}

/**
 * The Lambda context of one local invocation. Its methods live on the prototype: a context is made
 * for every request, and per-request closures were a measurable share of the gateway's cost.
 */
class LocalLambdaContext implements Context {
  readonly callbackWaitsForEmptyEventLoop = false;
  readonly functionVersion = '$LATEST';
  readonly memoryLimitInMB = '1024';
  readonly logStreamName = 'local';
  readonly functionName: string;
  readonly invokedFunctionArn: string;
  readonly logGroupName: string;
  private readonly deadline = Date.now() + 29_000;

  constructor(group: FunctionGroup, readonly awsRequestId: string) {
    this.functionName = `local-${group}`;
    this.invokedFunctionArn = `arn:aws:lambda:local:000000000000:function:local-${group}`;
    this.logGroupName = `/local/${group}`;
  }

  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  done(): void {}
  fail(): void {}
  succeed(): void {}
}

const EMPTY_BODY = Buffer.alloc(0);

/** Characters a URL path keeps as they are. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/** A leading `//` (read as a host), dot segments, or encoded dots. */
const NEEDS_NORMALISING = /^\/\/|\/\.\.?(?:\/|$)|%2e/i;

/**
 * The path and query of a request target, as WHATWG URL parsing gives them for an origin-form
 * target (the only form HTTP/1.1 servers receive): a full URL parse per request cost more than
 * the rest of the routing.
 */
export function splitTarget(target: string): { pathname: string; search: string } {
  const withoutFragment = target.split('#', 1)[0]!;
  const query = withoutFragment.indexOf('?');
  const rawPath = query === -1 ? withoutFragment : withoutFragment.slice(0, query);
  const search = query === -1 || query === withoutFragment.length - 1 ? '' : withoutFragment.slice(query);
  if (PLAIN_PATH.test(rawPath) && !NEEDS_NORMALISING.test(rawPath)) return { pathname: rawPath, search };
  // Dot segments, unusual characters or an absolute-form target: let the URL parser normalise them.
  const url = new URL(target, 'http://127.0.0.1');
  return { pathname: url.pathname, search: url.search };
}

/** Whether the request declares a body (most GETs do not, and need not wait for one). */
function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) !== 0 || req.headers['transfer-encoding'] !== undefined;
}

function noBody(req: IncomingMessage): Buffer {
  req.resume();
  return EMPTY_BODY;
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > GATEWAY_MAX_BODY_BYTES) {
    req.resume();
    return 'too_large';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) {
      req.resume();
      return 'too_large';
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, result: APIGatewayProxyResult, closeConnection = false): void {
  // A text body is written as the string it is: no copy into a Buffer first.
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body ?? '';
  const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  const headers: Record<string, string | number> = Object.assign({}, result.headers as Record<string, string>);
  headers['Content-Length'] = length;
  if (closeConnection) headers.Connection = 'close';
  res.writeHead(result.statusCode, headers);
  res.end(body, 'utf8');
}
