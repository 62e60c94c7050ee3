import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startTestApp } from '../helpers/local-app';
import { DynamoResourceStore } from '../../shared/adapters/resource-store';
import { dynamo } from '../../shared/adapters/aws-clients';
import { seedLibrary } from '../../local/seed-library';

const seed = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/library/resources.json'), 'utf8'));
/** A seed entry as the store answers it: no mirror (never stored), the link's status beside the link. */
const asStored = ({ mirror_url: _mirror, ...entry }: { url: string | null; mirror_url?: string }) => ({ ...entry, url_status: entry.url === null ? 'unconfirmed' : 'confirmed' });

/** The DynamoDB resource store against the local emulator, and the seeding the local app runs. */
describe('resource store (DynamoDB) and library seeding', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let store: DynamoResourceStore;
  const target = seed.resources[16];

  beforeAll(async () => {
    app = await startTestApp();
    store = new DynamoResourceStore();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('holds every seed resource after start, read back in one query of the catalogue index', async () => {
    const all = await store.listAll();
    expect(all.map((r) => r.id).sort()).toEqual(seed.resources.map((r: { id: string }) => r.id).sort());
    expect(all.find((r) => r.id === target.id)).toEqual({ ...asStored(target), file_path: null, views: 0, downloads: 0 });
  });

  it('stores one item per resource under its own key, indexed by id', async () => {
    const { Item } = await dynamo().send(new GetCommand({ TableName: app.resources.tableName, Key: { pk: `RESOURCE#${target.id}`, sk: 'RESOURCE' } }));
    expect(Item).toMatchObject({ gsi1pk: 'RESOURCES', gsi1sk: target.id, type: 'resource', views: 0, downloads: 0 });
  });

  it('counts concurrent views and downloads exactly, and creates nothing for an unknown id', async () => {
    const views = await Promise.all(Array.from({ length: 12 }, () => store.recordView(target.id)));
    expect(views.map((r) => r!.views).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    await Promise.all(Array.from({ length: 5 }, () => store.recordDownload(target.id)));
    expect(await store.get(target.id)).toMatchObject({ views: 12, downloads: 5 });
    expect(await store.recordView('no-such-resource')).toBeUndefined();
    expect(await store.recordDownload('no-such-resource')).toBeUndefined();
    expect(await store.get('no-such-resource')).toBeUndefined();
  });

  it('reseeding keeps the counters and a stored copy, and applies catalogue edits', async () => {
    await store.upsert([{ ...target, file_path: `library/${target.id}.pdf` }]);
    const edited = { ...seed, resources: seed.resources.map((r: { id: string }) => (r.id === target.id ? { ...r, summary: 'Edited summary.' } : r)) };
    expect(await seedLibrary(store, edited)).toEqual({ resources: 60, written: 1 });
    expect(await store.get(target.id)).toMatchObject({ summary: 'Edited summary.', views: 12, downloads: 5 });
    expect(await seedLibrary(store)).toEqual({ resources: 60, written: 1 });
    expect(await seedLibrary(store)).toEqual({ resources: 60, written: 0 });
    const all = await store.listAll();
    expect(all).toHaveLength(60);
    expect(all.find((r) => r.id === target.id)).toEqual({ ...asStored(target), file_path: `library/${target.id}.pdf`, views: 12, downloads: 5 });
  });

  it('a corrected catalogue reaches a data directory seeded from an older one, on the next start', async () => {
    // As an earlier catalogue stored it: a plain-http third-party copy as the entry's address.
    const corrected = seed.resources.find((r: { mirror_url?: string; url: string | null }) => r.url === null && r.mirror_url?.startsWith('http://'));
    const { mirror_url: mirrorUrl, ...entry } = corrected;
    await store.upsert([{ ...entry, url: mirrorUrl, file_path: null }]);
    expect(await store.get(corrected.id)).toMatchObject({ url: corrected.mirror_url, url_status: 'confirmed' });
    expect(await seedLibrary(store)).toEqual({ resources: 60, written: 1 });
    expect(await store.get(corrected.id)).toMatchObject({ url: null, url_status: 'unconfirmed' });
  });

  it('refuses an invalid catalogue before writing anything', async () => {
    const broken = { resources: [{ ...seed.resources[0], id: 'brand-new-entry' }, { ...seed.resources[1], url: 'not a url' }] };
    await expect(seedLibrary(store, broken)).rejects.toThrow(/resources\[1\].*\.url/);
    expect(await store.get('brand-new-entry')).toBeUndefined();
  });
});
