import type { BaseClient, BaseResponse, GeoTIFF } from 'geotiff';
import type { RangedBlobStore } from '../../ports';

/** A file read by byte ranges: its size, and bytes `start` to `end` (inclusive). */
export interface RangedFile {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
  /**
   * The last read that failed where the file is stored, if any: geotiff reports a failed read as a
   * bare "Request failed", which would otherwise pass for a corrupt file.
   */
  readFailure?(): Error | undefined;
}

/** An upload in the bucket, as the worker finds it. */
export interface StoredUpload {
  key: string;
  size: number;
}

/** An object in a bucket as a ranged file (an upload read where it is, never whole), its failed reads kept. */
export function storedFile(blobs: Pick<RangedBlobStore, 'readRange'>, key: string, size: number): RangedFile {
  let failure: Error | undefined;
  return {
    size,
    async read(start, end) {
      try {
        const bytes = await blobs.readRange(key, start, end);
        if (!bytes) throw new Error('the object is no longer in the bucket');
        return bytes;
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        throw failure;
      }
    },
    readFailure: () => failure,
  };
}

/**
 * Ranges are read in blocks of this size, neighbouring blocks in one read, and the last blocks
 * kept (32 MiB): a window's strips or tiles are one contiguous read in a file written by rows.
 */
const BLOCK_BYTES = 256 * 1024;
const CACHED_BLOCKS = 128;

/** A range response in the shape geotiff reads (its typings declare `status` as void and `getData` as sync). */
class RangeResponse {
  constructor(readonly status: number, private readonly header: (name: string) => string | undefined, private readonly data: ArrayBuffer) {}
  get ok() { return this.status >= 200 && this.status <= 299; }
  getHeader(name: string) { return this.header(name.toLowerCase()) ?? ''; }
  async getData() { return this.data; }
}

/**
 * A range read whose failure is reported one timer tick late. geotiff's block source lets a read
 * started for one caller serve the blocks other callers asked for meanwhile; those callers pick
 * up the shared read only when their own zero-delay timer fires, so a read failing before that
 * (an object gone, a refused connection) rejects with no handler and ends the process. Timers of
 * one delay fire in order, so by this one every such caller holds the read.
 */
export async function failingLate<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve));
    throw error;
  }
}

/** What a geotiff client answers: `status`, the headers by lower-case name, the bytes. */
export function rangeResponse(status: number, header: (name: string) => string | undefined, data: ArrayBuffer): BaseResponse {
  return new RangeResponse(status, header, data) as unknown as BaseResponse;
}

const contentRange = (range: string) => (name: string) => (name === 'content-range' ? range : undefined);

/** geotiff's client contract over a ranged file: single ranges only, clipped at the file's end. */
function rangedClientClass(Base: typeof BaseClient) {
  return class RangedFileClient extends Base {
    constructor(private readonly file: RangedFile) {
      super('ranged-file');
    }

    override async request({ headers }: { headers?: Record<string, string> } = {}): Promise<BaseResponse> {
      const range = /^bytes=(\d+)-(\d+)$/.exec(headers?.Range ?? headers?.range ?? '');
      if (!range) throw new Error('A ranged file is read by single byte ranges only.');
      const { size } = this.file;
      const start = Number(range[1]);
      if (start >= size) return rangeResponse(416, contentRange(`bytes */${size}`), new ArrayBuffer(0));
      const bytes = await failingLate(() => this.file.read(start, Math.min(Number(range[2]), size - 1)));
      const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      return rangeResponse(206, contentRange(`bytes ${start}-${start + bytes.byteLength - 1}/${size}`), data);
    }
  };
}

let RangedFileClient: ReturnType<typeof rangedClientClass> | undefined;

/** Opens a GeoTIFF read by ranges (geotiff is loaded with the first one). */
export async function openRangedTiff(file: RangedFile): Promise<GeoTIFF> {
  const { BaseClient: Base, fromCustomClient } = await import('geotiff');
  RangedFileClient ??= rangedClientClass(Base);
  // geotiff passes the block options on to its source although the typings of fromCustomClient omit them.
  const options = { allowFullFile: false, blockSize: BLOCK_BYTES, cacheSize: CACHED_BLOCKS };
  return fromCustomClient(new RangedFileClient(file), options);
}
