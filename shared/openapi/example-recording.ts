import { createHash } from 'node:crypto';
import { floridaDate } from '../domain/florida-time';
import { EXAMPLE_TODAY } from './examples/types';

/** One example's recorded answer: what the API answered, normalised and shortened. */
export interface RecordedAnswer {
  operationId: string;
  status: number;
  /** The documented headers of the example, by the name the example gives. */
  headers?: Record<string, string>;
  body?: unknown;
}

/** The origin the document shows for the API, and for any other loopback service (the storage emulator). */
export const EXAMPLE_API_ORIGIN = 'https://api.example.org';
export const EXAMPLE_STORAGE_ORIGIN = 'https://storage.example.org';

/** The instant the first example is sent in the document; each later one is sent a minute after the previous. */
const EXAMPLE_EPOCH = Date.parse(`${EXAMPLE_TODAY}T14:00:00.000Z`);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Instants this close to the run are the API's clock (creation times, expiries, usage windows), not data. */
const CLOCK_WINDOW = 2 * HOUR;

/** The prefixes of the ids the API issues (`va_…`, `imp_…`, webhook secrets, account keys). */
const ISSUED_ID =
  /(?<![A-Za-z0-9_])(?:evt_test|evt_rem|evt|va|sub|dlv|imp|a|hjob|fa|em|wh|acct|key|enr|cert|vac)_[A-Za-z0-9_-]{12,}|(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/]+=*/g;
const UUID = /(?<![0-9A-Za-z_-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f-])/g;
const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISSUED_PREFIX = /^(?:evt_test_|evt_rem_|[a-z]+_)/;
const JWT = /eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z/g;
const LOOPBACK_ORIGIN = /http:\/\/127\.0\.0\.1:\d+/g;
const AMZ_DATE = /(X-Amz-Date=)(\d{8}T\d{6}Z)/g;
const AMZ_CREDENTIAL_DATE = /(X-Amz-Credential=[^&]*?%2F)(\d{8})(%2F)/g;
const AMZ_SIGNATURE = /(X-Amz-(?:Signature|Security-Token)=)([^&"]+)/g;
/** Fields holding a digest of volatile content, and the public key material of a per-run signing key. */
const DIGEST_KEY = /_sha256$/;
const KEY_MATERIAL = new Set(['kid', 'x', 'y', 'n']);

/**
 * Replaces the values that differ from run to run with stable placeholders, so an answer can be
 * recorded once and compared with every later answer:
 * - ids the API issues, UUIDs, tokens (JWTs), digests and signing-key material: a placeholder of the
 *   same form (prefix and separators kept, the rest digits) drawn from where the value first
 *   appears (the operation, its occurrence in the run, the field), so adding an example elsewhere
 *   leaves other placeholders as they are; the same live value always gets the same placeholder,
 *   and a request naming a placeholder is sent with the live value (`toLive`);
 * - the API's loopback origin: `https://api.example.org`; other loopback origins (the storage emulator):
 *   `https://storage.example.org`; presigned URLs' date and signature;
 * - instants within two hours of the run: the n-th request is taken as sent at 14:00 UTC on
 *   `EXAMPLE_TODAY` plus n minutes, and an instant keeps its offset from the request, in whole
 *   minutes (an expiry 5 minutes after the request stays 5 minutes after it); instants on the hour
 *   (usage windows) stay on the hour;
 * - today's date in Florida: `EXAMPLE_TODAY`.
 */
export class ExampleNormalizer {
  private readonly placeholders = new Map<string, string>();
  private readonly liveValues = new Map<string, string>();
  private readonly sentAt: number[] = [];
  private readonly occurrences = new Map<string, number>();
  /** Where the answer being normalised comes from: `createAssessment#1`. */
  private origin = '';

  constructor(private readonly apiOrigin: string) {}

  /** Notes that the next request (of `operationId`) leaves now: the instants of its answer are read relative to it. */
  sending(operationId: string, now = Date.now()): void {
    const occurrence = (this.occurrences.get(operationId) ?? 0) + 1;
    this.occurrences.set(operationId, occurrence);
    this.origin = `${operationId}#${occurrence}`;
    this.sentAt.push(now);
  }

  /** A JSON value with every volatile value replaced (object keys sorted, for a stable file). */
  normalize(value: unknown, at = '$', key = ''): unknown {
    if (typeof value === 'string') return this.normalizeText(value, at, key);
    if (Array.isArray(value)) return value.map((item, i) => this.normalize(item, `${at}[${i}]`, key));
    if (isObject(value)) {
      const keyMaterial = 'kty' in value;
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((name) => {
            const item = value[name];
            const volatile =
              typeof item === 'string' && (DIGEST_KEY.test(name) || (keyMaterial && KEY_MATERIAL.has(name)));
            return [
              name,
              volatile
                ? this.placeholderFor(item as string, '', `${at}.${name}`)
                : this.normalize(item, `${at}.${name}`, name),
            ];
          }),
      );
    }
    return value;
  }

  /** A request's values with each placeholder replaced by the live value it stands for. */
  toLive<T>(value: T): T {
    if (typeof value === 'string') {
      let text: string = value;
      for (const [placeholder, live] of this.liveValues)
        if (text.includes(placeholder)) text = text.split(placeholder).join(live);
      return text as T;
    }
    if (Array.isArray(value)) return value.map((item) => this.toLive(item)) as T;
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, this.toLive(item)])) as T;
    return value;
  }

  /**
   * The ids a request names that no earlier answer issued (a placeholder out of date after examples
   * were added or moved), each with the known placeholders of its kind to choose from.
   */
  unknownIds(request: unknown): string[] {
    const named = JSON.stringify(request ?? null).match(ISSUED_ID) ?? [];
    return named
      .filter((id) => !this.liveValues.has(id))
      .map((id) => {
        const prefix = ISSUED_PREFIX.exec(id)![0];
        const known = [...this.liveValues.keys()].filter((placeholder) => placeholder.startsWith(prefix));
        return `${id} (issued so far: ${known.join(', ') || 'none'})`;
      });
  }

  private normalizeText(text: string, at: string, key: string): string {
    const apiOrigin = this.apiOrigin;
    let result = text
      .replace(LOOPBACK_ORIGIN, (origin) => (origin === apiOrigin ? EXAMPLE_API_ORIGIN : EXAMPLE_STORAGE_ORIGIN))
      .replace(JWT, (token, offset: number) => this.placeholderFor(token, 'jwt', `${at}@${offset}`))
      .replace(ISSUED_ID, (id, offset: number) =>
        this.placeholderFor(id, ISSUED_PREFIX.exec(id)![0], `${at}@${offset}`),
      )
      .replace(UUID, (id, offset: number) => this.placeholderFor(id, '', `${at}@${offset}`))
      .replace(
        AMZ_DATE,
        (_, name: string, compact: string) =>
          `${name}${compactInstant(this.instant(Date.parse(expandCompact(compact)) + LAST_MILLISECOND))}`,
      )
      .replace(
        AMZ_CREDENTIAL_DATE,
        (_, before: string, __: string, after: string) => `${before}${EXAMPLE_TODAY.replace(/-/g, '')}${after}`,
      )
      .replace(
        AMZ_SIGNATURE,
        (_, name: string, signature: string) => `${name}${this.placeholderFor(signature, '', `${at}:${name}`)}`,
      )
      .replace(INSTANT, (instant, millis?: string) => this.instantText(instant, millis !== undefined));
    const today = floridaDate(new Date());
    if (today !== EXAMPLE_TODAY)
      result = result.replace(new RegExp(`(?<![\\d-])${today}(?![\\d-])`, 'g'), EXAMPLE_TODAY);
    // An account key's `prefix` repeats the start of the key.
    if (key === 'prefix' && /^[a-z]+_/.test(result)) {
      for (const [live, placeholder] of this.placeholders)
        if (live !== result && live.startsWith(result)) return placeholder.slice(0, result.length);
    }
    // A receipt quotes the start of its manifest's digest in capitals.
    if (key === 'receipt') {
      for (const [live, placeholder] of this.placeholders) {
        const quoted = live.slice(0, 8).toUpperCase();
        if (/^[0-9A-F]{8}$/.test(quoted) && result.endsWith(`-${quoted}`))
          return `${result.slice(0, -8)}${placeholder.slice(0, 8).toUpperCase()}`;
      }
    }
    return result;
  }

  /** The placeholder of a live value: the same form, its characters after `prefix` digits drawn from where it first appears. */
  private placeholderFor(live: string, prefix: string, at: string): string {
    if (this.liveValues.has(live)) return live;
    const known = this.placeholders.get(live);
    if (known !== undefined) return known;
    const seed = `${this.origin} ${at}`;
    const placeholder =
      prefix === 'jwt' ? exampleJwt(live, seed) : `${prefix}${digitsLike(live.slice(prefix.length), seed)}`;
    this.placeholders.set(live, placeholder);
    this.liveValues.set(placeholder, live);
    return placeholder;
  }

  private instantText(text: string, millis: boolean): string {
    const at = Date.parse(text);
    const first = this.sentAt[0] ?? Date.now();
    if (!(at >= first - CLOCK_WINDOW && at <= Date.now() + CLOCK_WINDOW)) return text;
    const iso = new Date(this.instant(millis ? at : at + LAST_MILLISECOND)).toISOString();
    return millis ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
  }

  /** Where a live instant falls on the examples' clock (see the class comment). */
  private instant(at: number): number {
    let request = 0;
    while (request + 1 < this.sentAt.length && this.sentAt[request + 1]! <= at) request += 1;
    const sent = this.sentAt[request] ?? at;
    const exampleSent = EXAMPLE_EPOCH + request * MINUTE;
    if (at % HOUR === 0) return floorTo(exampleSent, HOUR) + Math.round((at - floorTo(sent, HOUR)) / HOUR) * HOUR;
    return exampleSent + Math.round((at - sent) / MINUTE) * MINUTE;
  }
}

/**
 * An instant written to the second stands for any moment of that second: placed at its last
 * millisecond it falls after the request that made it was sent (written at the start, it could
 * fall before, on the previous request's minute, depending on the milliseconds of the run).
 */
const LAST_MILLISECOND = 999;

function floorTo(at: number, step: number): number {
  return Math.floor(at / step) * step;
}

/**
 * `text` with its characters replaced by digits drawn from `seed`: a UUID keeps its dashes and
 * base64 its trailing `=`; elsewhere every character is random, so every one is replaced.
 */
function digitsLike(text: string, seed: string): string {
  const slot = UUID_FORM.test(text) ? /[0-9a-f]/g : /[^=]/g;
  let digits = '';
  for (let round = 0; digits.length < text.length; round += 1) {
    digits += [...createHash('sha256').update(`${seed} ${round}`).digest()].map((byte) => byte % 10).join('');
  }
  let next = 0;
  return text.replace(slot, () => digits[next++]!);
}

/** A token of a JWT's form whose header keeps the algorithm and whose payload only says where it comes from. */
function exampleJwt(token: string, seed: string): string {
  let alg = 'RS256';
  try {
    alg = String(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')).alg ?? alg);
  } catch {
    // A header that does not parse keeps the usual algorithm.
  }
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return `${segment({ alg, typ: 'JWT' })}.${segment({ example_token: seed })}.${digitsLike('0'.repeat(43), seed)}`;
}

/** `20261129T032646Z` ↔ ISO. */
function expandCompact(compact: string): string {
  return `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 11)}:${compact.slice(11, 13)}:${compact.slice(13)}`;
}

function compactInstant(at: number): string {
  return new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** A whole URL: never cut, since a cut one is no longer a URL (the document declares them `format: uri`). */
const URL_TEXT = /^https?:\/\/\S+$/;

/** An answer shortened to example size: lists keep their first item (up to five plain values), long strings but URLs are cut. */
export function shorten(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 300 && !URL_TEXT.test(value) ? `${value.slice(0, 300)}…` : value;
  if (Array.isArray(value)) {
    const plain = value.every((item) => item === null || typeof item !== 'object');
    return value.slice(0, plain ? 5 : 1).map(shorten);
  }
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, shorten(item)]));
  return value;
}

/** The recorded answers as the committed file holds them: pretty-printed, keys sorted, a final newline. */
export function serializeRecording(answers: readonly RecordedAnswer[]): string {
  return `${JSON.stringify(
    answers.map((answer) => ({
      operationId: answer.operationId,
      status: answer.status,
      ...(answer.headers ? { headers: answer.headers } : {}),
      ...(answer.body !== undefined ? { body: answer.body } : {}),
    })),
    null,
    2,
  )}\n`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
