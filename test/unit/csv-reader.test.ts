import { Readable } from 'node:stream';
import { detectDelimiter, readCsv } from '../../shared/domain/assets/formats/csv';
import type { SourceRecord } from '../../shared/domain/assets/import-rows';
import { rejectionOf } from '../helpers/asset-file-error';

/** CSV text as counties export it: delimiters, title lines, quotes, stray and unclosed quotes, binary. */
async function rows(text: string | Buffer, options: { headerRow?: number } = {}, pieceSize?: number): Promise<SourceRecord[]> {
  const bytes = Buffer.from(text);
  const parts = pieceSize ? Array.from({ length: Math.ceil(bytes.length / pieceSize) }, (_, i) => bytes.subarray(i * pieceSize, (i + 1) * pieceSize)) : [bytes];
  const out: SourceRecord[] = [];
  for await (const record of readCsv(Readable.from(parts), options)) out.push(record);
  return out;
}

describe('delimiter detection', () => {
  it.each([
    ['name,lat,lon', ','],
    ['name;lat;lon', ';'],
    ['name\tlat\tlon', '\t'],
    ['name|lat|lon', '|'],
    ['name', ','],
    ['', ','],
    // Counted outside quotes only: two semicolons beat the commas inside the quoted header.
    ['"a,b,c,d";lat;lon', ';'],
    // A tie keeps the earlier of , ; tab |.
    ['a,b;c', ','],
    ['a;b|c', ';'],
  ])('%j → %j', (line, delimiter) => {
    expect(detectDelimiter(Buffer.from(`${line}\nx,y,z\n`))).toBe(delimiter);
  });

  it('reads the header line given, after a byte-order mark, with either line ending', () => {
    expect(detectDelimiter(Buffer.from('\uFEFFTitle, with, commas\r\nname;lat;lon\r\n'), 2)).toBe(';');
    expect(detectDelimiter(Buffer.from('\uFEFFname;lat\n'))).toBe(';');
    expect(detectDelimiter(Buffer.from('one line only'), 5)).toBe(',');
  });
});

describe('reading CSV', () => {
  it('gives each record with the line it ends on, values trimmed text, blank lines skipped', async () => {
    expect(await rows('name,lat\n\n Station 1 , 24.55 \n"Station\n2",24.56\n')).toEqual([
      { row: 3, properties: { name: 'Station 1', lat: '24.55' } },
      { row: 5, properties: { name: 'Station\n2', lat: '24.56' } },
    ]);
  });

  it('reads semicolon files and a byte-order mark', async () => {
    expect(await rows('\uFEFFname;lat\nA;1\n')).toEqual([{ row: 2, properties: { name: 'A', lat: '1' } }]);
  });

  it('with headerRow, lines above it are skipped and numbering stays the file\'s', async () => {
    expect(await rows('Critical assets, 2026\n\nname;lat\nA;1\n', { headerRow: 3 })).toEqual([{ row: 4, properties: { name: 'A', lat: '1' } }]);
  });

  it('names repeated and blank headers apart', async () => {
    expect((await rows('name,name,,type\na,b,c,d\n'))[0]!.properties).toEqual({ name: 'a', name_2: 'b', column_3: 'c', type: 'd' });
  });

  it('a record with the wrong number of fields is a row error in its place, the rest read', async () => {
    const out = await rows('name,lat\nA,1\nB,2,extra\nC,3\n');
    expect(out.map((r) => [r.row, r.malformed === undefined ? r.properties.name : 'malformed'])).toEqual([[2, 'A'], [3, 'malformed'], [4, 'C']]);
    expect(out[1]!.malformed).toMatch(/Invalid Record Length/i);
  });

  it('row errors at the end of the file come after the last record', async () => {
    const out = await rows('name,lat\nA,1\nB\n');
    expect(out.map((r) => [r.row, r.malformed !== undefined])).toEqual([[2, false], [3, true]]);
  });

  it('reads the same records however the file arrives in pieces', async () => {
    const text = `name,lat\n${Array.from({ length: 500 }, (_, i) => `"Station, ${i}",${i}`).join('\n')}\n`;
    const whole = await rows(text);
    expect(whole).toHaveLength(500);
    expect(await rows(text, {}, 7)).toEqual(whole);
    expect(whole[499]).toEqual({ row: 501, properties: { name: 'Station, 499', lat: '499' } });
  });
});

describe('refusals', () => {
  it('a ZIP archive', async () => {
    const error = await rejectionOf(() => rows(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])));
    expect([error.code, error.message]).toEqual(['malformed_csv', 'This is a ZIP archive (an .xlsx workbook or a zipped Shapefile?), not CSV text. Upload it with its own extension.']);
  });

  it('binary in the first 4 KiB, but not a zero byte after it', async () => {
    const early = Buffer.concat([Buffer.from('name,lat\n'), Buffer.alloc(10), Buffer.from('\n')]);
    const error = await rejectionOf(() => rows(early));
    expect([error.code, error.message]).toEqual(['malformed_csv', 'The file is binary, not CSV text.']);
    const late = Buffer.concat([Buffer.from(`name,lat\n${'A,1\n'.repeat(1100)}`), Buffer.from('B,\u0000\n')]);
    expect(late.indexOf(0)).toBeGreaterThanOrEqual(4096);
    await expect(rows(late)).resolves.toHaveLength(1101);
  });

  it('an empty file', async () => {
    expect((await rejectionOf(() => rows(''))).code).toBe('empty_file');
  });

  it('an unclosed quote, which would swallow the rest of the file, names where it opened', async () => {
    const error = await rejectionOf(() => rows('name,lat\nA,1\n"B,2\nC,3\n'));
    expect(error.code).toBe('malformed_csv');
    expect(error.message).toMatch(/^A quoted field opened before line \d+ is never closed\.$/);
    expect(error.extra).toEqual({ line: expect.any(Number) });
  });

  it('a source that fails midway fails the read: the rows before it are not a whole file', async () => {
    async function* failing() {
      yield Buffer.from('name,lat\nA,1\nB,2\n');
      throw new Error('connection reset');
    }
    const seen: SourceRecord[] = [];
    const outcome = await (async () => {
      for await (const record of readCsv(Readable.from(failing()))) seen.push(record);
    })().then(() => 'read to the end', (error: Error) => error.message);
    expect(outcome).toBe('connection reset');
    expect(seen.map((r) => r.row)).toEqual([2, 3]);
  });

  it('a record longer than 1 MiB, after which the parser would drop every row unseen, names its line', async () => {
    const oneMiB = 1024 * 1024;
    // csv-parse counts the bytes of a record's fields as it reads them (delimiters not counted).
    const over = `${'y'.repeat(oneMiB + 16)},2`;
    const error = await rejectionOf(() => rows(`name,lat\nA,1\n${over}\nB,2\nC,3\n`, {}, 64 * 1024));
    expect([error.code, error.message, error.extra]).toEqual(['malformed_csv', 'The record on line 3 is longer than 1 MiB, the most one row may hold.', { line: 3 }]);
    const quoted = await rejectionOf(() => rows(`name,lat\n"${'x'.repeat(oneMiB + 16)}",1\nB,2\n`));
    expect([quoted.code, quoted.extra]).toEqual(['malformed_csv', { line: 2 }]);
    const longest = await rows(`name,lat\n${'y'.repeat(oneMiB - 16)},2\nB,2\n`);
    expect(longest.map((r) => [r.row, r.properties.lat])).toEqual([[2, '2'], [3, '2']]);
  });
});
