import { Readable } from 'node:stream';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { checkedStart, isZip, readAll } from '../../shared/domain/assets/formats/sniff';
import { fileErrorParts } from '../helpers/asset-file-error';

const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)), { objectMode: false });

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += (chunk as Buffer).toString();
  return out;
}

/** A source that gives `parts` and then fails. */
function failingAfter(error: Error, ...parts: string[]): Readable {
  return Readable.from((async function* () {
    for (const p of parts) yield Buffer.from(p);
    throw error;
  })(), { objectMode: false });
}

describe('ZIP signature', () => {
  it.each([
    [[0x50, 0x4b, 0x03, 0x04], true],
    [[0x50, 0x4b, 0x03, 0x04, 0x14, 0x00], true],
    [[0x50, 0x4b, 0x05, 0x06], false], // an empty archive's end record, not a local file header
    [[0x50, 0x4b, 0x03], false],
    [[0x4b, 0x50, 0x03, 0x04], false],
    [[0x51, 0x4b, 0x03, 0x04], false],
    [[0x50, 0x4b, 0x03, 0x05], false],
    [[], false],
  ])('%j → %s', (bytes, zip) => {
    expect(isZip(Uint8Array.from(bytes))).toBe(zip);
  });
});

describe('checked start of a stream', () => {
  it('hands on every byte in order, the first chunk as the head', async () => {
    const seen: string[] = [];
    const checked = await checkedStart(chunks('name,lat\n', 'a,1\n', 'b,2\n'), (head) => {
      seen.push(head.toString());
      return undefined;
    });
    expect(seen).toEqual(['name,lat\n']);
    expect(checked.head.toString()).toBe('name,lat\n');
    expect(await text(checked.stream)).toBe('name,lat\na,1\nb,2\n');
    expect(checked.sourceError()).toBeUndefined();
  });

  it('refuses an empty stream at once and closes it', async () => {
    const input = chunks();
    expect(fileErrorParts(await checkedStart(input, () => undefined).catch((e: unknown) => e))).toEqual({ code: 'empty_file', message: 'The file is empty.', extra: {} });
    expect(input.destroyed).toBe(true);
  });

  it('throws what the check finds and closes the input', async () => {
    const input = chunks('PK\u0003\u0004rest', 'more');
    const problem = new AssetFileError('malformed_csv', 'a ZIP archive');
    await expect(checkedStart(input, () => problem)).rejects.toBe(problem);
    expect(input.destroyed).toBe(true);
  });

  it('ends the stream early on a source error, without an error event, and says why', async () => {
    const broken = new Error('connection reset');
    const checked = await checkedStart(failingAfter(broken, 'a\n', 'b\n'), () => undefined);
    const errors: unknown[] = [];
    checked.stream.on('error', (error) => errors.push(error));
    expect(await text(checked.stream)).toBe('a\nb\n');
    expect(errors).toEqual([]);
    expect(checked.sourceError()).toBe(broken);
  });

  it('lets a wrapper see and change the bytes before the check and the reader', async () => {
    const wrap = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of source) yield Buffer.from(chunk.toString().toUpperCase());
    };
    const checked = await checkedStart(chunks('abc', 'def'), (head) => (head.toString() === 'ABC' ? undefined : new AssetFileError('malformed_csv', 'not wrapped')), wrap);
    expect(await text(checked.stream)).toBe('ABCDEF');
  });

  it('a wrapper that fails the source after the head ends the stream and is the source error', async () => {
    const over = new AssetFileError('file_too_large', 'over budget');
    const wrap = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      let n = 0;
      for await (const chunk of source) {
        if (++n > 2) throw over;
        yield chunk;
      }
    };
    // An object-mode source keeps the four chunks apart.
    const checked = await checkedStart(Readable.from(['1', '2', '3', '4'].map((p) => Buffer.from(p))), () => undefined, wrap);
    expect(await text(checked.stream)).toBe('12');
    expect(checked.sourceError()).toBe(over);
  });
});

describe('reading a whole stream under a limit', () => {
  it('reads exactly the limit', async () => {
    expect((await readAll(chunks('12345', '67890'), 10)).toString()).toBe('1234567890');
  });

  it('refuses one byte more and closes the input', async () => {
    const input = chunks('12345', '678901');
    expect(fileErrorParts(await readAll(input, 10).catch((e: unknown) => e))).toEqual({ code: 'file_too_large', message: 'The file is larger than 10 bytes, the limit for this format.', extra: { max_bytes: 10 } });
    expect(input.destroyed).toBe(true);
  });

  it('reads an empty stream as no bytes', async () => {
    expect((await readAll(chunks(), 10)).length).toBe(0);
  });
});
