import { expiringReads, LruCache } from '../../shared/lru-cache';

describe('LruCache', () => {
  it('drops the least recently used entry beyond its capacity', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    expect(cache.size).toBe(2);
  });

  it('counts a read as a use: the entry read last survives the next insertion', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
  });

  it('replaces a value in place without growing, and makes it the most recent', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBe(10);
    expect(cache.get('b')).toBeUndefined();
  });

  it('makes a value once per key while it stays, and again after eviction', () => {
    const cache = new LruCache<string, { n: number }>(1);
    let made = 0;
    const make = () => ({ n: ++made });
    const first = cache.getOrCreate('a', make);
    expect(cache.getOrCreate('a', make)).toBe(first);
    cache.getOrCreate('b', make);
    expect(cache.getOrCreate('a', make)).toEqual({ n: 3 });
  });

  it('keeps a stored undefined as a hit rather than making it again', () => {
    const cache = new LruCache<string, undefined>(2);
    let made = 0;
    cache.getOrCreate('a', () => { made++; return undefined; });
    cache.getOrCreate('a', () => { made++; return undefined; });
    expect(made).toBe(1);
  });

  it('forgets a rejected promise so that the next caller tries again', async () => {
    const cache = new LruCache<string, Promise<number>>(4);
    const failing = cache.getOrCreate('a', () => Promise.reject(new Error('unreadable')));
    await expect(failing).rejects.toThrow('unreadable');
    expect(cache.size).toBe(0);
    await expect(cache.getOrCreate('a', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('does not forget a newer value when an older rejected promise settles', async () => {
    const cache = new LruCache<string, Promise<number>>(4);
    let reject!: (error: Error) => void;
    const old = cache.getOrCreate('a', () => new Promise<number>((_, r) => { reject = r; }));
    const fresh = Promise.resolve(8);
    cache.set('a', fresh);
    reject(new Error('late'));
    await expect(old).rejects.toThrow('late');
    expect(cache.get('a')).toBe(fresh);
  });

  it('deletes and clears', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a capacity below one', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
    expect(() => new LruCache(1.5)).toThrow(RangeError);
  });
});

describe('expiringReads', () => {
  it('shares one read among concurrent callers and reads again once the answer is older than its ttl', async () => {
    let clock = 0;
    let reads = 0;
    const cached = expiringReads(async (key) => `${key}#${++reads}`, { ttlMs: 1000, maxEntries: 4, now: () => clock });
    expect(await Promise.all([cached.read('a'), cached.read('a')])).toEqual(['a#1', 'a#1']);
    clock = 999;
    expect(await cached.read('a')).toBe('a#1');
    clock = 1000;
    expect(await cached.read('a')).toBe('a#2');
  });

  it('reads again at once after forget', async () => {
    let reads = 0;
    const cached = expiringReads(async () => ++reads, { ttlMs: 60_000, maxEntries: 4 });
    await cached.read('a');
    cached.forget('a');
    expect(await cached.read('a')).toBe(2);
  });
});
