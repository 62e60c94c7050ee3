import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AccountStore, AccountUsageKeys, AccountWithUsageKey } from '../ports';
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

/**
 * The value of an account's own API Gateway key (20 to 128 characters there): 192 random bits,
 * never a customer credential.
 */
export function newUsageKey(): string {
  return `vacu_${randomBytes(24).toString('base64url')}`;
}

/**
 * A new account with its first key; the key is returned once, only its hash is stored. The
 * account's usage key is attached to its tier's plan first, so no stored key ever names a usage
 * identifier the gateway does not know (which it would refuse). `usageKeys` is absent where no
 * API Gateway stands in front (local mode: the local gateway keeps a bucket per usage key itself).
 */
export async function openAccountWithKey(
  accounts: AccountStore, name: string, tier: Tier, now: Date, usageKeys?: AccountUsageKeys,
): Promise<{ account: AccountWithUsageKey; key: string }> {
  const key = newApiKey();
  const account: AccountWithUsageKey = { account_id: `acct_${randomUUID()}`, name, tier, created_at: now.toISOString(), usage_key: newUsageKey() };
  await usageKeys?.attach(account);
  await accounts.createAccount(account, hashApiKey(key));
  return { account, key };
}

/** Moves an account to another tier: its stored tier (and each key's copy), then its usage key to the new tier's plan. */
export async function changeTier(accounts: AccountStore & { setTier(accountId: string, tier: Tier): Promise<boolean> }, accountId: string, tier: Tier, usageKeys?: AccountUsageKeys): Promise<boolean> {
  const before = await accounts.getAccount(accountId);
  if (!before || !(await accounts.setTier(accountId, tier))) return false;
  if (before.usage_key && before.tier !== tier) await usageKeys?.move({ ...before, usage_key: before.usage_key, tier }, before.tier);
  return true;
}
