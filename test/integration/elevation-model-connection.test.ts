import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { readCachedSpill, readConnectionStatus } from '../../shared/adapters/elevation/connection-cache';
import { s3 } from '../../shared/adapters/aws-clients';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { hashApiKey } from '../../shared/domain/api-keys';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import type { UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';
import { readCells, type PyramidIndex } from '../../shared/domain/elevation-models/pyramid';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { readTampaClip, TAMPA_SHIFT_M } from '../helpers/dem-fixture';
import { startTestApp } from '../helpers/local-app';
import { tampaBaySeaSurface } from '../helpers/tide-datums';

/**
 * An uploaded GeoTIFF through the local stack: processed to `ready`, its tidal connection then
 * traced on the thread pool (the local fan-out), the model saying `pending` and then `ready`, and
 * the cache beside its tiles equal to the flood of the whole of level 0; a run lost with its
 * process is started again by the sweep.
 */
describe('the tidal connection of an uploaded model', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    // The job workers and their sweep, as `npm start` runs them (nothing outbound).
    app = await startTestApp({ backgroundWorkers: 'jobs' });
  });
  afterAll(async () => {
    await app.stop();
  });

  async function pollModel(id: string, done: (model: any) => boolean): Promise<any> {
    for (let i = 0; i < 480; i++) {
      const res = await app.request('GET', `/hazards/elevation-models/${id}`, { key: app.keys.pro });
      expect(res.status).toBe(200);
      if (done(res.json)) return res.json;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`Elevation model ${id} did not get there.`);
  }

  it('is null while the model is pending, then traced once it is ready and cached equal to the single grid', async () => {
    const clip = await readTampaClip();
    const created = await app.request('POST', '/hazards/elevation-models', {
      key: app.keys.pro, json: { name: 'Tampa clip', vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M },
    });
    expect(created.status).toBe(201);
    expect(created.json.connection).toBeNull();
    const id = created.json.elevation_model_id as string;
    expect((await fetch(created.json.upload_url, { method: 'PUT', body: clip.bytes })).status).toBe(200);

    // The run is recorded just after the model turns ready.
    const ready = await pollModel(id, (model) => model.status === 'failed' || model.connection !== null);
    expect(ready.status).toBe('ready');
    expect(ready.connection).toMatchObject({ tiles: 1, error: null });
    const connected = await pollModel(id, (model) => model.connection?.status !== 'pending');
    expect(connected.connection).toEqual({ status: 'ready', tiles: 1, error: null });
    const listed = await app.request('GET', '/hazards/elevation-models', { key: app.keys.pro });
    expect(listed.json.data.find((model: any) => model.elevation_model_id === id).connection).toEqual({ status: 'ready', tiles: 1, error: null });

    // The cache, read from the bucket: every cell's spill level as one flood over level 0 gives it.
    const blobs = new S3BlobStore(app.resources.bucketName);
    const listing = await s3().send(new ListObjectsV2Command({ Bucket: app.resources.bucketName, Prefix: 'elevation-models/' }));
    const modelKey = listing.Contents!.map((object) => object.Key!).find((key) => key.endsWith(`/${id}/model.json`))!;
    const modelPrefix = modelKey.slice(0, -'model.json'.length);
    const pyramid = (JSON.parse((await blobs.get(modelKey))!.toString('utf8')) as { pyramid: PyramidIndex }).pyramid;
    const { width, height } = pyramid.levels[0]!;
    const { values } = await readCells(pyramid, 0, 0, 0, width, height, async (key) => new Uint8Array((await blobs.get(`${modelPrefix}${key}`))!));
    // Traced at the lower of the mean sea levels of the two gauges Tampa Bay takes (NOAA datums, to the millimetre below).
    const seaSurface = tampaBaySeaSurface();
    const water = Uint8Array.from(values, (v) => (v <= Math.fround(seaSurface) ? 1 : 0));
    const single = spillLevels({ values, width, height }, (i) => water[i] === 1);
    const spill = (await readCachedSpill(blobs, modelPrefix, { row: 0, col: 0, width, height }))!;
    expect(spill).toHaveLength(width * height);
    let differing = 0;
    for (let i = 0; i < spill.length; i++) if (!Object.is(spill[i], single[i])) differing++;
    expect(differing).toBe(0);
    expect(await readConnectionStatus(blobs, modelPrefix)).toEqual({ status: 'ready', tiles: 1, sea_surface_navd88_m: seaSurface });

    // Deleting the model removes its connection objects with its tiles.
    expect((await app.request('DELETE', `/hazards/elevation-models/${id}`, { key: app.keys.pro })).status).toBe(204);
    const left = await s3().send(new ListObjectsV2Command({ Bucket: app.resources.bucketName, Prefix: modelPrefix }));
    expect(left.Contents ?? []).toEqual([]);
  }, 180_000);

  it('starts a run lost with its process again once its lease lapsed, and records the new run ready', async () => {
    const clip = await readTampaClip();
    const created = await app.request('POST', '/hazards/elevation-models', {
      key: app.keys.pro, json: { name: 'Tampa clip, lost run', vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M },
    });
    const id = created.json.elevation_model_id as string;
    expect((await fetch(created.json.upload_url, { method: 'PUT', body: clip.bytes })).status).toBe(200);
    await pollModel(id, (model) => model.connection?.status === 'ready');

    // A run as a killed process leaves it: pending, its lease lapsed a minute ago, nothing recorded.
    const store = new DynamoElevationModelStore();
    const { accountId } = (await new DynamoAccountStore().findByKeyHash(hashApiKey(app.keys.pro)))!;
    const now = Date.now();
    const lost = {
      status: 'pending' as const, tiles: 1, run_id: 'conn_killed', started_at: new Date(now - 3 * 60_000).toISOString(), finished_at: null, error: null,
      lease: { owner: 'conn_killed', expires_at: new Date(now - 60_000).toISOString(), attempt: 1 },
    };
    expect(await store.startConnection(accountId, id, lost)).toBe(true);
    expect((await app.request('GET', `/hazards/elevation-models/${id}`, { key: app.keys.pro })).json.connection).toEqual({ status: 'pending', tiles: 1, error: null });

    // The sweep (every 15 s locally) sends it to the model's worker, which traces it again.
    const traced = await pollModel(id, (model) => model.connection?.status !== 'pending');
    expect(traced.connection).toEqual({ status: 'ready', tiles: 1, error: null });
    const record = (await store.get(accountId, id)) as UploadedElevationModel;
    expect(record.connection).toMatchObject({ status: 'ready', lease: null, error: null });
    expect(record.connection!.run_id).not.toBe('conn_killed');
  }, 180_000);
});
