import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp } from '../helpers/local-app';

/**
 * The console's files through the docs function, as API Gateway routes them in AWS: built from
 * console/ on the first request (in memory here, beside the handler in AWS), nothing from other hosts.
 */
describe('GET /console', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('serves the page, whose every script and style sheet is a file of this API', async () => {
    const res = await app.request('GET', '/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(readFileSync(path.join(__dirname, '..', '..', 'console', 'index.html'), 'utf8'));
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // No URL with a scheme or a protocol-relative one: every reference is relative to /api.
    expect(res.text).not.toMatch(/(?:src|href)="(?:[a-z][a-z0-9+.-]*:(?!,)|\/\/)/i);
    const references = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references.sort()).toEqual(['console/main.css', 'console/main.js', 'data:,']);
  });

  it('serves the bundle, its styles and the jurisdiction choices with their content types', async () => {
    const script = await app.request('GET', '/console/main.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // The bundle holds OpenLayers and the typed client: it draws the map and calls /assets.
    expect(script.text).toContain('/assets');
    expect(script.text).not.toMatch(/https?:\/\/(?!www\.w3\.org|127\.0\.0\.1)[\w.-]+\.(?:com|org|net|io)\/[\w/.-]*\.(?:js|css|png|pbf)/);

    const styles = await app.request('GET', '/console/main.css');
    expect(styles.status).toBe(200);
    expect(styles.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(styles.text).toContain('.ol-viewport');

    const choices = await app.request('GET', '/console/jurisdictions.json');
    expect(choices.status).toBe(200);
    expect(choices.json.counties).toHaveLength(67);
    expect(choices.json.counties).toContainEqual({ value: 'Monroe County', label: 'Monroe County' });
    expect(choices.json.municipalities.length).toBeGreaterThan(400);
  });

  it('answers a problem for a file the console does not have, and for another method', async () => {
    // Only the built files have names here: nothing else on disk can be asked for.
    for (const file of ['secrets.js', '..%2Fpackage.json', 'index.html']) {
      const missing = await app.request('GET', `/console/${file}`);
      expect(missing.status).toBe(400);
      expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(missing.json.code).toBe('invalid_request');
      expect(missing.text).not.toContain('<html');
    }
    // A page is read, never written: another method finds no route, as the gateway answers any unknown one.
    const posted = await app.request('POST', '/console', { body: '' });
    expect(posted.status).toBe(404);
    expect(posted.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(posted.text).not.toContain('<html');
  });
});
