import type { Tier } from './routes/types';

/** Secondary ports: the domain and the HTTP pipeline depend on these, adapters implement them. */

export interface AccountContext {
  accountId: string;
  tier: Tier;
  /** sha256 of the API key; rate limits count per key. Never the key itself. */
  keyHash: string;
}

export interface Account {
  account_id: string;
  name: string;
  tier: Tier;
  created_at: string;
}

export interface AccountStore {
  findByKeyHash(keyHash: string): Promise<AccountContext | undefined>;
  createAccount(account: Account, keyHash: string): Promise<void>;
  getAccount(accountId: string): Promise<Account | undefined>;
  /** Every account, by query on an index (used by the daily reminder). */
  listAccounts(): Promise<Account[]>;
}

export interface UsageCount {
  used: number;
  allowed: boolean;
}

export interface UsageCounter {
  /** Atomically count one request in the window unless the limit is reached. */
  consume(keyHash: string, windowId: string, limit: number | null, expiresAt: Date): Promise<UsageCount>;
}
