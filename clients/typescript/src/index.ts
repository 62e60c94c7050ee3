/**
 * A typed client of the Vulnerability Assessment Compliance API, built on openapi-fetch over the
 * types generated from `openapi.json`. It adds what every integration otherwise writes by hand:
 * the credential on each request, an `Idempotency-Key` on each operation that honours one, and
 * retries of `429` and `503` answers after their `Retry-After`.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { idempotentOperations } from './operations';
import type { components, paths } from './schema';

export type { components, paths };

/** An RFC 9457 problem as the API answers it, with its stable `code`. */
export type Problem = components['schemas']['Problem'];

export interface ApiClientOptions {
  /** The API's base URL, ending in `/api` (`http://127.0.0.1:3000/api` for `npm start`). */
  baseUrl: string;
  /** An `X-API-Key` for the assessment API. */
  apiKey?: string;
  /** A `/v1` bearer access token, or a function that returns the current one. */
  accessToken?: string | (() => string | Promise<string>);
  /** Retries of a `429` or `503` answer after the first attempt (default 3; 0 turns retries off). */
  retries?: number;
  /** An answer asking to wait longer than this is returned as it is (default 30 s). */
  maxRetryDelayMs?: number;
  /** Makes a fresh idempotency key (default `crypto.randomUUID`). */
  newIdempotencyKey?: () => string;
  /** The fetch to send with (default the global one). */
  fetch?: typeof globalThis.fetch;
  /** Waits between attempts (tests pass a clock of their own). */
  sleep?: (ms: number) => Promise<void>;
}

export type ApiClient = Client<paths>;

/** Thrown by {@link expectData} with the problem the API answered. */
export class ApiProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(problem ? `${status} ${problem.code}: ${problem.detail ?? problem.title}` : `HTTP ${status}`);
    this.name = 'ApiProblemError';
  }
}

/** The data of a call's result, or an {@link ApiProblemError} for its problem. */
export function expectData<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    throw new ApiProblemError(result.response.status, isProblem(result.error) ? result.error : undefined);
  }
  return result.data;
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}

const RETRIED_STATUSES = new Set([429, 503]);
// A 503 may come after part of the work: only requests that are safe to repeat are sent again.
const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * The wait a `Retry-After` asks for, in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3); `undefined` when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form starts with the day's name; Date.parse alone would read '-5' as a year.
  const date = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Full-jitter exponential backoff for an answer without `Retry-After`. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(8000, 500 * 2 ** attempt);
}

function canRepeat(request: Request, status: number): boolean {
  if (status === 429) return true; // refused before any work: always safe
  return REPEATABLE_METHODS.has(request.method) || request.headers.has('Idempotency-Key') || request.headers.has('If-Match');
}

function retryingFetch(options: ApiClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? globalThis.fetch;
  const retries = options.retries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await send(request.clone());
      if (attempt >= retries || !RETRIED_STATUSES.has(response.status) || !canRepeat(request, response.status)) return response;
      const wait = retryAfterMs(response.headers.get('Retry-After')) ?? backoffMs(attempt);
      if (wait > maxDelay) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

function credentials(options: ApiClientOptions): Middleware {
  return {
    async onRequest({ request }) {
      if (options.apiKey !== undefined && !request.headers.has('X-API-Key')) request.headers.set('X-API-Key', options.apiKey);
      if (options.accessToken !== undefined && !request.headers.has('Authorization')) {
        const token = typeof options.accessToken === 'function' ? await options.accessToken() : options.accessToken;
        request.headers.set('Authorization', `Bearer ${token}`);
      }
      return request;
    },
  };
}

function idempotencyKeys(newKey: () => string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (idempotentOperations.has(`${request.method} ${schemaPath}`) && !request.headers.has('Idempotency-Key')) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
  };
}

/**
 * A client whose every call is typed by the API's own document:
 * `client.GET('/assessments/{assessment_id}', { params: { path: { assessment_id } } })`.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: retryingFetch(options) });
  client.use(credentials(options), idempotencyKeys(options.newIdempotencyKey ?? (() => crypto.randomUUID())));
  return client;
}
