import { createHash, randomBytes } from 'node:crypto';

/** Keys are shown once and stored only as this hash. */
export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

/** `vac_` + 32 url-safe random characters (192 bits). */
export function newApiKey(): string {
  return `vac_${randomBytes(24).toString('base64url')}`;
}

/** Shape check before any lookup, so junk never reaches the database. */
export function looksLikeApiKey(value: string): boolean {
  return /^vac_[A-Za-z0-9_-]{32}$/.test(value);
}
