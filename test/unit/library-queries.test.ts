import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Resource } from '../../shared/schemas/library';
import { listResources, sortResources } from '../../shared/domain/library/listing';
import { ResourceSearchIndex } from '../../shared/domain/library/search';
import { libraryStats } from '../../shared/domain/library/stats';
import { ResourceLibrary } from '../../shared/application/library/resource-library';
import type { ResourceStore } from '../../shared/domain/library/ports';

const seed = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/library/resources.json'), 'utf8'));
const resources: Resource[] = seed.resources.map(({ mirror_url: _mirror, ...r }: Omit<Resource, 'views' | 'downloads' | 'file_path' | 'url_status'> & { mirror_url?: string }) => ({
  ...r, url_status: r.url === null ? 'unconfirmed' : 'confirmed', file_path: null, views: 0, downloads: 0,
}));
const countWhere = (test: (r: Resource) => boolean) => resources.filter(test).length;
const byTitle = (title: string) => resources.find((r) => r.title.includes(title))!;

describe('library list', () => {
  it('sorts by title, case-insensitively, in both directions', () => {
    const ascending = sortResources(resources, 'title');
    for (let i = 1; i < ascending.length; i++) {
      expect(ascending[i - 1]!.title.localeCompare(ascending[i]!.title, 'en', { sensitivity: 'base', numeric: true })).toBeLessThanOrEqual(0);
    }
    expect(sortResources(resources, '-title').map((r) => r.id)).toEqual([...ascending].reverse().map((r) => r.id));
  });

  it.each(['published', '-published'] as const)('sorts by %s with undated resources last', (sort) => {
    const sorted = sortResources(resources, sort);
    const undated = countWhere((r) => r.published === null);
    expect(undated).toBeGreaterThan(0);
    expect(sorted.slice(-undated).every((r) => r.published === null)).toBe(true);
    const dated = sorted.slice(0, sorted.length - undated).map((r) => r.published!);
    expect(dated.every((d) => d !== null)).toBe(true);
    const inOrder = (earlier: string, later: string) => (sort === 'published' ? earlier <= later : earlier >= later);
    for (let i = 1; i < dated.length; i++) expect(inOrder(dated[i - 1]!, dated[i]!)).toBe(true);
    const years = resources.filter((r) => r.published).map((r) => r.published!.slice(0, 4)).sort();
    expect(dated[0]!.slice(0, 4)).toBe(sort === 'published' ? years[0] : years[years.length - 1]);
  });

  it('pages through every resource exactly once, with the total of all matches', () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 70; offset += 7) {
      const page = listResources(resources, { sort: '-published', limit: 7, offset });
      expect(page.total).toBe(seed.resources.length);
      expect(page).toMatchObject({ limit: 7, offset });
      seen.push(...page.data.map((r) => r.id));
    }
    expect(seen).toHaveLength(seed.resources.length);
    expect(new Set(seen).size).toBe(seed.resources.length);
    expect(listResources(resources, { sort: 'title', limit: 20, offset: 100 })).toEqual({ data: [], total: 60, limit: 20, offset: 100 });
  });

  it('filters by category and file type', () => {
    const data = listResources(resources, { category: 'data', sort: 'title', limit: 100, offset: 0 });
    expect(data.total).toBe(countWhere((r) => r.category === 'data'));
    expect(data.total).toBe(13);
    expect(data.data.every((r) => r.category === 'data')).toBe(true);
    const pdfs = listResources(resources, { file_type: 'pdf', sort: 'title', limit: 3, offset: 0 });
    expect(pdfs.total).toBe(countWhere((r) => r.file_type === 'pdf'));
    expect(pdfs.data).toHaveLength(3);
    const both = listResources(resources, { category: 'science', file_type: 'pdf', sort: 'title', limit: 100, offset: 0 });
    expect(both.total).toBe(countWhere((r) => r.category === 'science' && r.file_type === 'pdf'));
    expect(listResources(resources, { category: 'legal', file_type: 'geojson', sort: 'title', limit: 5, offset: 0 }).total).toBe(0);
  });
});

describe('library stats', () => {
  it('counts resources per category and sums the counters', () => {
    const counted = resources.map((r, i) => ({ ...r, views: i % 3, downloads: i % 2 }));
    const stats = libraryStats(counted);
    expect(stats.total_resources).toBe(60);
    expect(stats.total_views).toBe(counted.reduce((sum, r) => sum + r.views, 0));
    expect(stats.total_downloads).toBe(30);
    // The catalogue's README gives these counts.
    expect(stats.categories).toEqual({ data: 13, case_study: 10, guidance: 9, science: 8, funding: 8, legal: 7, gis_standards: 5 });
    expect(libraryStats([]).categories.legal).toBe(0);
  });
});

describe('library search', () => {
  const index = new ResourceSearchIndex(resources);

  it('ranks the NOAA 2022 technical report first for "sea level rise technical report"', () => {
    const hits = index.search({ q: 'sea level rise technical report' });
    expect(hits[0]!.id).toBe(byTitle('(NOAA Technical Report NOS 01)').id);
    expect(hits[0]!.id).toBe(resources.find((r) => r.published === '2022' && r.tags.includes('sweet 2022'))!.id);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('ranks the high tide flooding reports above everything else for "high tide flooding"', () => {
    const top = index.search({ q: 'high tide flooding' }).slice(0, 3).map((h) => h.id).sort();
    const expected = resources.filter((r) => /high tide flooding/i.test(r.title)).map((r) => r.id).sort();
    expect(top).toEqual(expected);
  });

  it('matches by prefix, regardless of case and accents, and with small typos', () => {
    const prefix = index.search({ q: 'resil' });
    expect(prefix.length).toBeGreaterThan(0);
    for (const hit of prefix.slice(0, 5)) {
      const r = resources.find((x) => x.id === hit.id)!;
      expect(`${r.title} ${r.summary} ${r.tags.join(' ')}`.toLowerCase()).toContain('resil');
    }
    expect(index.search({ q: 'RÉSILIENCE' })).toEqual(index.search({ q: 'resilience' }));
    const typo = index.search({ q: 'inundaton' }).slice(0, 3);
    expect(typo).toHaveLength(3);
    for (const hit of typo) expect(resources.find((x) => x.id === hit.id)!.title.toLowerCase()).toContain('inundation');
  });

  it('restricts to a category and a file type', () => {
    const all = index.search({ q: 'sea level rise' });
    const caseStudies = index.search({ q: 'sea level rise', category: 'case_study' });
    expect(caseStudies.length).toBeGreaterThan(0);
    expect(caseStudies.length).toBeLessThan(all.length);
    expect(caseStudies.every((h) => resources.find((r) => r.id === h.id)!.category === 'case_study')).toBe(true);
    const sciencePdfs = index.search({ q: 'sea level', category: 'science', file_type: 'pdf' });
    expect(sciencePdfs.every((h) => { const r = resources.find((x) => x.id === h.id)!; return r.category === 'science' && r.file_type === 'pdf'; })).toBe(true);
  });

  it('finds nothing for words that carry no meaning, without failing', () => {
    expect(index.search({ q: 'the of and' })).toEqual([]);
    expect(index.search({ q: '!!! ???' })).toEqual([]);
    expect(index.search({ q: 'zzzzqqqq' })).toEqual([]);
  });
});

describe('library use cases', () => {
  function fakeStore(initial: Resource[]) {
    const items = new Map(initial.map((r) => [r.id, { ...r }]));
    const bump = async (id: string, counter: 'views' | 'downloads') => {
      const item = items.get(id);
      if (!item) return undefined;
      item[counter] += 1;
      return { ...item };
    };
    const store: ResourceStore & { items: typeof items } = {
      items,
      listAll: async () => [...items.values()].map((r) => ({ ...r })),
      get: async (id) => items.get(id),
      recordView: (id) => bump(id, 'views'),
      recordDownload: (id) => bump(id, 'downloads'),
      upsert: async (entries) => {
        for (const e of entries) items.set(e.id, { views: 0, downloads: 0, ...items.get(e.id), ...e, url_status: e.url === null ? 'unconfirmed' : 'confirmed' });
      },
    };
    return store;
  }
  const signer = { signedGetUrl: jest.fn(async (key: string, ttl: number, name?: string) => `https://signed.example/${key}?ttl=${ttl}&name=${name}`) };

  it('serves fresh counters and newly added resources in search', async () => {
    const store = fakeStore(resources);
    const library = new ResourceLibrary({ store, signer, signedUrlTtlSeconds: 120 });
    const target = byTitle('(NOAA Technical Report NOS 01)');
    await library.view(target.id);
    await library.view(target.id);
    const first = await library.search({ q: 'sea level rise technical report', limit: 1, offset: 0 });
    expect(first.total).toBeGreaterThan(1);
    expect(first.data).toEqual([{ ...target, views: 2, score: expect.any(Number) }]);
    expect(first.query).toBe('sea level rise technical report');

    await store.upsert([{ ...target, id: 'zz-new-entry', title: 'Quokka habitat survey', tags: [], file_path: null }]);
    const found = await library.search({ q: 'quokka', limit: 10, offset: 0 });
    expect(found.data.map((r) => r.id)).toEqual(['zz-new-entry']);

    // A retitled entry (the same number of entries) is found by its new title.
    await store.upsert([{ ...target, title: 'Wombat burrow survey', tags: [], file_path: null }]);
    expect((await library.search({ q: 'wombat', limit: 10, offset: 0 })).data.map((r) => r.id)).toEqual([target.id]);
  });

  it('names a stored copy\'s download by the resource id and the last extension of its file, lower case', async () => {
    const base = resources.find((r) => r.url === null)!;
    const dotted = { ...base, id: 'dotted', file_path: 'library/adaptation.plan.v2.PDF' };
    const bare = { ...base, id: 'bare', file_path: 'library/README' };
    const library = new ResourceLibrary({ store: fakeStore([dotted, bare]), signer, signedUrlTtlSeconds: 60 });
    expect(await library.download('dotted')).toEqual({ kind: 'redirect', location: 'https://signed.example/library/adaptation.plan.v2.PDF?ttl=60&name=dotted.pdf' });
    expect(await library.download('bare')).toEqual({ kind: 'redirect', location: 'https://signed.example/library/README?ttl=60&name=bare' });
  });

  it('redirects a download to the stored copy when there is one, else to the publisher https copy, counting each', async () => {
    const confirmed = resources.filter((r) => r.url !== null);
    const withCopy = { ...resources.find((r) => r.url === null)!, file_path: 'library/fs-380-093-resilient-florida.html' };
    const outside = { ...confirmed[1]!, file_path: 'uploads/another-account/file.csv' };
    const store = fakeStore([withCopy, confirmed[0]!, outside]);
    const library = new ResourceLibrary({ store, signer, signedUrlTtlSeconds: 120 });
    expect(await library.download(withCopy.id)).toEqual({ kind: 'redirect', location: `https://signed.example/${withCopy.file_path}?ttl=120&name=${withCopy.id}.html` });
    expect(await library.download(confirmed[0]!.id)).toEqual({ kind: 'redirect', location: confirmed[0]!.url });
    expect(await library.download(outside.id)).toEqual({ kind: 'redirect', location: outside.url });
    expect(await library.download('no-such-resource')).toBeUndefined();
    expect(store.items.get(withCopy.id)!.downloads).toBe(1);
    expect(store.items.get(confirmed[0]!.id)!.downloads).toBe(1);
    expect(await library.view('no-such-resource')).toBeUndefined();
    expect((await library.stats()).total_downloads).toBe(3);
  });

  it('hands out nothing, and counts nothing, for an entry without a confirmed publisher copy; never plain http', async () => {
    const unconfirmed = resources.find((r) => r.url === null)!;
    const plainHttp = { ...resources.find((r) => r.url !== null)!, id: 'plain-http-entry', url: 'http://example.org/doc.pdf' };
    const store = fakeStore([unconfirmed, plainHttp]);
    const library = new ResourceLibrary({ store, signer, signedUrlTtlSeconds: 120 });
    expect(await library.download(unconfirmed.id)).toEqual({ kind: 'unavailable', resource: expect.objectContaining({ id: unconfirmed.id }) });
    expect(await library.download(plainHttp.id)).toMatchObject({ kind: 'unavailable' });
    expect((await library.stats()).total_downloads).toBe(0);
  });
});
