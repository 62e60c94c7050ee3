import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { dynamo, s3 } from '../../shared/adapters/aws-clients';
import { importAssetFile } from '../../shared/domain/assets/import-assets';
import { instrumentDynamo } from '../../bench/lib/dynamo-calls';
import { DynamoAssetStore, listAccountAssets } from '../../shared/adapters/asset-store';
import { DynamoImportStore } from '../../shared/adapters/import-store';
import { assessVulnerability } from '../../shared/domain/assets/vulnerability';
import { classifyAsset } from '../../shared/domain/assets/classification';
import type { ImportedAsset } from '../../shared/domain/assets/import-rows';
import { startTestApp } from '../helpers/local-app';
import { deliver, recordingStarter, s3Notification } from '../helpers/job-messages';
import { importJobs, importRunner } from '../../shared/application/assets/import-jobs';
import { assetAdapters } from '../../shared/adapters/asset-wiring';
import { runJob } from '../../shared/application/jobs/harness';
import { sweepLapsedJobs } from '../../shared/application/jobs/sweep';
import type { ImportRecord, WriteCounts } from '../../shared/domain/assets/ports';
import type { AssetExposure } from '../../shared/domain/hazards/asset-exposure';

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

  /** The import's record once no worker holds it any more. */
  const settled = async (importId: string): Promise<ImportRecord> => {
    for (let i = 0; i < 100; i++) {
      const record = (await new DynamoImportStore().get(account, importId))!;
      if (record.status !== 'processing') return record;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${importId} still processing`);
  };

  /** Writes assets as imports do: one writer per jurisdiction. */
  async function save(assets: ImportedAsset[], importId: string, accountId = account): Promise<WriteCounts> {
    const total: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
    for (const jurisdictionId of new Set(assets.map((a) => a.jurisdiction_id))) {
      const mine = assets.filter((a) => a.jurisdiction_id === jurisdictionId);
      const writer = await store.importWriter(accountId, { importId, jurisdictionId, rows: mine.length, now });
      await writer.write(mine);
      const counts = await writer.finish();
      for (const key of ['created', 'updated', 'unchanged'] as const) total[key] += counts[key];
    }
    return total;
  }

  it('creates new assets in batches, skips unchanged ones and updates changed ones without losing vulnerability', async () => {
    const assets = Array.from({ length: 80 }, (_, i) => asset(i));
    expect(await save(assets, 'imp_a')).toEqual({ created: 80, updated: 0, unchanged: 0 });

    const target = (await store.get(account, assets[3]!.asset_id))!;
    const assessed = await store.setVulnerability(account, target, assessVulnerability({ hazard_type: 'storm_surge', exposure: 1, sensitivity: 1, adaptive_capacity: 0, first_exposed_year: 2030 }, now), now);
    expect(assessed).toMatchObject({ version: 2, vulnerability_level: 'very_high' });
    expect(await store.setVulnerability(account, target, assessVulnerability({ hazard_type: 'storm_surge', vulnerability_score: 0.1, adaptive_capacity: 0, first_exposed_year: null }, now), now)).toBe('conflict');

    const changed = assets.map((a, i) => (i === 3 ? { ...a, name: 'Renamed', content_hash: 'hash-new' } : a));
    expect(await save(changed, 'imp_b')).toEqual({ created: 0, updated: 1, unchanged: 79 });
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
    const notification = s3Notification(app.resources.bucketName, key, 60);
    await deliver(handler, notification);
    await deliver(handler, notification);
    // The local upload watcher may deliver the same event a third time and hold the import when
    // both calls above find it leased; the record is read once no worker holds it.
    const record = await settled('imp_0123456789abcdef');
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

    it('resumes an abandoned import under a new lease and completes it', async () => {
      const key = await pendingImport('imp_lost000000000001');
      await claimedByDeadWorker('imp_lost000000000001', key);
      const starter = recordingStarter();
      await sweepLapsedJobs([importJobs(assetAdapters)], starter, new Date());
      const retry = starter.starts.find((start) => start.ref.job_id === 'imp_lost000000000001')!;
      expect(retry).toMatchObject({ kind: 'asset_import', retry_of: { owner: 'worker_dead', attempt: 1 } });
      await runJob(importRunner(assetAdapters), retry);
      expect(await settled('imp_lost000000000001')).toMatchObject({ status: 'complete', lease: null, report: { asset_count: 2 }, progress: { phase: 'done', rows_processed: 2 } });
      expect((await new DynamoImportStore().listExpiredLeases(new Date(Date.now() + 3_600_000))).map((r) => r.import_id)).not.toContain('imp_lost000000000001');
    });

    it('fails an import whose workers were lost three times, saying to start it again', async () => {
      const imports = new DynamoImportStore();
      const key = await pendingImport('imp_lost000000000002');
      let record = await claimedByDeadWorker('imp_lost000000000002', key);
      for (const attempt of [2, 3]) {
        record = (await imports.takeOver(record, { owner: 'worker_dead', now: new Date(Date.now() - 120_000), leaseMs: 60_000 }))!;
        expect(record.lease).toMatchObject({ attempt });
      }
      // A stale lease is taken over once only.
      expect(await imports.takeOver({ ...record, lease: { ...record.lease!, expires_at: '2000-01-01T00:00:00.000Z' } }, { owner: 'worker_x', now: new Date(), leaseMs: 60_000 })).toBeUndefined();
      const starter = recordingStarter();
      await sweepLapsedJobs([importJobs(assetAdapters)], starter, new Date());
      expect(starter.starts.map((start) => start.ref.job_id)).not.toContain('imp_lost000000000002');
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

  describe('the asset count and the calls an import makes', () => {
    const csv = (rows: { n: number; name: string }[]) => `FACILITY_ID,NAME,TYPE,LATITUDE,LONGITUDE\n${rows.map(({ n, name }) => `F${n},${name},Fire Station,${(25.5 + (n % 500) / 1000).toFixed(6)},${(-80.9 + Math.floor(n / 500) / 1000).toFixed(6)}`).join('\n')}\n`;
    const rows = (from: number, to: number, name = (n: number) => `Station ${n}`) => Array.from({ length: to - from }, (_, k) => ({ n: from + k, name: name(from + k) }));

    const importCsv = async (accountId: string, importId: string, text: string) => importAssetFile(store, {
      accountId, importId, jurisdictionId: 'county:12086', format: 'csv', options: { outside_jurisdiction: 'accept' },
      open: () => Readable.from([Buffer.from(text)]), now,
    });
    /** The count, checked against the inventory listed item by item. */
    const expectCount = async (accountId: string, expected: number) => {
      expect((await listAccountAssets(accountId)).length).toBe(expected);
      expect(await store.count(accountId)).toBe(expected);
    };

    it('stays exact across import, re-import, asset delete and import delete', async () => {
      const acct = 'acct_count_test';
      await expectCount(acct, 0);
      expect((await importCsv(acct, 'imp_c1', csv(rows(0, 30)))).written).toEqual({ created: 30, updated: 0, unchanged: 0 });
      await expectCount(acct, 30);
      // The same file again: nothing new.
      expect((await importCsv(acct, 'imp_c2', csv(rows(0, 30)))).written).toEqual({ created: 0, updated: 0, unchanged: 30 });
      await expectCount(acct, 30);
      // Ten known rows, two of them renamed, and five new ones.
      const third = await importCsv(acct, 'imp_c3', csv([...rows(20, 30, (i) => (i < 22 ? `Renamed ${i}` : `Station ${i}`)), ...rows(30, 35)]));
      expect(third.written).toEqual({ created: 5, updated: 2, unchanged: 8 });
      await expectCount(acct, 35);

      const all = await listAccountAssets(acct);
      const byImport = async (importId: string) => {
        const found: string[] = [];
        for (const location of all) if ((await store.get(acct, location.asset_id))!.created_by_import === importId) found.push(location.asset_id);
        return found;
      };
      const [fromFirst, fromThird] = [await byImport('imp_c1'), await byImport('imp_c3')];
      expect([fromFirst.length, fromThird.length]).toEqual([30, 5]);
      expect(await store.delete(acct, fromFirst[0]!)).toBe(true);
      expect(await store.delete(acct, fromFirst[0]!)).toBe(false);
      expect(await store.delete(acct, fromThird[0]!)).toBe(true);
      await expectCount(acct, 33);

      // Undoing the first import removes the 29 assets it created that remain; the third's 4 stay.
      expect(await store.deleteCreatedBy(acct, 'imp_c1')).toBe(29);
      await expectCount(acct, 4);
      // Those the third import only updated went with the first: importing the first file again creates all 30 anew, once.
      expect((await importCsv(acct, 'imp_c4', csv(rows(0, 30)))).written).toEqual({ created: 30, updated: 0, unchanged: 0 });
      await expectCount(acct, 34);
    });

    it('writes through the worker with at most 45 DynamoDB calls per 1,000 rows, and re-imports with fewer', async () => {
      const acct = 'acct_calls_test';
      // Enough rows that the fixed calls (claim, id key, count, finish) weigh as in a real import.
      const ROWS = 5000;
      const text = csv(rows(0, ROWS));
      const imports = new DynamoImportStore();
      const { handler } = await import('../../functions/asset-import-worker/handler');
      const runWorker = async (importId: string) => {
        const key = `uploads/${acct}/${importId}/assets.csv`;
        await imports.create({
          import_id: importId, account_id: acct, status: 'pending', mode: 'upload', filename: 'assets.csv', format: 'csv',
          jurisdiction: { id: 'county:12086', name: 'Miami-Dade County' }, asset_category: null, options: { outside_jurisdiction: 'accept' }, object_key: key,
          progress: { phase: 'waiting_for_upload', rows_processed: 0 }, report: null, error: null,
          created_at: new Date().toISOString(), updated_at: new Date().toISOString(), upload_expires_at: new Date(Date.now() + 60_000).toISOString(),
        });
        await s3().send(new PutObjectCommand({ Bucket: app.resources.bucketName, Key: key, Body: text }));
        let polls = 0;
        // Every call about this account, whoever makes it (the local upload watcher may claim the import
        // first), but the progress beat: it is written once a second, so it counts time, not rows, and
        // a loaded machine would add to it (the beat renews the lease with the progress: the only update
        // naming both).
        const progressBeat = (input: unknown) => {
          const names = Object.values((input as { ExpressionAttributeNames?: Record<string, string> }).ExpressionAttributeNames ?? {});
          return names.includes('progress') && names.includes('expires_at');
        };
        const calls = instrumentDynamo(dynamo(), { only: (input) => JSON.stringify(input).includes(acct) && !progressBeat(input) });
        try {
          await deliver(handler, s3Notification(app.resources.bucketName, key, text.length));
          while ((polls += 1) < 600 && (await imports.get(acct, importId))!.status !== 'complete') await new Promise((resolve) => setTimeout(resolve, 100));
        } finally {
          calls.remove();
        }
        // The polling reads above are the test's own.
        calls.byOperation.set('GetItem', calls.byOperation.get('GetItem')! - polls);
        return { calls, record: (await imports.get(acct, importId))! };
      };

      const first = await runWorker('imp_calls00000000001');
      expect(first.record).toMatchObject({ status: 'complete', report: { written: { created: ROWS, updated: 0, unchanged: 0 } } });
      expect(first.calls.byOperation.get('BatchGetItem')).toBeUndefined();
      expect(first.calls.byOperation.get('BatchWriteItem')).toBe(ROWS / 25);
      expect(first.calls.total()).toBeLessThanOrEqual((45 * ROWS) / 1000);

      const again = await runWorker('imp_calls00000000002');
      expect(again.record).toMatchObject({ status: 'complete', report: { written: { created: 0, updated: 0, unchanged: ROWS } } });
      expect(again.calls.byOperation.get('BatchWriteItem')).toBeUndefined();
      expect(again.calls.total()).toBeLessThanOrEqual(first.calls.total());
      expect(await store.count(acct)).toBe(ROWS);
    });
  });

  it('writes exposures, moving an asset between vulnerability levels only when its level changes', async () => {
    const accountId = 'acct_store_exposure';
    const assets = [asset(1), asset(2)];
    await save(assets, 'imp_exposure', accountId);
    const exposure = { analysis_id: 'fa_store', status: 'exposed' } as unknown as AssetExposure;
    const level = (score: number) => assessVulnerability({ hazard_type: 'tidal_flooding', vulnerability_score: score, adaptive_capacity: 0, first_exposed_year: 2030 }, now);
    const levelIds = async (vulnerabilityLevel: string) => (await store.list(accountId, { jurisdictionId: 'county:12087', vulnerabilityLevel }, { limit: 10 })).items.map((a) => a.asset_id).sort();
    const updates: string[] = [];
    const client = dynamo();
    client.middlewareStack.add((next) => async (args) => {
      const input = (args as { input: { UpdateExpression?: string; Key?: { pk?: string } } }).input;
      if (input.UpdateExpression && input.Key?.pk === `ACCOUNT#${accountId}`) updates.push(input.UpdateExpression);
      return next(args);
    }, { step: 'initialize', name: 'exposureUpdates' });
    try {
      const apply = async (score: number) => {
        updates.length = 0;
        const stored = await Promise.all(assets.map(async (a) => (await store.get(accountId, a.asset_id))!));
        expect(await store.applyExposures(accountId, stored.map((a) => ({ asset: a, exposure, vulnerability: level(score) })), now)).toBe(2);
      };
      await apply(0.9);
      expect(updates.every((u) => u.includes('gsi2pk'))).toBe(true);
      expect(await levelIds('very_high')).toEqual(assets.map((a) => a.asset_id).sort());
      // The same level again: exposure, vulnerability and history are written, gsi2's keys are not.
      await apply(0.8);
      expect(updates).toHaveLength(2);
      expect(updates.some((u) => u.includes('gsi2pk') || u.includes('vulnerability_level'))).toBe(false);
      expect(await levelIds('very_high')).toEqual(assets.map((a) => a.asset_id).sort());
      const kept = (await store.get(accountId, assets[0]!.asset_id))!;
      expect(kept).toMatchObject({ version: 3, vulnerability_level: 'very_high', exposure: { analysis_id: 'fa_store' }, vulnerability: { vulnerability_score: 0.8 } });
      expect(kept.vulnerability_history.map((c) => c.vulnerability.vulnerability_score)).toEqual([0.9, 0.8]);
      // A lower level moves both to its partition.
      await apply(0.1);
      expect(await levelIds('very_high')).toEqual([]);
      expect(await levelIds('low')).toEqual(assets.map((a) => a.asset_id).sort());
    } finally {
      client.middlewareStack.remove('exposureUpdates');
    }
  });

  it('keeps one secret asset-id key per account', async () => {
    const first = await store.idKey('acct_key_a');
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await new DynamoAssetStore().idKey('acct_key_a')).toBe(first);
    expect(await new DynamoAssetStore().idKey('acct_key_b')).not.toBe(first);
  });
});
