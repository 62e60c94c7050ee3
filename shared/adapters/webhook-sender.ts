import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isIpLiteral, type AppMode } from '../domain/webhooks/addresses';
import { activeTracer } from './aws-clients';
import { checkResolvedAddresses, checkWebhookUrl } from '../domain/webhooks/url-rules';
import { onFirstUse } from '../on-first-use';
import type { DeliveryErrorClass, SendResult, WebhookSender } from '../domain/webhooks/ports';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a name, as the system resolver answers (injectable for tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * The resolver and the HTTP clients are loaded with the first name resolved or request sent: the
 * API functions that can check a URL answer most requests without either (about 10 ms of a cold start).
 */
const network = onFirstUse(() => ({
  dns: require('node:dns/promises') as typeof import('node:dns/promises'),
  http: require('node:http') as typeof import('node:http'),
  https: require('node:https') as typeof import('node:https'),
}));

export const systemResolver: Resolver = (hostname) => network().dns.lookup(hostname, { all: true, verbatim: true });

export interface WebhookSenderOptions {
  mode: AppMode;
  resolve?: Resolver;
  /** Whole attempt, connect to last byte; at most 10 s. */
  timeoutMs?: number;
  /** Bytes of the response read before the connection is dropped. */
  maxResponseBytes?: number;
}

export const SEND_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 4096;

/**
 * A connection lookup that answers the address already checked, whatever the name: the socket
 * goes where the rules allowed, so a second DNS answer (rebinding) is never used.
 */
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

/**
 * A request to `url` sent to the checked address: Host, TLS verification and SNI keep the name
 * (`host`, without brackets), the socket is never pooled, so each attempt connects where it was checked.
 */
export function pinnedRequest(url: URL, host: string, target: ResolvedAddress, options: RequestOptions, respond: (response: IncomingMessage) => void): ClientRequest {
  const secure = url.protocol === 'https:';
  return (secure ? network().https : network().http).request({
    ...options,
    host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    lookup: pinnedLookup(target),
    ...(secure && !isIpLiteral(host) ? { servername: host } : {}),
    agent: false,
  }, respond);
}

/**
 * POSTs a signed webhook. The URL rules are applied again, the host is resolved here and every
 * address checked before any connection; the request then goes to the checked address (Host and
 * TLS SNI keep the name). Redirects are not followed, the response is read to at most 4 KB, and
 * the whole attempt is cut at the timeout.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly resolve: Resolver;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: WebhookSenderOptions) {
    // In Lambda the tracer captures the POST (it patches https); it must exist before the first send.
    activeTracer();
    this.resolve = options.resolve ?? systemResolver;
    this.timeoutMs = Math.min(options.timeoutMs ?? SEND_TIMEOUT_MS, SEND_TIMEOUT_MS);
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const failed = (error: DeliveryErrorClass, status: number | null = null): SendResult => ({ ok: false, status, durationMs: Math.round(performance.now() - started), error });

    const verdict = checkWebhookUrl(url, this.options.mode);
    if (!verdict.ok) return failed('blocked');
    let addresses: ResolvedAddress[];
    if (isIpLiteral(verdict.host)) {
      addresses = [{ address: verdict.host, family: verdict.host.includes(':') ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolve(verdict.host);
      } catch {
        return failed('dns');
      }
    }
    if (checkResolvedAddresses(verdict.url, addresses.map((a) => a.address), this.options.mode)) return failed('blocked');

    try {
      const status = await this.post(verdict.url, verdict.host, addresses[0]!, headers, body);
      // Redirects are not followed: a 3xx is a failed attempt like any status outside 2xx.
      if (status >= 200 && status < 300) return { ok: true, status, durationMs: Math.round(performance.now() - started), error: null };
      return failed('http_status', status);
    } catch (error) {
      return failed(errorClassOf(error));
    }
  }

  private post(url: URL, host: string, target: ResolvedAddress, headers: Record<string, string>, body: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const request = pinnedRequest(url, host, target, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'va-compliance-api-webhooks/1',
        },
      }, (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= this.maxResponseBytes) {
            response.destroy();
            finish(() => resolve(response.statusCode ?? 0));
          }
        });
        response.on('end', () => finish(() => resolve(response.statusCode ?? 0)));
        response.on('error', () => finish(() => resolve(response.statusCode ?? 0)));
      });
      let done = false;
      const timer = setTimeout(() => request.destroy(new SendTimeoutError()), this.timeoutMs);
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        settle();
      };
      request.on('error', (error: NodeJS.ErrnoException) => finish(() => reject(error)));
      request.end(body);
    });
  }
}

class SendTimeoutError extends Error {}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);

/** The coarse class of a failed connection; the raw error stays out of the delivery log. */
export function errorClassOf(error: unknown): DeliveryErrorClass {
  if (error instanceof SendTimeoutError) return 'timeout';
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (DNS_CODES.has(code)) return 'dns';
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|EPROTO$|ERR_X509)/.test(code)) return 'tls';
  return 'refused';
}
