import { randomBytes } from 'node:crypto';
import { ROUTES } from '../routes';
import { floridaDate } from '../domain/florida-time';
import type { Tier } from '../domain/tiers';
import { OPERATION_EXAMPLES } from './examples';
import { EXAMPLE_TODAY, type ExampleFile, type OperationExample } from './examples/types';
import { ExampleNormalizer, isObject, shorten, type RecordedAnswer } from './example-recording';

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

/** A live answer with its recorded form: normalised and shortened as the committed recording holds it. */
export type ExampleAnswer = ReplayResponse & { answer: RecordedAnswer; unknownIds: string[] };

/**
 * Sends the examples to a running API in order. Ids the API assigns (an assessment's, an
 * import's…) are recorded as placeholders (`ExampleNormalizer`), and a request naming a
 * placeholder is sent with the live id; `EXAMPLE_TODAY` in a request is sent as today's date.
 * Keyed routes use the key of the example's tier (or the route's minimum tier); bearer routes use
 * the `access_token` of the last sign-in example.
 */
export function exampleRunner(api: { baseUrl: string; keys: Partial<Record<Tier, string>>; request: ReplayRequest }): (example: OperationExample) => Promise<ExampleAnswer> {
  const normalizer = new ExampleNormalizer(new URL(api.baseUrl).origin);
  let accessToken: string | undefined;
  return async (example) => {
    const route = ROUTES.find((candidate) => candidate.id === example.operationId);
    if (!route) throw new Error(`No route has the operationId ${example.operationId}.`);
    const unknownIds = normalizer.unknownIds(example.request);
    const request = normalizer.toLive(withToday(example.request ?? {}));
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
    normalizer.sending(example.operationId);
    const live = await api.request(route.method, `${path}${query}`, { key, headers, json: request.body, body });
    if (typeof live.json?.access_token === 'string') accessToken = live.json.access_token;
    return { ...live, answer: recordedAnswer(example, live, normalizer), unknownIds };
  };
}

/** The recorded form of a live answer: the documented headers and the body, normalised, then shortened. */
function recordedAnswer(example: OperationExample, live: ReplayResponse, normalizer: ExampleNormalizer): RecordedAnswer {
  const answer: RecordedAnswer = { operationId: example.operationId, status: live.status };
  const names = example.response.headers ?? [];
  if (names.length > 0) {
    answer.headers = Object.fromEntries(names.map((name) => [name, normalizer.normalize(live.headers.get(name) ?? '', `headers.${name}`) as string]));
  }
  let body: unknown = live.json ?? (live.text === '' ? undefined : live.text);
  if (isObject(body) && example.response.abridged) {
    const abridged = new Set(example.response.abridged);
    body = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, abridged.has(name) ? {} : value]));
  }
  // The whole answer is normalised before it is shortened, so ids in items left out are known to later requests.
  if (body !== undefined) answer.body = shorten(normalizer.normalize(body));
  return answer;
}

/**
 * How a live answer departs from the recorded one, value by value (both normalised): empty when
 * they are equal.
 */
export function recordingDifferences(recorded: RecordedAnswer, live: RecordedAnswer): string[] {
  const problems: string[] = [];
  if (live.status !== recorded.status) problems.push(`status ${live.status}, recorded ${recorded.status}`);
  problems.push(...valueDifferences(recorded.headers ?? {}, live.headers ?? {}, 'headers'));
  problems.push(...valueDifferences(recorded.body, live.body, '$'));
  return problems;
}

function valueDifferences(recorded: unknown, live: unknown, at: string): string[] {
  if (isObject(recorded) && isObject(live)) {
    const names = [...new Set([...Object.keys(recorded), ...Object.keys(live)])];
    return names.flatMap((name) => valueDifferences(recorded[name], live[name], `${at}.${name}`));
  }
  if (Array.isArray(recorded) && Array.isArray(live) && recorded.length === live.length) {
    return recorded.flatMap((item, i) => valueDifferences(item, live[i], `${at}[${i}]`));
  }
  if (JSON.stringify(recorded) === JSON.stringify(live)) return [];
  return [`${at}: recorded ${JSON.stringify(recorded)?.slice(0, 200)}, live ${JSON.stringify(live)?.slice(0, 200)}`];
}

/**
 * How a live answer departs from the recorded one in form, where values may legitimately differ
 * (a deployment): another status, another shape, a body where the recording has none, or a
 * missing documented header. Empty when it matches.
 */
export function exampleMismatches(example: OperationExample, recorded: RecordedAnswer, live: ReplayResponse): string[] {
  const body = live.json ?? (live.text === '' ? undefined : live.text);
  const problems: string[] = [];
  if (live.status !== recorded.status) problems.push(`status ${live.status}, expected ${recorded.status}`);
  if (recorded.body === undefined) {
    if (body !== undefined) problems.push('a body, expected none');
  } else {
    const differences = shapeDifferences(recorded.body, body);
    if (differences.length > 0) problems.push(...differences, `live answer: ${JSON.stringify(shorten(body))}`);
  }
  for (const name of example.response.headers ?? []) {
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

/** A request with `EXAMPLE_TODAY` sent as today's date in Florida. */
function withToday<T>(value: T): T {
  if (value === EXAMPLE_TODAY) return floridaDate(new Date()) as T;
  if (Array.isArray(value)) return value.map((item) => withToday(item)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withToday(item)])) as T;
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

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/**
 * Sends every example in order to an API started for it and returns the recorded form of each
 * answer, with the examples whose status is not the one they expect.
 */
export async function recordAnswers(api: Parameters<typeof exampleRunner>[0]): Promise<{ answers: RecordedAnswer[]; wrongStatus: string[] }> {
  const run = exampleRunner(api);
  const answers: RecordedAnswer[] = [];
  const wrongStatus: string[] = [];
  for (const [index, example] of OPERATION_EXAMPLES.entries()) {
    const live = await run(example);
    answers.push(live.answer);
    if (live.status !== example.response.status) {
      const stale = live.unknownIds.length > 0 ? `; it names ids no earlier answer issued: ${live.unknownIds.join('; ')}` : '';
      wrongStatus.push(`${index + 1}. ${example.operationId}: status ${live.status}, expected ${example.response.status}${stale}: ${live.text.slice(0, 300)}`);
    }
  }
  return { answers, wrongStatus };
}
