import type { Resource } from '../../shared/schemas/library';
import { parseCatalogue, urlStatusOf } from '../../shared/domain/library/catalogue';
import { sortResources } from '../../shared/domain/library/listing';
import { ResourceSearchIndex } from '../../shared/domain/library/search';
import { resourceSlug } from '../../shared/domain/library/slug';

/** The library's edges: slug lengths and hyphens, search prefix/typo thresholds and weights, sort ties, catalogue labels. */

function resource(id: string, overrides: Partial<Resource> = {}): Resource {
  return {
    id, title: id, file_path: null, category: 'guidance', file_type: 'pdf', publisher: 'DEP', published: null, url: null, url_status: 'unconfirmed',
    summary: '', tags: [], evidence: null, notes: null, views: 0, downloads: 0, ...overrides,
  };
}

describe('slugs', () => {
  it('joins lower-case words by single hyphens, trimming every leading and trailing hyphen', () => {
    expect(resourceSlug('--Flood & Résilience--Plan!!')).toBe('flood-and-resilience-plan');
    expect(resourceSlug('¡¡ Sea Level ??')).toBe('sea-level');
  });

  it('keeps 60 characters whole and cuts longer slugs at the last word boundary within 61', () => {
    const sixty = `${'a'.repeat(29)}-${'b'.repeat(30)}`;
    expect(sixty).toHaveLength(60);
    expect(resourceSlug(sixty)).toBe(sixty);
    // 61 characters: cut at the last hyphen.
    expect(resourceSlug(`${'a'.repeat(30)}-${'b'.repeat(30)}`)).toBe('a'.repeat(30));
    // A word ending exactly at 60 followed by a hyphen: the cut keeps all 60.
    expect(resourceSlug(`${'a'.repeat(29)}-${'b'.repeat(30)}-more`)).toBe(sixty);
    // One long word: cut at 60 characters.
    expect(resourceSlug('x'.repeat(80))).toBe('x'.repeat(60));
  });
});

describe('full-text search', () => {
  // Built per call, not once for the describe: mutation runs switch a mutant on per test.
  const catalogue = () => new ResourceSearchIndex([
    resource('tides-guide', { title: 'Tides', summary: 'inundation mapping for planners', tags: ['coastal'] }),
    resource('inundation-atlas', { title: 'Inundation atlas', summary: 'maps', tags: [], category: 'data', file_type: 'zip' }),
    resource('zeta', { title: 'Other', summary: 'inundation' }),
    resource('alpha', { title: 'Other', summary: 'inundation' }),
  ]);
  const ids = (q: string, filter = {}) => catalogue().search({ q, ...filter }).map((h) => h.id);

  it('weighs a title match above a summary match and breaks score ties by id', () => {
    expect(ids('inundation')).toEqual(['inundation-atlas', 'alpha', 'zeta', 'tides-guide']);
    const hits = catalogue().search({ q: 'inundation' });
    expect(hits[1]!.score).toBe(hits[2]!.score);
    for (const hit of hits) expect(Math.round(hit.score * 1000) / 1000).toBe(hit.score);
    // MiniSearch's BM25 relevance, a few units for one word over four short entries.
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.score).toBeLessThan(100);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('weighs a tag match above a summary match', () => {
    const tagged = new ResourceSearchIndex([resource('b-summary', { summary: 'coastal' }), resource('a-tagged', { tags: ['coastal'] })]);
    expect(tagged.search({ q: 'coastal' }).map((h) => h.id)).toEqual(['a-tagged', 'b-summary']);
  });

  it('matches prefixes from three characters and typos from five', () => {
    expect(ids('inu')).toContain('inundation-atlas');
    // Two letters are no prefix ("in" would also be a stop word).
    expect(ids('ti')).toEqual([]);
    expect(ids('inundaton')).toContain('inundation-atlas');
    // Four characters: no typo allowed ("tide" is a prefix of "tides", "tida" is not).
    expect(ids('tide')).toEqual(['tides-guide']);
    expect(ids('tids')).toEqual([]);
    expect(ids('tidess')).toEqual(['tides-guide']);
    // Five characters: one typo allowed.
    expect(ids('tidas')).toEqual(['tides-guide']);
  });

  it('ranks the same words in a title above them in a summary of the same length, and ties by id whatever the insertion order', () => {
    const pair = [resource('z-title', { title: 'storm surge', summary: 'other words', tags: [] }), resource('a-summary', { title: 'other words', summary: 'storm surge', tags: [] })];
    expect(new ResourceSearchIndex(pair).search({ q: 'storm surge' }).map((h) => h.id)).toEqual(['z-title', 'a-summary']);
    const same = (id: string) => resource(id, { title: 'Other', summary: 'inundation' });
    for (const order of [['m', 'b', 'y', 'a'], ['a', 'y', 'b', 'm']]) {
      expect(new ResourceSearchIndex(order.map(same)).search({ q: 'inundation' }).map((h) => h.id)).toEqual(['a', 'b', 'm', 'y']);
    }
  });

  it('applies the category and file type filters to the hits', () => {
    expect(ids('inundation', { category: 'data' })).toEqual(['inundation-atlas']);
    expect(ids('inundation', { file_type: 'pdf' })).toEqual(['alpha', 'zeta', 'tides-guide']);
  });
});

describe('sorting ties', () => {
  it('orders equal titles by id, and undated resources last in both directions', () => {
    const list = [resource('c-id', { title: 'same' }), resource('b-id', { title: 'Same' }), resource('a-id', { title: 'same' }), resource('c', { title: 'Alpha', published: '2020' })];
    expect(sortResources(list, 'title').map((r) => r.id)).toEqual(['c', 'a-id', 'b-id', 'c-id']);
    expect(sortResources([...list].reverse(), '-title').map((r) => r.id)).toEqual(['a-id', 'b-id', 'c-id', 'c']);
    // Equal dates fall back to the title.
    const sameDay = [resource('x', { title: 'Zeta', published: '2021' }), resource('y', { title: 'Beta', published: '2021' }), resource('z', { title: 'Eta', published: '2021' })];
    expect(sortResources(sameDay, 'published').map((r) => r.id)).toEqual(['y', 'z', 'x']);
    expect(sortResources(sameDay, '-published').map((r) => r.id)).toEqual(['y', 'z', 'x']);
    const dated = [resource('n', { published: null }), resource('old', { published: '2019-05' }), resource('new', { published: '2022' }), resource('y', { published: '2019' })];
    expect(sortResources(dated, 'published').map((r) => r.id)).toEqual(['y', 'old', 'new', 'n']);
    expect(sortResources(dated, '-published').map((r) => r.id)).toEqual(['new', 'old', 'y', 'n']);
  });
});

describe('catalogue entries', () => {
  const entry = { title: 'Resilient Florida Program', category: 'funding', file_type: 'html', publisher: 'DEP', published: '2024', url: 'https://floridadep.gov/rcp', summary: 's', tags: ['Grants', 'grants'], evidence: null, notes: null };

  it('says whether a publisher copy is linked', () => {
    expect(urlStatusOf(null)).toBe('unconfirmed');
    expect(urlStatusOf('https://floridadep.gov')).toBe('confirmed');
  });

  it('names a bad entry by index and title, shortened past 60 characters, and each unknown field', () => {
    const long = 'T'.repeat(61);
    const result = parseCatalogue({ resources: [{ ...entry, title: long, colour: 'red', size: 1 }, { ...entry, title: 'x'.repeat(60), category: 'nope' }, { ...entry, title: '  ', category: 'nope' }] });
    expect(result.ok).toBe(false);
    const fields = !result.ok ? result.errors.map((e) => [e.field, e.message]) : [];
    expect(fields).toContainEqual([`resources[0] ("${'T'.repeat(57)}...").colour`, 'Unknown field']);
    expect(fields).toContainEqual([`resources[0] ("${'T'.repeat(57)}...").size`, 'Unknown field']);
    expect(fields.some(([field]) => field === `resources[1] ("${'x'.repeat(60)}").category`)).toBe(true);
    expect(fields.some(([field]) => field === 'resources[2].category')).toBe(true);
    expect(parseCatalogue({ resources: [[1]] })).toMatchObject({ ok: false, errors: [{ field: 'resources[0].(entry)' }] });
    expect(parseCatalogue([null, 'text'])).toMatchObject({ ok: false, errors: [{ field: 'resources[0].(entry)' }, { field: 'resources[1].(entry)' }] });
    expect(parseCatalogue([undefined])).toMatchObject({ ok: false, errors: [{ field: 'resources[0].(entry)' }] });
    for (const root of [null, undefined, 'resources', 42, { resources: 'none' }]) {
      expect(parseCatalogue(root)).toEqual({ ok: false, errors: [{ field: '(root)', message: 'Expected an array of resources or an object with a "resources" array' }] });
    }
  });

  it('keeps the file an operator names, and only then', () => {
    const result = parseCatalogue([{ ...entry, file: 'docs/rfp.pdf' }, { ...entry, title: 'Second' }]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.entries[0]).toEqual({ entry: expect.objectContaining({ id: 'resilient-florida-program', tags: ['grants'] }), file: 'docs/rfp.pdf' });
    expect(result.entries[1]).not.toHaveProperty('file');
  });
});
