import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp } from '../helpers/local-app';

/** The keyless documentation routes over the local gateway. */
describe('health, OpenAPI document and HTML reference', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const repo = path.join(__dirname, '..', '..');

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('GET /health answers ok with the package version, without a key', async () => {
    const { version } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
    const res = await app.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ status: 'ok', version });
  });

  it('GET /openapi.json serves the committed document, without a key', async () => {
    const res = await app.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe(readFileSync(path.join(repo, 'openapi.json'), 'utf8'));
    expect(res.json.openapi).toBe('3.1.0');
  });

  it('GET /docs serves self-contained HTML under a strict Content-Security-Policy', async () => {
    const res = await app.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('<title>Vulnerability Assessment Compliance API');
  });

  it('serves the same documents with any key, or a bad one, and counts nothing', async () => {
    for (const key of [app.keys.free, 'not-a-key']) {
      const res = await app.request('GET', '/health', { key });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('documents the type URI of every problem the API returns', async () => {
    const docs = await app.request('GET', '/docs');
    const missingKey = await app.request('GET', '/grants/deadlines');
    const noRoute = await app.request('POST', '/health');
    for (const problem of [missingKey.json, noRoute.json]) {
      expect(problem.type).toBe(`/api/docs#error-${problem.code}`);
      expect(docs.text).toContain(`id="error-${problem.code}"`);
    }
    expect(noRoute.status).toBe(404);
  });
});
