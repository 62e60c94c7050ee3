import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { budgetedInflater, budgetedPassThrough, unzipBudgeted } from '../../shared/domain/assets/formats/zip-budget';
import { honestEntry, zipArchive } from '../fixtures/assets/zip-bomb';
import { rejectionOf } from '../helpers/asset-file-error';

/**
 * ZIP inflation under a budget, at the exact edges: an entry or archive of exactly its limit is
 * read whole, one byte more is refused; archives fed in one piece, in small pieces and across the
 * 64 KiB slices the inflater works in; stored and deflated entries.
 */
const MiB = 1024 * 1024;

/** Bytes that do not compress away, so deflated entries span many zlib chunks. */
function noise(length: number, seed: string): Buffer {
  const out = Buffer.alloc(length);
  for (let offset = 0, n = 0; offset < length; n++) {
    const block = createHash('sha256').update(`${seed}:${n}`).digest();
    offset += block.copy(out, offset);
  }
  return out;
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

async function* pieces(buffer: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

const a = noise(300_000, 'a');
const b = noise(70_000, 'b');
const deflated = zipArchive([honestEntry('a.bin', a), honestEntry('b.bin', b), honestEntry('skip.txt', 'not wanted')]);
const stored = Buffer.from(zipSync({ 'a.bin': [a, { level: 0 }], 'b.bin': [b, { level: 0 }] }));

describe('unzipping under a budget', () => {
  it.each([['deflated', deflated], ['stored', stored]])('reads the wanted entries of a %s archive whole and byte for byte', async (_kind, zip) => {
    const { entries, files } = await unzipBudgeted(zip, { totalBytes: 10 * MiB }, (name) => name.endsWith('.bin'));
    expect(Object.keys(entries).sort()).toEqual(['a.bin', 'b.bin']);
    expect(files.sort()).toEqual(zip === deflated ? ['a.bin', 'b.bin', 'skip.txt'] : ['a.bin', 'b.bin']);
    expect(Buffer.compare(Buffer.from(entries['a.bin']!), a)).toBe(0);
    expect(Buffer.compare(Buffer.from(entries['b.bin']!), b)).toBe(0);
  });

  it('names the entries in the order of the archive, however zlib finishes them', async () => {
    // A large entry first and small ones after: the small ones finish inflating first.
    const names = ['a.bin', ...Array.from({ length: 12 }, (_, i) => `small${i}.txt`), 'b.bin'];
    const zip = zipArchive(names.map((name) => honestEntry(name, name.endsWith('.bin') ? noise(400_000, name) : name)));
    for (let round = 0; round < 5; round++) {
      const { entries, files } = await unzipBudgeted(zip, { totalBytes: 10 * MiB }, (name) => name !== 'small3.txt');
      expect(files).toEqual(names);
      expect(Object.keys(entries)).toEqual(names.filter((name) => name !== 'small3.txt'));
    }
  });

  it('names empty files but not folder entries', async () => {
    const zip = Buffer.from(zipSync({ 'layer/': new Uint8Array(0), 'layer/a.bin': b, 'layer/empty.txt': new Uint8Array(0) }));
    const { entries, files } = await unzipBudgeted(zip, { totalBytes: 10 * MiB }, () => true);
    expect([files, Object.keys(entries)]).toEqual([['layer/a.bin', 'layer/empty.txt'], ['layer/a.bin', 'layer/empty.txt']]);
    expect(entries['layer/empty.txt']).toHaveLength(0);
  });

  it('an archive of exactly its budget is read; one byte less of budget refuses it', async () => {
    const total = a.length + b.length + 'not wanted'.length;
    await expect(unzipBudgeted(deflated, { totalBytes: total }, () => true)).resolves.toBeDefined();
    const error = await rejectionOf(() => unzipBudgeted(deflated, { totalBytes: total - 1 }, () => true));
    expect([error.code, error.extra]).toEqual(['file_too_large', { max_unpacked_bytes: total - 1 }]);
    expect(error.message).toBe('The archive unpacks to more than 0 MiB, the limit for this format.');
  });

  it('states the budget in whole MiB', async () => {
    const big = zipArchive([honestEntry('z.bin', Buffer.alloc(3 * MiB))]);
    const error = await rejectionOf(() => unzipBudgeted(big, { totalBytes: 2.6 * MiB }, () => true));
    expect(error.message).toBe('The archive unpacks to more than 3 MiB, the limit for this format.');
  });

  it('an entry of exactly its own limit is read; one byte more is refused with the entry named', async () => {
    const limits = (limit: number) => ({ totalBytes: 10 * MiB, entryBytes: (name: string) => (name === 'b.bin' ? limit : undefined) });
    await expect(unzipBudgeted(deflated, limits(b.length), () => true)).resolves.toBeDefined();
    const error = await rejectionOf(() => unzipBudgeted(deflated, limits(b.length - 1), () => true));
    expect([error.code, error.extra]).toEqual(['file_too_large', { max_unpacked_bytes: b.length - 1 }]);
    expect(error.message).toBe('b.bin unpacks to more than 0 MiB, the limit for this part of the file.');
  });

  it('an entry inflating past the size its header declares is refused as damaged, in the caller\'s words', async () => {
    const lying = zipArchive([{ ...honestEntry('a.bin', a), declaredSize: 1000 }]);
    const error = await rejectionOf(() => unzipBudgeted(lying, { totalBytes: 10 * MiB }, () => true));
    expect([error.code, error.message]).toEqual(['malformed_zip', 'a.bin inflates past the size its header declares (1000 bytes): the archive is damaged or crafted.']);
    const asWorkbook = await rejectionOf(() => unzipBudgeted(lying, { totalBytes: 10 * MiB, damaged: 'malformed_xlsx' }, () => true));
    expect(asWorkbook.code).toBe('malformed_xlsx');
  });

  it('an entry whose deflate data is corrupt is refused as damaged, naming it', async () => {
    const entry = honestEntry('a.bin', a);
    const corrupt = Buffer.from(entry.deflated);
    // The first block header says block type 3, which deflate reserves.
    corrupt[0] = 0xff;
    const error = await rejectionOf(() => unzipBudgeted(zipArchive([{ ...entry, deflated: corrupt }]), { totalBytes: 10 * MiB, damaged: 'malformed_shapefile' }, () => true));
    expect(error.code).toBe('malformed_shapefile');
    expect(error.message).toMatch(/^The ZIP archive is damaged \(a\.bin\): /);
  });
});

describe('the streaming inflater', () => {
  it.each([[1_000], [65_536], [65_537], [200_000]])('fed in pieces of %d bytes it hands on every entry\'s bytes and counts them', async (size) => {
    const received = new Map<string, Buffer[]>();
    const inflater = budgetedInflater({ totalBytes: 10 * MiB }, (name, data) => {
      received.set(name, [...(received.get(name) ?? []), Buffer.from(data)]);
    });
    for await (const piece of pieces(deflated, size)) await inflater.push(piece);
    await inflater.end();
    expect(Buffer.compare(Buffer.concat(received.get('a.bin')!), a)).toBe(0);
    expect(Buffer.compare(Buffer.concat(received.get('b.bin')!), b)).toBe(0);
    expect(inflater.inflatedBytes).toBe(a.length + b.length + 'not wanted'.length);
    expect(inflater.entryNames).toEqual(['a.bin', 'b.bin', 'skip.txt']);
  });

  it('stops handing on bytes once the budget is passed, and keeps refusing', async () => {
    let handed = 0;
    const inflater = budgetedInflater({ totalBytes: 100_000 }, (_name, data) => {
      handed += data.length;
    });
    const error = await rejectionOf(() => inflater.push(deflated));
    expect(error.code).toBe('file_too_large');
    expect(handed).toBeLessThanOrEqual(100_000);
    await expect(inflater.end()).rejects.toBe(error);
  });
});

describe('passing an archive through under a budget', () => {
  it('yields the archive\'s bytes unchanged', async () => {
    expect(Buffer.compare(await collect(budgetedPassThrough(pieces(deflated, 10_000), { totalBytes: 10 * MiB })), deflated)).toBe(0);
  });

  it('stops before the end of an archive that passes its budget', async () => {
    const passed: Buffer[] = [];
    const outcome = await (async () => {
      for await (const part of budgetedPassThrough(pieces(deflated, 10_000), { totalBytes: 100_000 })) passed.push(part);
    })().then(() => 'finished', (e: AssetFileError) => e.code);
    expect(outcome).toBe('file_too_large');
    expect(Buffer.concat(passed).length).toBeLessThan(deflated.length);
  });
});
