import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { s3 } from '../../shared/adapters/aws-clients';
import { DynamoAssetStore, listAccountAssets } from '../../shared/adapters/asset-store';
import { DynamoImportStore } from '../../shared/adapters/import-store';
import { assessVulnerability } from '../../shared/domain/assets/vulnerability';
import { classifyAsset } from '../../shared/domain/assets/classification';
import type { ImportedAsset } from '../../shared/domain/assets/import-rows';
import { startTestApp } from '../helpers/local-app';
import type { ImportRecord } from '../../shared/domain/assets/ports';

function asset(n: number, overrides: Partial<ImportedAsset> = {}): ImportedAsset {
  const classification = classifyAsset([{ field: 'type', text: n % 2 ? 'Fire Station' : 'City Park' }]);
  return {
    asset_id: `a_${n.toString(16).padStart(24, '0')}`,
    jurisdiction_id: n < 60 ? 'county:12087' : 'county:12103',
    name: `Asset ${n}`,
    category: classification.category!,
    asset_type: classification.asset_type,
    source_type: n % 2 ? 'Fire Station' : 'City Park',
    classification,
    lon: -81.7 + n / 1000,
    lat: 24.6,
    geometry_type: 'Point',
    source_id: String(n),
    address: null, city: null, county: null, owner: null,
    attributes: {},
    content_hash: `hash-${n}`,
    ...overrides,
  };
}

/** The DynamoDB adapters and the S3-event path against the emulators. */
describe('asset and import stores (emulators)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let store: DynamoAssetStore;
  const account = 'acct_store_test';
  const now = new Date('2026-02-01T00:00:00Z');

  beforeAll(async () => {
    app = await startTestApp();
    store = new DynamoAssetStore();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('creates new assets in batches, skips unchanged ones and updates changed ones without losing vulnerability', async () => {
    const assets = Array.from({ length: 80 }, (_, i) => asset(i));
    expect(await store.saveImported(account, assets, 'imp_a', now)).toEqual({ created: 80, updated: 0, unchanged: 0 });

    const target = (await store.get(account, assets[3]!.asset_id))!;
    const assessed = await store.setVulnerability(account, target, assessVulnerability({ hazard_type: 'storm_surge', exposure: 1, sensitivity: 1, adaptive_capacity: 0, first_exposed_year: 2030 }, now), now);
    expect(assessed).toMatchObject({ version: 2, vulnerability_level: 'very_high' });
    expect(await store.setVulnerability(account, target, assessVulnerability({ hazard_type: 'storm_surge', vulnerability_score: 0.1, adaptive_capacity: 0, first_exposed_year: null }, now), now)).toBe('conflict');

    const changed = assets.map((a, i) => (i === 3 ? { ...a, name: 'Renamed', content_hash: 'hash-new' } : a));
    expect(await store.saveImported(account, changed, 'imp_b', now)).toEqual({ created: 0, updated: 1, unchanged: 79 });
    expect(await store.get(account, assets[3]!.asset_id)).toMatchObject({ name: 'Renamed', version: 3, vulnerability_level: 'very_high', import_id: 'imp_b' });
  });

  it('lists by jurisdiction, category, level and timeline with Query-only paging', async () => {
    const collect = async (filter: Parameters<DynamoAssetStore['list']>[1], limit: number) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list(account, filter, { limit, cursor });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        ids.push(...page.items.map((a) => a.asset_id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    expect(await collect({}, 7)).toHaveLength(80);
    expect(await collect({ jurisdictionId: 'county:12087' }, 9)).toHaveLength(60);
    expect(await collect({ jurisdictionId: 'county:12087', category: 'natural_cultural_historical' }, 4)).toHaveLength(30);
    expect(await collect({ category: 'community_emergency' }, 6)).toHaveLength(40);
    expect(await collect({ jurisdictionId: 'county:12087', vulnerabilityLevel: 'very_high', impactTimeline: 'near_term' }, 5)).toEqual([asset(3).asset_id]);
    expect(await collect({ jurisdictionId: 'county:12087', impactTimeline: 'near_term' }, 5)).toEqual([asset(3).asset_id]);
    expect(await collect({ jurisdictionId: 'county:12087', vulnerabilityLevel: 'not_assessed', category: 'community_emergency' }, 8)).toHaveLength(29);
    expect(await store.list('acct_other', {}, { limit: 10 })).toEqual({ items: [], nextCursor: undefined });
  });

  it('lists every asset position of an account for spatial analyses', async () => {
    const all = await listAccountAssets(account);
    expect(all).toHaveLength(80);
    expect(all[0]).toEqual({ asset_id: expect.any(String), name: expect.any(String), category: expect.any(String), asset_type: expect.any(String), jurisdiction_id: expect.any(String), lon: expect.any(Number), lat: expect.any(Number) });
    expect(await listAccountAssets(account, { jurisdictionId: 'county:12103' })).toHaveLength(20);
  });

  it('processes an S3 ObjectCreated event once, however often it is delivered', async () => {
    const imports = new DynamoImportStore();
    const key = `uploads/${account}/imp_0123456789abcdef/assets.csv`;
    await imports.create({
      import_id: 'imp_0123456789abcdef', account_id: account, status: 'pending', mode: 'upload', filename: 'assets.csv', format: 'csv',
      jurisdiction: { id: 'county:12087', name: 'Monroe County' }, asset_category: null, object_key: key,
      progress: { phase: 'waiting_for_upload', rows_processed: 0 }, report: null, error: null,
      created_at: new Date().toISOString(), updated_at: new Date().toISOString(), upload_expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await s3().send(new PutObjectCommand({ Bucket: app.resources.bucketName, Key: key, Body: 'name,type,lat,lon\nStation 9,Fire Station,24.56,-81.77\n' }));
    const { handler } = await import('../../functions/asset-import-worker/handler');
    const event = { Records: [{ eventSource: 'aws:s3', s3: { bucket: { name: app.resources.bucketName }, object: { key, size: 60 } } }] } as unknown as S3Event;
    await handler(event);
    await handler(event);
    const record = await imports.get(account, 'imp_0123456789abcdef');
    expect(record).toMatchObject({ status: 'complete', report: { asset_count: 1, written: { created: 1 } } });
    expect(await imports.listPending(new Date(0))).toEqual([]);
  });

  describe('leases of imports whose worker was lost', () => {
    const csv = 'name,type,lat,lon\nStation 1,Fire Station,24.56,-81.77\nStation 2,Fire Station,24.57,-81.76\n';
    const pendingImport = async (importId: string): Promise<string> => {
      const key = `uploads/${account}/${importId}/assets.csv`;
      await new DynamoImportStore().create({
        import_id: importId, account_id: account, status: 'pending', mode: 'upload', filename: 'assets.csv', format: 'csv',
        jurisdiction: { id: 'county:12087', name: 'Monroe County' }, asset_category: null, object_key: key,
        progress: { phase: 'waiting_for_upload', rows_processed: 0 }, report: null, error: null,
        created_at: new Date().toISOString(), updated_at: new Date().toISOString(), upload_expires_at: new Date(Date.now() + 60_000).toISOString(),
      });
      return key;
    };
    /** A worker that claimed the import and then died: its lease ran out a minute ago. */
    const claimedByDeadWorker = async (importId: string, key: string) => {
      const imports = new DynamoImportStore();
      const claimed = await imports.claim(account, importId, { owner: 'worker_dead', now: new Date(Date.now() - 120_000), leaseMs: 60_000, deadline: new Date(Date.now() + 3_600_000) });
      expect(claimed).toMatchObject({ status: 'processing', lease: { owner: 'worker_dead', attempt: 1 } });
      // The file arrives after the claim, so the local watcher never sees this import pending.
      await s3().send(new PutObjectCommand({ Bucket: app.resources.bucketName, Key: key, Body: csv }));
      return claimed!;
    };
    const settled = async (importId: string): Promise<ImportRecord> => {
      for (let i = 0; i < 100; i++) {
        const record = (await new DynamoImportStore().get(account, importId))!;
        if (record.status !== 'processing') return record;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${importId} still processing`);
    };

    it('resumes an abandoned import under a new lease and completes it', async () => {
      const { sweepLostImports, resumeImport } = await import('../../functions/assets/imports');
      const key = await pendingImport('imp_lost000000000001');
      await claimedByDeadWorker('imp_lost000000000001', key);
      for (const lost of await sweepLostImports()) await resumeImport(lost);
      expect(await settled('imp_lost000000000001')).toMatchObject({ status: 'complete', lease: null, report: { asset_count: 2 }, progress: { phase: 'done', rows_processed: 2 } });
      expect((await new DynamoImportStore().listExpiredLeases(new Date(Date.now() + 3_600_000))).map((r) => r.import_id)).not.toContain('imp_lost000000000001');
    });

    it('fails an import whose workers were lost three times, saying to start it again', async () => {
      const { sweepLostImports } = await import('../../functions/assets/imports');
      const imports = new DynamoImportStore();
      const key = await pendingImport('imp_lost000000000002');
      let record = await claimedByDeadWorker('imp_lost000000000002', key);
      for (const attempt of [2, 3]) {
        record = (await imports.takeOver(record, { owner: 'worker_dead', now: new Date(Date.now() - 120_000), leaseMs: 60_000 }))!;
        expect(record.lease).toMatchObject({ attempt });
      }
      // A stale lease is taken over once only.
      expect(await imports.takeOver({ ...record, lease: { ...record.lease!, expires_at: '2000-01-01T00:00:00.000Z' } }, { owner: 'worker_x', now: new Date(), leaseMs: 60_000 })).toBeUndefined();
      await sweepLostImports();
      expect(await settled('imp_lost000000000002')).toMatchObject({
        status: 'failed',
        error: { code: 'worker_lost', detail: expect.stringContaining('start it again (assets already written are updated, not duplicated)') },
      });
    });

    it('lets a worker that lost its lease neither renew nor finish the import', async () => {
      const imports = new DynamoImportStore();
      await pendingImport('imp_lost000000000003');
      const claimed = (await imports.claim(account, 'imp_lost000000000003', { owner: 'worker_a', now: new Date(Date.now() - 120_000), leaseMs: 60_000, deadline: new Date(Date.now() + 3_600_000) }))!;
      await imports.takeOver(claimed, { owner: 'worker_b', now: new Date(), leaseMs: 60_000 });
      expect(await imports.progress(account, 'imp_lost000000000003', 'worker_a', { phase: 'writing', rows_processed: 10 }, new Date(), 60_000)).toBe(false);
      expect(await imports.finish(account, 'imp_lost000000000003', { error: { code: 'x', detail: 'x' } }, new Date(), 'worker_a')).toBe(false);
      expect(await imports.progress(account, 'imp_lost000000000003', 'worker_b', { phase: 'writing', rows_processed: 10 }, new Date(), 60_000)).toBe(true);
      expect(await imports.get(account, 'imp_lost000000000003')).toMatchObject({ status: 'processing', lease: { owner: 'worker_b', attempt: 2 }, progress: { rows_processed: 10 } });
    });
  });

  it('keeps one secret asset-id key per account', async () => {
    const first = await store.idKey('acct_key_a');
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await new DynamoAssetStore().idKey('acct_key_a')).toBe(first);
    expect(await new DynamoAssetStore().idKey('acct_key_b')).not.toBe(first);
  });
});
