import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCatalogue } from '../../shared/domain/library/catalogue';
import { resourceSlug } from '../../shared/domain/library/slug';

const seed = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/library/resources.json'), 'utf8'));

const valid = {
  title: 'Example Flood Guide',
  publisher: 'Town of Example',
  published: '2024-03',
  url: 'https://example.org/guide.pdf',
  category: 'guidance',
  file_type: 'pdf',
  summary: 'A guide.',
  tags: ['Flood', 'flood ', 'Guide'],
};

describe('library catalogue', () => {
  it('accepts the 60 seed entries with their own ids, in order', () => {
    const parsed = parseCatalogue(seed);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.entries).toHaveLength(60);
    expect(parsed.entries.map((e) => e.entry.id)).toEqual(seed.resources.map((r: { id: string }) => r.id));
    expect(new Set(parsed.entries.map((e) => e.entry.id)).size).toBe(60);
    expect(parsed.entries.every((e) => e.entry.file_path === null && e.file === undefined)).toBe(true);
    const first = parsed.entries[0]!.entry;
    expect(first).toMatchObject({ title: seed.resources[0].title, url: seed.resources[0].url, published: seed.resources[0].published, evidence: seed.resources[0].evidence });
  });

  it('keeps the unconfirmed candidates apart: none of them is seeded', () => {
    expect(Object.keys(seed).sort()).toEqual(['generated', 'resources', 'unconfirmed']);
    const parsed = parseCatalogue(seed);
    if (!parsed.ok) throw new Error('seed does not parse');
    const titles = new Set(parsed.entries.map((e) => e.entry.title));
    expect(seed.unconfirmed.filter((c: { title: string }) => titles.has(c.title))).toEqual([]);
  });

  it('takes only https publisher addresses, or null when none is confirmed, and never keeps a mirror', () => {
    expect(parseCatalogue([{ ...valid, url: 'http://example.org/guide.pdf' }])).toMatchObject({ ok: false, errors: [{ field: 'resources[0] ("Example Flood Guide").url' }] });
    const unconfirmed = parseCatalogue([{ ...valid, url: null, mirror_url: 'http://mirror.example.net/copy' }]);
    if (!unconfirmed.ok) throw new Error('rejected');
    expect(unconfirmed.entries[0]!.entry).toMatchObject({ url: null });
    expect(unconfirmed.entries[0]!.entry).not.toHaveProperty('mirror_url');
    const seeded = parseCatalogue(seed);
    if (!seeded.ok) throw new Error('seed does not parse');
    expect(seeded.entries.filter((e) => e.entry.url === null)).toHaveLength(seed.resources.filter((r: { url: string | null }) => r.url === null).length);
  });

  it('accepts a bare array, derives an id from the title and normalises tags', () => {
    const parsed = parseCatalogue([{ ...valid, file: 'guide.pdf' }]);
    expect(parsed).toEqual({
      ok: true,
      entries: [{
        entry: { ...valid, id: 'example-flood-guide', tags: ['flood', 'guide'], evidence: null, notes: null, file_path: null },
        file: 'guide.pdf',
      }],
    });
  });

  it('makes short URL-safe slugs', () => {
    expect(resourceSlug('Fla. Admin. Code Ann. R. 62S-7.012 - SLIP Study Standards')).toBe('fla-admin-code-ann-r-62s-7-012-slip-study-standards');
    expect(resourceSlug('Café & Résilience')).toBe('cafe-and-resilience');
    const long = resourceSlug('Global and Regional Sea Level Rise Scenarios for the United States: Updated Mean Projections');
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect('global-and-regional-sea-level-rise-scenarios-for-the-united-states'.startsWith(long)).toBe(true);
  });

  it('names the entry and the field of every error, and returns no entries then', () => {
    const parsed = parseCatalogue({
      resources: [
        valid,
        { ...valid, title: 'Second', url: 'ftp://example.org/x', published: '2024-13' },
        { ...valid, title: 'Third', summery: 'typo' },
        { ...valid, id: 'example-flood-guide', title: 'Fourth' },
        { ...valid, title: '!!!' },
        'not an object',
      ],
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.field)).toEqual([
      'resources[1] ("Second").published',
      'resources[1] ("Second").url',
      'resources[2] ("Third").summery',
      'resources[3] ("Fourth").id',
      'resources[4] ("!!!").id',
      'resources[5].(entry)',
    ]);
    expect(parsed.errors[3]!.message).toContain('Duplicate id "example-flood-guide"');
    expect(parsed.errors[2]!.message).toBe('Unknown field');
    // The other errors carry the schema's own reason, not the unknown-field one.
    for (const i of [0, 1, 5]) expect(parsed.errors[i]!.message).not.toBe('Unknown field');
    expect(parsed.errors[0]!.message.length).toBeGreaterThan(0);
  });

  it('reports missing required fields and a wrong root', () => {
    const parsed = parseCatalogue([{ title: 'Only a title' }]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors.map((e) => e.field).sort()).toEqual(
        ['category', 'file_type', 'publisher', 'summary', 'url'].map((f) => `resources[0] ("Only a title").${f}`),
      );
    }
    expect(parseCatalogue({ items: [] })).toEqual({ ok: false, errors: [{ field: '(root)', message: expect.stringContaining('resources') }] });
    expect(parseCatalogue(null).ok).toBe(false);
  });
});
