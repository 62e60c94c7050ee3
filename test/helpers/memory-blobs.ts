import type { BlobStore } from '../../shared/ports';

/** A bucket in memory; `failAfter` puts make the next one fail (a write interrupted half-way). */
export class MemoryBlobs implements BlobStore {
  readonly objects = new Map<string, Buffer>();
  gets: string[] = [];
  constructor(private failAfter = Infinity) {}
  async put(key: string, body: Buffer | string) {
    if (this.failAfter-- <= 0) throw new Error('S3 is unreachable');
    this.objects.set(key, Buffer.from(body));
  }
  async get(key: string) { this.gets.push(key); return this.objects.get(key); }
  async exists(key: string) { return this.objects.has(key); }
  async delete(key: string) { this.objects.delete(key); }
  async signedGetUrl() { return ''; }
  async signedPutUrl() { return ''; }
}
