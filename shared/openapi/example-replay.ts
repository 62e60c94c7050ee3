import { randomBytes } from 'node:crypto';
import { ROUTES } from '../routes';
import { floridaDate } from '../domain/florida-time';
import type { Tier } from '../domain/tiers';
import { EXAMPLE_TODAY, type ExampleFile, type OperationExample } from './examples/types';

export interface ReplayResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON answer: its shape is the route's, read field by field by the caller. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** One HTTP call to the API under test: `route` is relative to its base URL (…/api). */
export type ReplayRequest = (
  method: string,
  route: string,
  options?: { key?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> },
) => Promise<ReplayResponse>;

/** Calls an API at `baseUrl` with fetch; redirects are answers of their own, not followed. */
export function fetchRequester(baseUrl: string): ReplayRequest {
  return async (method, route, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key !== undefined) headers['X-API-Key'] = options.key;
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      body = options.body;
    }
    const response = await fetch(`${baseUrl}${route}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}

/**
 * Sends the documented examples to a running API in order. Ids the API assigns (an assessment's,
 * an import's…) differ from the ones in the examples: each answer's ids are matched to the
 * example answer's, and later requests use the live ones; `EXAMPLE_TODAY` in a request is sent as
 * today's date. Keyed routes use the key of the example's tier (or the route's minimum tier);
 * bearer routes use the `access_token` of the last sign-in example.
 */
export function exampleRunner(api: { keys: Partial<Record<Tier, string>>; request: ReplayRequest }): (example: OperationExample) => Promise<ReplayResponse> {
  const liveIds = new Map<string, string>();
  let accessToken: string | undefined;
  return async (example) => {
    const route = ROUTES.find((candidate) => candidate.id === example.operationId);
    if (!route) throw new Error(`No route has the operationId ${example.operationId}.`);
    const request = substituteIds(example.request ?? {}, liveIds);
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
    const headers = { ...(request.headers ?? {}) };
    let body: Buffer | undefined;
    if (request.form) {
      const boundary = `----example${randomBytes(8).toString('hex')}`;
      headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
      body = multipartBody(request.form, boundary);
    }
    const key = route.auth === 'api_key' ? api.keys[example.tier ?? route.minTier] : undefined;
    if (route.auth === 'bearer' && accessToken && !headers.Authorization) headers.Authorization = `Bearer ${accessToken}`;
    const live = await api.request(route.method, `${path}${query}`, { key, headers, json: request.body, body });
    if (example.response.body !== undefined && live.json !== undefined) recordIds(example.response.body, live.json, liveIds);
    if (typeof live.json?.access_token === 'string') accessToken = live.json.access_token;
    return live;
  };
}

/**
 * How a live answer departs from its example: another status, another shape (then the live
 * answer, shortened as an example is, shows what to write instead), a body where the example has
 * none, or a missing header the example shows. Empty when it matches.
 */
export function exampleMismatches(example: OperationExample, live: ReplayResponse): string[] {
  const expected = example.response;
  const body = live.json ?? (live.text === '' ? undefined : live.text);
  const problems: string[] = [];
  if (live.status !== expected.status) problems.push(`status ${live.status}, expected ${expected.status}`);
  if (expected.body === undefined) {
    if (body !== undefined) problems.push('a body, expected none');
  } else {
    const differences = shapeDifferences(expected.body, body);
    if (differences.length > 0) problems.push(...differences, `live answer: ${JSON.stringify(shorten(body))}`);
  }
  for (const name of Object.keys(expected.headers ?? {})) {
    if (!live.headers.get(name)) problems.push(`header ${name} missing`);
  }
  return problems;
}

function multipartBody(form: Record<string, string | ExampleFile>, boundary: string): Buffer {
  const parts = Object.entries(form).map(([name, value]) => (typeof value === 'string'
    ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.contentType}\r\n\r\n${value.content}\r\n`));
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8');
}

const ID_KEY = /(^|_)id$/;

function recordIds(example: unknown, live: unknown, ids: Map<string, string>, key = ''): void {
  if (typeof example === 'string' && typeof live === 'string') {
    if (ID_KEY.test(key) && example !== live) ids.set(example, live);
  } else if (Array.isArray(example) && Array.isArray(live)) {
    example.forEach((item, i) => recordIds(item, live[i], ids, key));
  } else if (isObject(example) && isObject(live)) {
    for (const [name, value] of Object.entries(example)) recordIds(value, live[name], ids, name);
  }
}

function substituteIds<T>(value: T, ids: Map<string, string>): T {
  if (value === EXAMPLE_TODAY) return floridaDate(new Date()) as T;
  if (typeof value === 'string') return (ids.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((item) => substituteIds(item, ids)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, substituteIds(item, ids)])) as T;
  return value;
}

/**
 * Where a live answer's shape departs from the example's: objects must have the same keys (an
 * empty object in the example stands for a map with any keys), values the same JSON type, `null`
 * in the example matches anything, and a list's first item must match the example's first item.
 */
export function shapeDifferences(example: unknown, live: unknown, at = '$'): string[] {
  if (example === null) return [];
  if (Array.isArray(example)) {
    if (!Array.isArray(live)) return [`${at}: expected a list, got ${describe(live)}`];
    return example.length > 0 && live.length > 0 ? shapeDifferences(example[0], live[0], `${at}[0]`) : [];
  }
  if (isObject(example)) {
    if (!isObject(live)) return [`${at}: expected an object, got ${describe(live)}`];
    const expectedKeys = Object.keys(example);
    if (expectedKeys.length === 0) return [];
    const missing = expectedKeys.filter((name) => !(name in live)).map((name) => `${at}.${name}: missing`);
    const extra = Object.keys(live).filter((name) => !(name in example)).map((name) => `${at}.${name}: not in the example`);
    const nested = expectedKeys.filter((name) => name in live).flatMap((name) => shapeDifferences(example[name], live[name], `${at}.${name}`));
    return [...missing, ...extra, ...nested];
  }
  return typeof example === typeof live ? [] : [`${at}: expected a ${typeof example}, got ${describe(live)}`];
}

/** An answer shortened to example size: lists keep their first item (up to five plain values), long strings are cut. */
export function shorten(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 300)}…` : value;
  if (Array.isArray(value)) {
    const plain = value.every((item) => item === null || typeof item !== 'object');
    return value.slice(0, plain ? 5 : 1).map(shorten);
  }
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, shorten(item)]));
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
