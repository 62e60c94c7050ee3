import { createInflateRaw, type InflateRaw } from 'node:zlib';
import type { AsyncFlateStreamHandler, UnzipFile } from 'fflate';
import { fflate } from '../../../fflate';
import { AssetFileError, type FileErrorCode } from '../file-error';

/**
 * Streaming ZIP inflation under a byte budget. Uploaded archives are untrusted: their headers may
 * understate what an entry inflates to (a zip bomb declares 100 bytes and holds 2 GiB). Entries
 * are inflated here by zlib off the event loop (fflate only reads the archive's structure), a slice
 * of input at a time, and inflation stops as soon as an entry passes its declared size or the
 * archive passes its budget — never after the fact, and never in one synchronous run.
 */
export interface ZipBudget {
  /** Inflated bytes allowed for the whole archive. */
  totalBytes: number;
  /** Inflated bytes allowed for one entry (for entries that are kept in memory). */
  entryBytes?: (name: string) => number | undefined;
  /** The code of a damaged archive (a workbook is `malformed_xlsx`); `malformed_zip` by default. */
  damaged?: FileErrorCode;
}

/** Compressed input handed to zlib at a time; its output is checked chunk by chunk (64 KB at most) as it comes. */
const SLICE_BYTES = 64 * 1024;

/**
 * fflate's decoder interface over Node's zlib: inflation runs in the thread pool, and the tracker
 * counts the writes zlib has not yet inflated.
 */
function zlibDecoders(tracker: { pending: number; settled(): void }) {
  return class ZlibInflate {
    static compression = 8;
    ondata: AsyncFlateStreamHandler = () => undefined;
    private readonly zlib: InflateRaw = createInflateRaw({ chunkSize: 64 * 1024 });
    private stopped = false;
    constructor() {
      this.zlib.on('data', (data: Buffer) => this.ondata(null, data as Uint8Array<ArrayBuffer>, false));
      this.zlib.on('end', () => this.ondata(null, new Uint8Array(0), true));
      this.zlib.on('error', (error: Error) => {
        this.ondata(Object.assign(error, { code: 0 }), new Uint8Array(0), true);
        this.stop();
      });
    }

    push(chunk: Uint8Array, final: boolean): void {
      if (this.stopped) return;
      tracker.pending++;
      this.zlib.write(chunk, () => tracker.settled());
      if (final) this.zlib.end();
    }

    terminate(): void {
      this.stop();
    }

    private stop(): void {
      if (this.stopped) return;
      this.stopped = true;
      this.zlib.destroy();
    }
  };
}

export interface ZipInflater {
  /** Feeds the next bytes of the archive; rejects with the AssetFileError once a budget is passed. */
  push(chunk: Uint8Array): Promise<void>;
  /** The end of the archive. */
  end(): Promise<void>;
  /** Inflated bytes so far. */
  readonly inflatedBytes: number;
  /** The entries met so far, in the order of the archive (zlib may finish them in another order). */
  readonly entryNames: readonly string[];
}

const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;

/** An inflater that counts every entry's inflated bytes and hands them to `onData` while within budget. */
export function budgetedInflater(budget: ZipBudget, onData?: (name: string, data: Uint8Array) => void): ZipInflater {
  const damaged = budget.damaged ?? 'malformed_zip';
  let inflated = 0;
  const entryNames: string[] = [];
  let failure: unknown;
  let wake: (() => void) | undefined;
  const tracker = {
    pending: 0,
    settled() {
      this.pending--;
      if (this.pending === 0) wake?.();
    },
  };
  // Entries met but not yet ended: a deflated entry ends on zlib's `end` event, after its last write.
  let unfinished = 0;
  const fail = (error: unknown) => {
    failure ??= error;
    wake?.();
  };
  const unzip = new (fflate().Unzip)((file: UnzipFile) => {
    entryNames.push(file.name);
    unfinished++;
    const declared = file.originalSize;
    const entryLimit = budget.entryBytes?.(file.name);
    let entryBytes = 0;
    file.ondata = (error, data, final) => {
      if (final && --unfinished === 0) wake?.();
      if (failure) return;
      if (error) {
        fail(new AssetFileError(damaged, `The ZIP archive is damaged (${file.name}): ${error.message}`));
        return;
      }
      entryBytes += data.length;
      inflated += data.length;
      // An entry with a declared size (no data descriptor) may not inflate past it.
      if (declared !== undefined && entryBytes > declared) {
        fail(new AssetFileError(damaged, `${file.name} inflates past the size its header declares (${declared} bytes): the archive is damaged or crafted.`));
      } else if (entryLimit !== undefined && entryBytes > entryLimit) {
        fail(new AssetFileError('file_too_large', `${file.name} unpacks to more than ${mib(entryLimit)}, the limit for this part of the file.`, { max_unpacked_bytes: entryLimit }));
      } else if (inflated > budget.totalBytes) {
        fail(new AssetFileError('file_too_large', `The archive unpacks to more than ${mib(budget.totalBytes)}, the limit for this format.`, { max_unpacked_bytes: budget.totalBytes }));
      } else {
        onData?.(file.name, data);
      }
      if (failure) file.terminate();
    };
    file.start();
  });
  unzip.register(zlibDecoders(tracker));
  unzip.register(fflate().UnzipPassThrough);

  const feed = async (chunk: Uint8Array, final: boolean) => {
    for (let offset = 0; offset < chunk.length || (final && offset === 0); offset += SLICE_BYTES) {
      const slice = chunk.subarray(offset, offset + SLICE_BYTES);
      try {
        unzip.push(slice, final && offset + SLICE_BYTES >= chunk.length);
      } catch (error) {
        fail(error instanceof AssetFileError ? error : new AssetFileError(damaged, `The ZIP archive is damaged: ${(error as Error).message}`));
      }
      // Wait for zlib to inflate what it was given: the budget is checked on its output as it comes.
      // At the end of the archive, wait as well for every entry to end.
      while (!failure && (tracker.pending > 0 || (final && unfinished > 0))) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
    }
  };
  return {
    push: (chunk) => feed(chunk, false),
    end: () => feed(new Uint8Array(0), true),
    get inflatedBytes() {
      return inflated;
    },
    entryNames,
  };
}

/**
 * Inflates the entries `wanted` selects, in memory, under the budget; `files` names every file of the
 * archive (folder entries aside). Both follow the archive's order, so a message listing them reads
 * the same every time.
 */
export async function unzipBudgeted(buffer: Uint8Array, budget: ZipBudget, wanted: (name: string) => boolean): Promise<{ entries: Record<string, Uint8Array>; files: string[] }> {
  const parts = new Map<string, Uint8Array[]>();
  const inflater = budgetedInflater(budget, (name, data) => {
    if (!wanted(name)) return;
    let list = parts.get(name);
    if (!list) parts.set(name, (list = []));
    list.push(data);
  });
  await inflater.push(buffer);
  await inflater.end();
  const files = [...new Set(inflater.entryNames)].filter((name) => !name.endsWith('/'));
  const kept = files.filter((name) => parts.has(name));
  return { entries: Object.fromEntries(kept.map((name) => [name, Buffer.concat(parts.get(name)!)])), files };
}

/**
 * Passes an archive's bytes through unchanged while inflating them on the side under the budget:
 * a reader that inflates for itself (exceljs) sees no byte past the one where a budget is passed.
 */
export async function* budgetedPassThrough(source: AsyncIterable<Uint8Array>, budget: ZipBudget): AsyncGenerator<Buffer> {
  const inflater = budgetedInflater(budget);
  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    await inflater.push(bytes);
    yield bytes;
  }
  await inflater.end();
}
