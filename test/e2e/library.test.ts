import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp } from '../helpers/local-app';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { DynamoResourceStore } from '../../shared/adapters/resource-store';

const seed = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/library/resources.json'), 'utf8'));
type SeedResource = { id: string; title: string; category: string; file_type: string; published: string | null; url: string | null; mirror_url?: string };
const resources: SeedResource[] = seed.resources;
const unconfirmedCandidates: Array<{ title: string }> = seed.unconfirmed;
const noaa2022 = resources.find((r) => r.title.includes('(NOAA Technical Report NOS 01)'))!;

/** The resource library over HTTP: DESIGN rows L, 1, 2, 3 and the download route. */
describe('resource library (HTTP)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let key: string;
  const get = (route: string) => app.request('GET', route, { key });

  beforeAll(async () => {
    app = await startTestApp();
    // Enterprise: no hourly limit, so counting calls below cannot be cut short.
    key = app.keys.enterprise;
  });
  afterAll(async () => {
    await app.stop();
  });

  it('lists the whole seeded catalogue in pages sorted by title', async () => {
    const first = await get('/resources');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.json).toMatchObject({ total: resources.length, limit: 20, offset: 0 });
    expect(first.json.data).toHaveLength(20);
    expect(Object.keys(first.json.data[0]).sort()).toEqual(['category', 'downloads', 'evidence', 'file_path', 'file_type', 'id', 'notes', 'published', 'publisher', 'summary', 'tags', 'title', 'url', 'url_status', 'views']);
    const titles = first.json.data.map((r: SeedResource) => r.title);
    expect(titles).toEqual([...titles].sort((a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })));

    const last = await get('/resources?action=list&limit=20&offset=40');
    expect(last.json.data).toHaveLength(resources.length - 40);
    const ids = new Set<string>();
    for (let offset = 0; offset < resources.length; offset += 25) {
      for (const r of (await get(`/resources?limit=25&offset=${offset}`)).json.data) ids.add(r.id);
    }
    expect([...ids].sort()).toEqual(resources.map((r) => r.id).sort());
  });

  it('filters by category and file type, and sorts newest first with undated resources last', async () => {
    const data = await get('/resources?category=data&limit=100');
    expect(data.json.total).toBe(resources.filter((r) => r.category === 'data').length);
    expect(data.json.data.every((r: SeedResource) => r.category === 'data')).toBe(true);
    const pdfs = await get('/resources?file_type=pdf&category=science');
    expect(pdfs.json.total).toBe(resources.filter((r) => r.file_type === 'pdf' && r.category === 'science').length);

    const newest = await get('/resources?sort=-published&limit=100');
    const latest = resources.map((r) => r.published).filter((p): p is string => p !== null).sort().pop();
    expect(newest.json.data[0].published).toBe(latest);
    const undated = resources.filter((r) => r.published === null).length;
    expect(newest.json.data.slice(-undated).every((r: SeedResource) => r.published === null)).toBe(true);
    const oldest = await get('/resources?sort=published&limit=1');
    expect(oldest.json.data[0].published).toBe(resources.map((r) => r.published).filter((p): p is string => p !== null).sort()[0]);
  });

  it('returns one resource by action=get and by path, and 404 not_found for an unknown id', async () => {
    const byQuery = await get(`/resources?action=get&id=${noaa2022.id}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.json).toMatchObject({ ...noaa2022, file_path: null });
    const byPath = await get(`/resources/${noaa2022.id}`);
    expect(byPath.json).toMatchObject({ id: noaa2022.id, title: noaa2022.title });
    for (const route of ['/resources/no-such-resource', '/resources?action=get&id=no-such-resource', '/resources/no-such-resource/download']) {
      const missing = await get(route);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/problem+json');
      expect(missing.json).toMatchObject({ code: 'not_found', status: 404 });
    }
  });

  it('ranks full-text matches and filters them by category', async () => {
    const search = await get('/resources?action=search&q=sea%20level%20rise%20technical%20report&limit=5');
    expect(search.status).toBe(200);
    expect(search.json.query).toBe('sea level rise technical report');
    expect(search.json.data[0]).toMatchObject({ id: noaa2022.id, score: expect.any(Number) });
    expect(search.json.data).toHaveLength(5);
    expect(search.json.total).toBeGreaterThan(5);
    const scores = search.json.data.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const caseStudies = await get('/resources?action=search&q=vulnerability%20assessment&category=case_study&limit=100');
    expect(caseStudies.json.total).toBeGreaterThan(0);
    expect(caseStudies.json.data.every((r: SeedResource) => r.category === 'case_study')).toBe(true);
    const nothing = await get('/resources?action=search&q=the');
    expect(nothing.json).toEqual({ data: [], total: 0, query: 'the' });
  });

  it('counts exactly the views and downloads made, in the statistics', async () => {
    const before = (await get('/resources?action=stats')).json;
    expect(before.total_resources).toBe(resources.length);
    const categories: Record<string, number> = {};
    for (const r of resources) categories[r.category] = (categories[r.category] ?? 0) + 1;
    expect(before.categories).toEqual(categories);

    const target = resources.find((r) => r.url !== null)!;
    for (let i = 0; i < 3; i++) expect((await get(`/resources/${target.id}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await get(`/resources?action=get&id=${target.id}`)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await get(`/resources/${target.id}/download`)).status).toBe(302);
    // Lists, searches, stats and 404s count nothing.
    await get('/resources?limit=100');
    await get('/resources?action=search&q=flood');
    await get('/resources/no-such-resource');

    const after = (await get('/resources?action=stats')).json;
    expect(after.total_views - before.total_views).toBe(5);
    expect(after.total_downloads - before.total_downloads).toBe(4);
    const resource = (await get(`/resources/${target.id}`)).json;
    expect(resource).toMatchObject({ views: 6, downloads: 4 });
  });

  it('redirects a download to the public URL when the library holds no copy', async () => {
    const target = resources[10]!;
    const res = await get(`/resources/${target.id}/download`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(target.url);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text).toBe('');
  });

  it('links only confirmed publisher copies over https: no mirror, no http, and says when none is confirmed', async () => {
    const all = (await get('/resources?limit=100')).json.data as Array<SeedResource & { url_status: string }>;
    const unconfirmed = resources.filter((r) => r.url === null);
    expect(unconfirmed.length).toBeGreaterThan(0);
    for (const seedEntry of resources) {
      const served = all.find((r) => r.id === seedEntry.id)!;
      expect(served).toMatchObject({ url: seedEntry.url, url_status: seedEntry.url === null ? 'unconfirmed' : 'confirmed' });
      expect(served).not.toHaveProperty('mirror_url');
      if (seedEntry.url !== null) expect(seedEntry.url.startsWith('https://')).toBe(true);
    }
    const statute = resources.find((r) => r.title.startsWith('380.093'))!;
    expect(statute.url).toBeNull();
    for (const entry of unconfirmed) {
      const res = await get(`/resources/${entry.id}/download`);
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(res.json).toMatchObject({ code: 'not_found', url_status: 'unconfirmed' });
      if (entry.mirror_url) expect(res.text).not.toContain(entry.mirror_url);
    }
    // The candidates the catalogue lists as unconfirmed are not in the library at all.
    expect(unconfirmedCandidates).toHaveLength(23);
    const titles = new Set(all.map((r) => r.title));
    for (const candidate of unconfirmedCandidates) expect(titles.has(candidate.title)).toBe(false);
    // A mirror may be named in `evidence` (where a fact was read), never offered as the link.
    expect(all.filter((r) => r.url !== null && !r.url.startsWith('https://'))).toEqual([]);
    expect(all.filter((r) => resources.some((entry) => entry.mirror_url !== undefined && entry.mirror_url === r.url))).toEqual([]);
  });

  it('redirects a download to a short-lived signed URL that serves the stored copy', async () => {
    const target = resources[20]!;
    const bytes = Buffer.from(`stored copy of ${target.id}\n`);
    const key = `library/${target.id}.pdf`;
    await new S3BlobStore().put(key, bytes, 'application/pdf');
    const stored = (await get(`/resources/${target.id}`)).json;
    await new DynamoResourceStore().upsert([{ ...stored, file_path: key }]);

    const res = await get(`/resources/${target.id}/download`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.hostname).toBe('127.0.0.1');
    expect(location.pathname).toBe(`/${app.resources.bucketName}/${key}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.searchParams.get('X-Amz-Signature')).toBeTruthy();

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${target.id}.pdf"`);
  });

  it('answers 400 invalid_request naming each bad parameter', async () => {
    const cases: Array<[string, string[]]> = [
      ['/resources?action=browse', ['action']],
      ['/resources?limit=0&offset=-1', ['limit', 'offset']],
      ['/resources?limit=101&sort=color', ['limit', 'sort']],
      ['/resources?category=poetry&file_type=exe', ['category', 'file_type']],
      ['/resources?action=get', ['id']],
      ['/resources?action=get&id=Not%20A%20Slug', ['id']],
      ['/resources?action=search', ['q']],
      ['/resources?action=search&q=%20%20', ['q']],
      [`/resources?action=search&q=${'x'.repeat(201)}`, ['q']],
      ['/resources/UPPER_CASE', ['id']],
      ['/resources/%E2%9C%93/download', ['id']],
    ];
    for (const [route, fields] of cases) {
      const res = await get(route);
      expect({ route, status: res.status, code: res.json?.code }).toEqual({ route, status: 400, code: 'invalid_request' });
      expect(res.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(fields);
    }
  });

  it('is open to the free tier and needs a key', async () => {
    const free = await app.request('GET', '/resources?action=stats', { key: app.keys.free });
    expect(free.status).toBe(200);
    expect(free.headers.get('ratelimit-limit')).toBe('25');
    const anonymous = await app.request('GET', '/resources');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.code).toBe('missing_api_key');
  });
});
