import { parseMultipart } from '../../shared/http/multipart';
import { multipartBody } from '../fixtures/assets/multipart';

describe('multipart parser', () => {
  it('returns the fields and the file', async () => {
    const { body, contentType } = await multipartBody({ jurisdiction: 'Monroe County', file: { filename: 'a.csv', data: 'name,lat,lon\n', type: 'text/csv' } });
    const form = await parseMultipart(body, contentType, { fileBytes: 1000 });
    expect(form.fields).toEqual({ jurisdiction: 'Monroe County' });
    expect(form.files).toEqual([{ field: 'file', filename: 'a.csv', mimeType: 'text/csv', data: Buffer.from('name,lat,lon\n') }]);
  });

  it('answers 413 for a file over the limit', async () => {
    const { body, contentType } = await multipartBody({ file: { filename: 'a.csv', data: Buffer.alloc(2000, 65) } });
    await expect(parseMultipart(body, contentType, { fileBytes: 1000 })).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('answers 400 malformed_body for a missing boundary or a truncated body, invalid_request for a repeated field', async () => {
    const { body, contentType } = await multipartBody({ jurisdiction: 'x', file: { filename: 'a.csv', data: 'abc' } });
    // Not readable as multipart at all: malformed, like broken JSON.
    await expect(parseMultipart(body, 'multipart/form-data', { fileBytes: 1000 })).rejects.toMatchObject({ code: 'malformed_body', status: 400 });
    await expect(parseMultipart(body.subarray(0, body.length - 20), contentType, { fileBytes: 1000 })).rejects.toMatchObject({ code: 'malformed_body', status: 400 });
    const boundary = contentType.split('boundary=')[1]!;
    const twice = Buffer.from([`--${boundary}`, 'Content-Disposition: form-data; name="a"', '', '1', `--${boundary}`, 'Content-Disposition: form-data; name="a"', '', '2', `--${boundary}--`, ''].join('\r\n'));
    await expect(parseMultipart(twice, contentType, { fileBytes: 1000 })).rejects.toMatchObject({ code: 'invalid_request', extra: { errors: [{ field: 'a' }] } });
    const unnamed = Buffer.from([`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename=""', 'Content-Type: text/csv', '', 'abc', `--${boundary}--`, ''].join('\r\n'));
    // Without a file name a part is a text field (the routes then answer that the file is missing).
    await expect(parseMultipart(unnamed, contentType, { fileBytes: 1000 })).resolves.toEqual({ fields: { file: 'abc' }, files: [] });
  });

  it('answers 400 for too many files', async () => {
    const { body, contentType } = await multipartBody({ a: { filename: 'a.csv', data: '1' }, b: { filename: 'b.csv', data: '2' }, c: { filename: 'c.csv', data: '3' } });
    await expect(parseMultipart(body, contentType, { fileBytes: 1000, files: 2 })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
