import { Readable } from 'node:stream';
import { AssetFileError } from '../file-error';

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
/** An archive of no entry is its end record alone. */
const EMPTY_ZIP_SIGNATURE = [0x50, 0x4b, 0x05, 0x06];

const startsWith = (head: Uint8Array, signature: number[]) => signature.every((byte, i) => head[i] === byte);

export function isZip(head: Uint8Array): boolean {
  return startsWith(head, ZIP_SIGNATURE);
}

export function isEmptyZip(head: Uint8Array): boolean {
  return startsWith(head, EMPTY_ZIP_SIGNATURE);
}

export interface CheckedStream {
  stream: Readable;
  /** The first bytes, as checked. */
  head: Buffer;
  /** An error of the source stream: the parser then only sees the input end early. */
  sourceError(): unknown;
}

/**
 * Checks the first bytes of a stream before any parser sees it, so a file that is not what its
 * name claims fails at once with a clear error (an empty stream, for one, makes the exceljs reader
 * wait forever). The stream handed on never emits 'error' — exceljs does not listen for it — a
 * failing source just ends it, and `sourceError()` tells why. `wrap` sees the bytes on their way
 * (a budget, a watchdog) and may fail the source.
 */
export async function checkedStart(
  input: Readable,
  check: (head: Buffer) => AssetFileError | undefined,
  wrap: (chunks: AsyncIterable<Buffer>) => AsyncIterable<Buffer> = (chunks) => chunks,
): Promise<CheckedStream> {
  const chunks = wrap(input)[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done || (first.value as Buffer).length === 0) {
    input.destroy();
    throw new AssetFileError('empty_file', 'The file is empty.');
  }
  const head = first.value as Buffer;
  const problem = check(head);
  if (problem) {
    input.destroy();
    throw problem;
  }
  let failure: unknown;
  async function* rest(): AsyncGenerator<Buffer> {
    yield head;
    try {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
    } catch (error) {
      failure = error;
    }
  }
  return { stream: Readable.from(rest(), { objectMode: false }), head, sourceError: () => failure };
}

/** Reads a whole stream, refusing more than `maxBytes` (GeoJSON and zipped Shapefiles are parsed in memory). */
export async function readAll(input: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      input.destroy();
      throw new AssetFileError('file_too_large', `The file is larger than ${maxBytes} bytes, the limit for this format.`, { max_bytes: maxBytes });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
