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

  it('GET /docs serves the Swagger UI page under a strict Content-Security-Policy, loading only files of this API', async () => {
    const res = await app.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('<title>Vulnerability Assessment Compliance API');
    // No inline script: every <script> has a src, on this origin.
    const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body).toBe('');
      expect(attributes).toMatch(/src="docs\/assets\/[\w.-]+"/);
    }
    for (const [, file] of res.text.matchAll(/(?:src|href)="docs\/assets\/([\w.-]+)"/g)) {
      const asset = await app.request('GET', `/docs/assets/${file}`);
      expect({ file, status: asset.status }).toEqual({ file, status: 200 });
      expect(asset.headers.get('content-type')).toMatch(file!.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
  });

  it('serves Swagger UI from swagger-ui-dist itself, and nothing but the listed files', async () => {
    const bundle = await app.request('GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.text).toBe(readFileSync(path.join(repo, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js'), 'utf8'));
    for (const name of ['index.html', '..%2Fpackage.json', 'swagger-initializer.js']) {
      const res = await app.request('GET', `/docs/assets/${name}`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_request');
    }
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
