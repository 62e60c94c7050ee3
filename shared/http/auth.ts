import type { AccountContext, AccountStore } from '../ports';
import { hashApiKey, looksLikeApiKey } from '../domain/api-keys';
import { logger } from '../observability/logger';

export type AuthOutcome =
  | { ok: true; account: AccountContext }
  | { ok: false; code: 'missing_api_key' | 'invalid_api_key' };

/**
 * The one authentication step, run by the API Gateway Lambda authorizer in AWS and by the local
 * gateway on loopback. The raw key is hashed and compared by lookup; it is never logged or stored.
 */
export async function authenticateApiKey(store: AccountStore, headerValue: string | undefined): Promise<AuthOutcome> {
  const rawKey = headerValue?.trim();
  if (!rawKey) return { ok: false, code: 'missing_api_key' };
  if (!looksLikeApiKey(rawKey)) return { ok: false, code: 'invalid_api_key' };
  const account = await store.findByKeyHash(hashApiKey(rawKey));
  if (!account) return { ok: false, code: 'invalid_api_key' };
  // Bookkeeping for the key list: a failure here must not refuse a valid key.
  await store.recordKeyUse?.(account.keyHash, new Date()).catch((error: unknown) => logger.warn('Key use not recorded', { error: error as Error }));
  return { ok: true, account };
}

/** What the authorizer hands to the function (API Gateway stringifies context values). */
export function authorizerContext(account: AccountContext): Record<string, string> {
  return { accountId: account.accountId, tier: account.tier, keyHash: account.keyHash };
}
