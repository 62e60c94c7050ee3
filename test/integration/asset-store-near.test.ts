import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/adapters/aws-clients';
import { DynamoAssetStore } from '../../shared/adapters/asset-store';
import { StoredAssetSource } from '../../shared/adapters/hazard-asset-source';
import { classifyAsset } from '../../shared/domain/assets/classification';
import type { ImportedAsset } from '../../shared/domain/assets/import-rows';
import { requiredSetting } from '../../shared/config';
import { startTestApp } from '../helpers/local-app';

const EARTH_RADIUS_KM = 6371.0088;
/** Great-circle distance, written out here so the test does not measure with the code's own. */
function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

function asset(n: number, lat: number, lon: number): ImportedAsset {
  const classification = classifyAsset([{ field: 'type', text: 'Fire Station' }]);
  return {
    asset_id: `a_${n.toString(16).padStart(24, '0')}`, jurisdiction_id: 'county:12057', name: `Asset ${n}`,
    category: classification.category!, asset_type: classification.asset_type, source_type: 'Fire Station', classification,
    lon, lat, geometry_type: 'Point', source_id: String(n), address: null, city: null, county: null, owner: null,
    attributes: {}, content_hash: `hash-${n}`,
  };
}

/** Items the table and its indexes hand back to Query calls while `work` runs. */
async function itemsQueried<T>(work: () => Promise<T>): Promise<{ result: T; items: number }> {
  const client = dynamo();
  const send = client.send.bind(client);
  let items = 0;
  const spy = jest.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
    const output = await send(command as QueryCommand);
    if (command instanceof QueryCommand) items += ((output as { Items?: unknown[] }).Items ?? []).length;
    return output;
  }) as never);
  try {
    return { result: await work(), items };
  } finally {
    spy.mockRestore();
  }
}

/** Point reads by place (gsi3 geohash cells) against the emulator. */
describe('assets near a point', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const now = new Date('2026-02-01T00:00:00Z');
  const tampa = { lat: 27.95, lon: -82.46 };

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  async function save(store: DynamoAssetStore, accountId: string, assets: ImportedAsset[], importId = 'imp_geo'): Promise<void> {
    const writer = await store.importWriter(accountId, { importId, jurisdictionId: 'county:12057', rows: assets.length, now });
    await writer.write(assets);
    await writer.finish();
  }

  it('reads only the assets in the cells around the point, and all of those within the radius', async () => {
    const store = new DynamoAssetStore();
    const account = 'acct_geo_near';
    // 30 assets within 3 km of the point, 600 spread 20–60 km away.
    const near = Array.from({ length: 30 }, (_, i) => asset(i, tampa.lat + ((i % 6) - 3) * 0.004, tampa.lon + (Math.floor(i / 6) - 2) * 0.004));
    const far = Array.from({ length: 600 }, (_, i) => asset(1000 + i, tampa.lat + 0.2 + (i % 20) * 0.02, tampa.lon + Math.floor(i / 20) * 0.013));
    await save(store, account, [...near, ...far]);

    const source = new StoredAssetSource(store);
    await source.assetsNear(account, tampa, 5); // the account's first point read checks for old assets once
    const { result, items } = await itemsQueried(() => source.assetsNear(account, tampa, 5));
    expect(items).toBeLessThan(near.length + 20);
    const expected = [...near, ...far].filter((a) => distanceKm(tampa, a) <= 5).map((a) => a.asset_id).sort();
    expect(expected).toHaveLength(30);
    expect(result.filter((a) => distanceKm(tampa, a) <= 5).map((a) => a.asset_id).sort()).toEqual(expected);

    // The same answer as the whole inventory, measured.
    const listed = await source.listAssets(account);
    expect(listed).toHaveLength(630);
    const fromInventory = listed.filter((a) => distanceKm(tampa, a) <= 5);
    expect(result.filter((a) => distanceKm(tampa, a) <= 5).sort((a, b) => a.asset_id.localeCompare(b.asset_id)))
      .toEqual(fromInventory.sort((a, b) => a.asset_id.localeCompare(b.asset_id)));
    expect((await source.assetsNear(account, { lat: 30.4, lon: -84.3 }, 5))).toEqual([]);
  });

  it('follows an asset an import moves', async () => {
    const store = new DynamoAssetStore();
    const account = 'acct_geo_moved';
    const moved = asset(1, tampa.lat, tampa.lon);
    await save(store, account, [moved]);
    expect((await store.near(account, tampa, 1)).map((a) => a.asset_id)).toEqual([moved.asset_id]);
    const elsewhere = { ...moved, lat: 26.64, lon: -81.87, content_hash: 'hash-moved' };
    await save(store, account, [elsewhere], 'imp_geo_2');
    expect(await store.near(account, tampa, 1)).toEqual([]);
    expect((await store.near(account, elsewhere, 1)).map((a) => a.asset_id)).toEqual([moved.asset_id]);
  });

  it('gives assets stored without a place key one on the first point read', async () => {
    const account = 'acct_geo_old';
    const old = asset(7, tampa.lat + 0.01, tampa.lon);
    // As written before gsi3: the table item with its other keys only.
    await dynamo().send(new PutCommand({
      TableName: requiredSetting('TABLE_NAME'),
      Item: { pk: `ACCOUNT#${account}`, sk: `ASSET#${old.asset_id}`, gsi1pk: `ASSETS#${account}#county:12057`, gsi1sk: `${old.category}#${old.asset_id}`, entity: 'asset', account_id: account, ...old, version: 1 },
    }));
    const store = new DynamoAssetStore();
    expect((await store.near(account, tampa, 2)).map((a) => a.asset_id)).toEqual([old.asset_id]);
    // A fresh store (another process) finds the marker and reads the cells alone.
    const { items } = await itemsQueried(() => new DynamoAssetStore().near(account, tampa, 2));
    expect(items).toBe(1);
  });
});
