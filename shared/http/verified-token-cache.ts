import { createHash } from 'node:crypto';
import { LruCache } from '../lru-cache';
import type { AccessTokenVerifier } from './bearer-tokens';

export interface VerifiedTokenCacheOptions {
  /** Tokens remembered at most; the least recently used one is dropped first. */
  maxEntries: number;
  /** How long a refused token is answered from memory: a few seconds, so a retry loop costs nothing but a fixed clock skew heals. */
  failureTtlMs: number;
  now?: () => number;
}

type Remembered =
  | { ok: true; verified: Awaited<ReturnType<AccessTokenVerifier>>; expiresAt: number }
  | { ok: false; error: unknown; expiresAt: number };

/**
 * Remembers what a verifier said about each token, so a client sending the same access token on
 * every request pays the signature check once per token. Keyed by the token's SHA-256 (the token
 * itself is never kept); a verified token is remembered until its own `exp` and no longer, a
 * refused one for `failureTtlMs` at most. A verified token without a session (no `exp` known to
 * this layer) is not remembered.
 */
export function cachedAccessTokenVerifier(verify: AccessTokenVerifier, options: VerifiedTokenCacheOptions): AccessTokenVerifier {
  const now = options.now ?? Date.now;
  const entries = new LruCache<string, Remembered>(options.maxEntries);
  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = entries.get(key);
    if (hit && hit.expiresAt > now()) {
      if (hit.ok) return hit.verified;
      throw hit.error;
    }
    if (hit) entries.delete(key);
    let verified: Awaited<ReturnType<AccessTokenVerifier>>;
    try {
      verified = await verify(token);
    } catch (error) {
      entries.set(key, { ok: false, error, expiresAt: now() + options.failureTtlMs });
      throw error;
    }
    if (verified.session) entries.set(key, { ok: true, verified, expiresAt: verified.session.expires_at * 1000 });
    return verified;
  };
}
