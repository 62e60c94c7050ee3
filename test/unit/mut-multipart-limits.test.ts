import { parseMultipart } from '../../shared/http/multipart';

/**
 * The multipart reader's limits as a route gets them when it sets only the file size: 2 files,
 * 10 fields, 2,000,000 bytes a field, each checked on both sides of the edge; and how file parts
 * are named in refusals.
 */
const BOUNDARY = 'b0undary';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
type Part = { name: string; value: string; filename?: string };

function form(parts: Part[]): Buffer {
  const body = parts.map((part) => {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? '\r\nContent-Type: text/csv' : '';
    return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${part.value}\r\n`;
  }).join('');
  return Buffer.from(`${body}--${BOUNDARY}--\r\n`);
}

const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, value: 'x', filename: `f${i}.csv` }));
const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `k${i}`, value: 'v' }));
const read = (parts: Part[]) => parseMultipart(form(parts), CONTENT_TYPE, { fileBytes: 100 });

describe('multipart default limits', () => {
  it('takes 2 files and refuses a third', async () => {
    await expect(read(files(2))).resolves.toMatchObject({ files: [{ field: 'f0' }, { field: 'f1' }] });
    await expect(read(files(3))).rejects.toMatchObject({ code: 'invalid_request', message: 'Too many files in the form.' });
  });

  it('takes 10 fields and refuses an eleventh', async () => {
    const ten = await read(fields(10));
    expect(Object.keys(ten.fields)).toHaveLength(10);
    await expect(read(fields(11))).rejects.toMatchObject({ code: 'invalid_request', message: 'Too many fields in the form.' });
  });

  it('takes 2 files and 10 fields together', async () => {
    const all = await read([...files(2), ...fields(10)]);
    expect([all.files.length, Object.keys(all.fields).length]).toEqual([2, 10]);
  });

  it('takes a field of 2,000,000 bytes and refuses one byte more with 413', async () => {
    const full = await read([{ name: 'metadata', value: 'm'.repeat(2_000_000) }]);
    expect(full.fields.metadata).toHaveLength(2_000_000);
    await expect(read([{ name: 'metadata', value: 'm'.repeat(2_000_001) }]))
      .rejects.toMatchObject({ code: 'payload_too_large', status: 413, message: 'Field "metadata" is longer than 2000000 bytes.' });
  });
});

describe('multipart file parts', () => {
  it('names a file over the limit by its file name and states the limit', async () => {
    const error = await read([{ name: 'file', value: 'x'.repeat(101), filename: 'assets.csv' }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'payload_too_large', extra: { max_bytes: 100 } });
    expect((error as Error).message).toMatch(/^File "assets\.csv" is larger than 100 bytes/);
  });

  it('keeps two file parts of different names with their file names and types', async () => {
    const result = await read([{ name: 'file', value: 'a', filename: 'a.csv' }, { name: 'metadata', value: 'b', filename: 'b.xml' }]);
    expect(result.files.map((f) => [f.field, f.filename, f.mimeType, f.data.toString()])).toEqual([['file', 'a.csv', 'text/csv', 'a'], ['metadata', 'b.xml', 'text/csv', 'b']]);
  });

  it('refuses a file part sent twice, naming the part', async () => {
    await expect(read([{ name: 'file', value: 'a', filename: 'a.csv' }, { name: 'file', value: 'b', filename: 'b.csv' }]))
      .rejects.toMatchObject({ code: 'invalid_request', message: 'File part "file" is sent twice.', extra: { errors: [{ field: 'file', in: 'body' }] } });
  });
});

describe('multipart size limits are inclusive', () => {
  it('takes a file of exactly the limit and refuses one byte more', async () => {
    const exact = await read([{ name: 'file', value: 'x'.repeat(100), filename: 'a.csv' }]);
    expect(exact.files[0]!.data).toHaveLength(100);
    await expect(read([{ name: 'file', value: 'x'.repeat(101), filename: 'a.csv' }])).rejects.toMatchObject({ code: 'payload_too_large' });
  });
});
