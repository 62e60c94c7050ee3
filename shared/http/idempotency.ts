import { canonicalJson, sha256Hex } from '../domain/content-hash';
import { logger } from '../observability/logger';
import { HttpError } from './problem';
import type { RouteRequest, RouteResult } from './types';
import type { IdempotencyStore } from '../ports';

// The store is a port (shared/ports.ts); its types are re-exported for the routes that use it.
export type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../ports';

export interface IdempotencyOptions {
  /** How long a repeat waits for the first request to finish before answering 409. */
  waitMs: number;
  pollMs: number;
}

const DEFAULTS: IdempotencyOptions = { waitMs: 10_000, pollMs: 100 };

export const REPLAY_HEADER = 'Idempotent-Replayed';

/** The request as the key must see it again: route, path parameters and parsed body. */
export function requestFingerprint(request: RouteRequest): string {
  return sha256Hex(canonicalJson({ route: request.route.id, params: request.params, body: request.body ?? rawBodyFingerprint(request) }));
}

/**
 * Bodies the pipeline does not parse (multipart uploads) count by their bytes, without the
 * multipart boundary, which clients pick at random for every send of the same form.
 */
function rawBodyFingerprint(request: RouteRequest): string | null {
  if (request.rawBody.length === 0) return null;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  const raw = request.rawBody.toString('latin1');
  return sha256Hex(boundary ? raw.split(boundary[1] ?? boundary[2]!).join('') : raw);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `operation` at most once per account and `Idempotency-Key`: a repeat with the same request
 * gets the stored response (with `Idempotent-Replayed: true`), a repeat with another request 422
 * `idempotency_key_reused`; a repeat arriving while the first is still running waits for its
 * response, then answers 409 if it is still not there. Only successful responses are stored: after
 * an error the key is released and the same request may be retried. Without the header the
 * operation simply runs.
 */
export async function withIdempotency(
  request: RouteRequest,
  store: IdempotencyStore,
  operation: () => Promise<RouteResult>,
  options: IdempotencyOptions = DEFAULTS,
): Promise<RouteResult> {
  const key = request.headers['idempotency-key'];
  const accountId = request.account?.accountId;
  if (!key || !accountId) return operation();
  const requestHash = requestFingerprint(request);
  const deadline = Date.now() + options.waitMs;

  for (;;) {
    if (await store.claim(accountId, key, requestHash, new Date())) {
      let result: RouteResult;
      try {
        result = await operation();
      } catch (error) {
        await store.release(accountId, key, requestHash).catch((releaseError: unknown) => {
          // The claim's lease frees the key later; the client sees the operation's own error.
          logger.warn('Idempotency key not released', { error: releaseError as Error });
        });
        throw error;
      }
      await store.complete(accountId, key, requestHash, { status: result.status, body: result.body, headers: result.headers }, new Date()).catch((error: unknown) => {
        // The work is done and its answer is in hand: failing to keep it for replays (an answer
        // past the store's item size, a store that stopped answering) must not turn it into an
        // error. The claim's lease frees the key later, and a repeat after that runs again.
        logger.error('Idempotent response not stored', { error: error as Error });
      });
      return result;
    }
    const record = await store.find(accountId, key, new Date());
    if (record && record.requestHash !== requestHash) {
      throw new HttpError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request.');
    }
    if (record?.state === 'completed' && record.response) {
      const { status, body, headers } = record.response;
      return { status, body, headers: { ...headers, [REPLAY_HEADER]: 'true' } };
    }
    if (Date.now() >= deadline) {
      throw new HttpError('conflict', 'A request with this Idempotency-Key is still being processed; retry in a few seconds.');
    }
    await sleep(options.pollMs);
  }
}
