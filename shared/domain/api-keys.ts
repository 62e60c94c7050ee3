import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Account, AccountStore } from '../ports';
import type { Tier } from './tiers';

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

/** A new account with its first key; the key is returned once, only its hash is stored. */
export async function openAccountWithKey(accounts: AccountStore, name: string, tier: Tier, now: Date): Promise<{ account: Account; key: string }> {
  const key = newApiKey();
  const account: Account = { account_id: `acct_${randomUUID()}`, name, tier, created_at: now.toISOString() };
  await accounts.createAccount(account, hashApiKey(key));
  return { account, key };
}
