/**
 * A bounded map that forgets its least recently used entry first: the one cache behind the open
 * elevation models, the tiles of a model and the verified bearer tokens. A Map keeps insertion
 * order, so moving an entry to the end on use makes the first key the least recently used.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`An LRU cache holds at least one entry (got ${capacity}).`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Stores the value as the most recently used, dropping the least recently used beyond capacity. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /**
   * The value for the key, made by `make` when absent. A promise that rejects is forgotten, so the
   * next caller tries again instead of receiving the same failure until it is evicted.
   */
  getOrCreate(key: K, make: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined || this.entries.has(key)) return hit as V;
    const value = make();
    this.set(key, value);
    if (value instanceof Promise) value.catch(() => this.entries.get(key) === value && this.entries.delete(key));
    return value;
  }
}

export interface ExpiringReadsOptions {
  /** How long an answer is reused: the longest a change in the source goes unseen. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * A read by key whose answers are reused for `ttlMs`, at most `maxEntries` of them: concurrent
 * callers of one key share one read, and a failed read is not remembered. `forget` drops one key
 * at once (a change this process made itself).
 */
export function expiringReads<V>(read: (key: string) => Promise<V>, options: ExpiringReadsOptions): { read: (key: string) => Promise<V>; forget: (key: string) => void } {
  const now = options.now ?? Date.now;
  const answers = new LruCache<string, { value: Promise<V>; expiresAt: number }>(options.maxEntries);
  return {
    read: (key) => {
      const hit = answers.get(key);
      if (hit && hit.expiresAt > now()) return hit.value;
      const entry = { value: read(key), expiresAt: now() + options.ttlMs };
      answers.set(key, entry);
      entry.value.catch(() => answers.get(key) === entry && answers.delete(key));
      return entry.value;
    },
    forget: (key) => answers.delete(key),
  };
}
