import type { Tier } from './domain/tiers';
import type { HourWindow } from './domain/tiers';

/** Secondary ports: the domain and the HTTP pipeline depend on these, adapters implement them. */

export interface AccountContext {
  accountId: string;
  tier: Tier;
  /** sha256 of the API key; rate limits count per key. Never the key itself. */
  keyHash: string;
  /** The account's own usage identifier (see `Account.usage_key`); absent for keys issued before accounts had one. */
  usageKey?: string;
}

export interface Account {
  account_id: string;
  name: string;
  tier: Tier;
  created_at: string;
  /**
   * The value of the account's own API Gateway key, in its tier's usage plan: the authorizers name
   * it as the request's usage identifier, so the plan's throttle applies to this customer alone.
   * Never accepted from a client (the API's key source is the authorizer). Absent for accounts
   * opened before accounts had one, until their next key is issued.
   */
  usage_key?: string;
}

/** An account that has its usage identifier. */
export type AccountWithUsageKey = Account & { usage_key: string };

/**
 * Each account's own key in the API's usage plans. Both calls are idempotent: a retry after a
 * partial failure finishes the work instead of creating a second key.
 */
export interface AccountUsageKeys {
  /** Creates the account's key (value `usage_key`) unless it exists, and attaches it to its tier's plan. */
  attach(account: AccountWithUsageKey): Promise<void>;
  /** Moves the account's key from the plan of the tier `from` to the plan of its tier now. */
  move(account: AccountWithUsageKey, from: Tier): Promise<void>;
}

export interface AccountStore {
  findByKeyHash(keyHash: string): Promise<AccountContext | undefined>;
  /** Stamps a key's `last_used_at` (at most once a minute); stores that do not track use leave it out. */
  recordKeyUse?(keyHash: string, at: Date): Promise<void>;
  createAccount(account: Account, keyHash: string): Promise<void>;
  getAccount(accountId: string): Promise<Account | undefined>;
  /** Every account, by query on an index (used by the daily reminder). */
  listAccounts(): Promise<Account[]>;
  /** Revokes a key; false when no such key exists. */
  revokeKey(keyHash: string, at: Date): Promise<boolean>;
}

export interface UsageCount {
  used: number;
  allowed: boolean;
}

export interface UsageCounter {
  /** Counts one request in the key's hourly window unless its limit (`null`: unlimited) is spent. */
  consume(keyHash: string, window: HourWindow, limit: number | null): Promise<UsageCount>;
  /** Requests counted in the window so far, without counting one. */
  used(keyHash: string, window: HourWindow, limit: number | null): Promise<number>;
}

export interface BlobStore {
  put(key: string, body: Buffer | string, contentType: string): Promise<void>;
  /** undefined when the object does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every key (missing ones included), in order, as few requests as the store allows (a model's tiles are thousands). */
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Short-lived signed GET URL. */
  signedGetUrl(key: string, expiresInSeconds: number, downloadName?: string): Promise<string>;
  /** Short-lived signed PUT URL for direct uploads. */
  signedPutUrl(key: string, expiresInSeconds: number, contentType?: string): Promise<string>;
}

/** A bucket whose objects can also be read by byte ranges: a large upload is never read whole. */
export interface RangedBlobStore extends BlobStore {
  /** The object's size in bytes; undefined when it does not exist. */
  size(key: string): Promise<number | undefined>;
  /** Bytes `start` to `end` (inclusive) of the object, fewer at its end; undefined when it does not exist. */
  readRange(key: string, start: number, end: number): Promise<Uint8Array | undefined>;
}

/** The event envelope on the queue, as webhooks deliver it (`{type, timestamp, data}`) plus routing. */
export interface QueuedEvent {
  event_id: string;
  account_id: string;
  type: 'assessment_complete' | 'deadline_reminder' | 'webhook_test';
  timestamp: string;
  data: Record<string, unknown>;
}

export interface EventQueue {
  send(event: QueuedEvent, delaySeconds?: number): Promise<void>;
}

/** The response of a completed request, replayed for repeats of it. */
export interface StoredResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
}

/** Records keyed by account + `Idempotency-Key`; expired records are treated as absent. */
export interface IdempotencyStore {
  /**
   * Claims the key with an `in_progress` record (one conditional write: the first writer wins).
   * Also succeeds over an expired record or an abandoned one whose lease ran out.
   */
  claim(accountId: string, key: string, requestHash: string, now: Date): Promise<boolean>;
  find(accountId: string, key: string, now: Date): Promise<IdempotencyRecord | undefined>;
  complete(accountId: string, key: string, requestHash: string, response: StoredResponse, now: Date): Promise<void>;
  /** Drops the claim after a failed attempt, so the client can retry with the same key. */
  release(accountId: string, key: string, requestHash: string): Promise<void>;
}
