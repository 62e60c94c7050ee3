import type { RangedBlobStore } from '../../shared/ports';

/** A bucket in memory; `failAfter` puts make the next one fail (a write interrupted half-way). */
export class MemoryBlobs implements RangedBlobStore {
  readonly objects = new Map<string, Buffer>();
  gets: string[] = [];
  /** Every range read, in order. */
  ranges: { key: string; start: number; end: number }[] = [];
  constructor(private failAfter = Infinity) {}
  async put(key: string, body: Buffer | string) {
    if (this.failAfter-- <= 0) throw new Error('S3 is unreachable');
    this.objects.set(key, Buffer.from(body));
  }
  async get(key: string) { this.gets.push(key); return this.objects.get(key); }
  async exists(key: string) { return this.objects.has(key); }
  async size(key: string) { return this.objects.get(key)?.byteLength; }
  async readRange(key: string, start: number, end: number) {
    this.ranges.push({ key, start, end });
    return this.objects.get(key)?.subarray(start, end + 1);
  }
  async delete(key: string) { this.objects.delete(key); }
  async deleteMany(keys: readonly string[]) { for (const key of keys) this.objects.delete(key); }
  async signedGetUrl() { return ''; }
  async signedPutUrl() { return ''; }
}
