import { processDem, processStoredDem } from '../../shared/adapters/elevation/geotiff-dem';
import { AccountElevationModels } from '../../shared/adapters/elevation/processed-account-models';
import { accountModelPrefix, elevationUploadKey, MAX_DEM_UPLOAD_BYTES } from '../../shared/adapters/elevation/processed-keys';
import { type BlobModelSource, processedModelKeys, processedModelRecord, writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import type { UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';
import { readWindow } from '../../shared/domain/elevation-models/pyramid';
import { RasterError } from '../../shared/domain/elevation-models/reproject';
import { VerticalReferenceError } from '../../shared/domain/elevation-models/vertical';
import { resetConfigForTests } from '../../shared/config';
import { elevationModelRunner, processElevationUpload } from '../../shared/application/elevation-models/processing-jobs';
import type { ConnectionRunStart } from '../../shared/application/elevation-models/model-connection';
import { jobFailureOf } from '../../shared/domain/job-failure';
import { readTampaClip, TAMPA_SHIFT_M, US_FT } from '../helpers/dem-fixture';
import { tampaBaySeaSurface } from '../helpers/tide-datums';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { writeTiff } from '../helpers/tiff-writer';
import { ACCOUNT, entry, fakeFanOut, fakeStore, MODEL, oneRunOnly } from '../helpers/elevation-worker-fakes';

let clip: Awaited<ReturnType<typeof readTampaClip>>;
beforeAll(async () => {
  // Local mode: the default source is the bundled models, then SRTM.
  process.env.APP_MODE = 'local';
  resetConfigForTests();
  clip = await readTampaClip();
});

describe('elevation model worker', () => {
  it('tiles a claimed upload into the account prefix, records what it found and removes the GeoTIFF', async () => {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, clip.bytes);
    const store = fakeStore(entry());
    await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() }, entry().upload_key, clip.bytes.byteLength);
    expect(store.finished).toHaveLength(1);
    const { ready } = store.finished[0] as { ready: { crs: { epsg: number }; model_key: string; resolution_m: number } };
    expect(ready.crs.epsg).toBe(2237);
    expect(ready.resolution_m).toBeCloseTo(100 * US_FT, 0);
    expect(ready.model_key).toBe(`${accountModelPrefix(ACCOUNT, MODEL)}model.json`);
    const record = JSON.parse(blobs.objects.get(ready.model_key)!.toString('utf8'));
    for (const key of processedModelKeys(accountModelPrefix(ACCOUNT, MODEL), record)) expect(blobs.objects.has(key)).toBe(true);
    // The upload was read by ranges where it was, never fetched whole.
    expect(blobs.gets).not.toContain(entry().upload_key);
    expect(blobs.ranges.length).toBeGreaterThan(0);
    expect(blobs.ranges.every((range) => range.key === entry().upload_key)).toBe(true);
    expect(blobs.objects.has(entry().upload_key)).toBe(false);
  });

  it('waits for every part of a model uploaded in parts, then processes them as one and removes them all', async () => {
    const keys = [1, 2].map((part) => elevationUploadKey(ACCOUNT, MODEL, part));
    const value = (row: number, col: number) => 3 + row / 100 + col / 50;
    const half = (r0: number) => writeTiff({ width: 300, height: 100, epsg: 26917, origin: [340_000, 3_090_000 - r0 * 3], cellSize: [3, 3], value: (r, c) => value(r + r0, c) });
    const blobs = new MemoryBlobs();
    const store = fakeStore(entry({ status: 'pending', upload_keys: keys }));
    let claims = 0;
    const claim = store.claim;
    store.claim = async () => { claims++; return claim(); };
    const deps = { models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() };
    blobs.objects.set(keys[1]!, Buffer.from(half(100)));
    await processElevationUpload(deps, keys[1]!, undefined);
    expect({ claims, finished: store.finished }).toEqual({ claims: 0, finished: [] });
    blobs.objects.set(keys[0]!, Buffer.from(half(0)));
    await processElevationUpload(deps, keys[0]!, undefined);
    expect(claims).toBe(1);
    // One surface: what the same 300 × 200 cells uploaded as one file give.
    const wholeBlobs = new MemoryBlobs();
    wholeBlobs.objects.set(keys[0]!, Buffer.from(writeTiff({ width: 300, height: 200, epsg: 26917, origin: [340_000, 3_090_000], cellSize: [3, 3], value })));
    const wholeStore = fakeStore(entry());
    await processElevationUpload({ ...deps, models: wholeStore, blobs: wholeBlobs, processDem: processStoredDem(wholeBlobs) }, keys[0]!, undefined);
    expect(store.finished).toEqual(wholeStore.finished);
    expect((store.finished[0] as { ready: { crs: { epsg: number } } }).ready.crs.epsg).toBe(26917);
    expect(new Set(blobs.ranges.map((range) => range.key))).toEqual(new Set(keys));
    for (const key of keys) expect(blobs.objects.has(key)).toBe(false);
  });

  it('does not judge a file its storage failed to give: the lease let go with an attempt left, then failed storage_unavailable, never unreadable_raster', async () => {
    /** S3 answering the first read (the header), then failing every read (after the SDK's own retries). */
    class FailingBlobs extends MemoryBlobs {
      failed = 0;
      override async readRange(key: string, start: number, end: number) {
        if (this.ranges.length >= 1 && ++this.failed) throw Object.assign(new Error('We encountered an internal error. Please try again.'), { name: 'InternalError' });
        return super.readRange(key, start, end);
      }
    }
    // 4 MB of tiles: the samples are read after the header, in later ranges.
    const large = writeTiff({ width: 1200, height: 1000, epsg: 26917, origin: [340_000, 3_090_000], cellSize: [3, 3], compression: 'deflate', layout: { tile: 256 },
      value: (r, c) => 2 + Math.sin(r / 7) * Math.cos(c / 5) + ((r * 7919 + c * 104_729) % 1000) / 997 });
    const lease = (attempt: number) => ({ owner: `worker_${attempt}`, attempt, expires_at: '2026-11-23T21:16:00.000Z' });
    for (const attempt of [1, 2]) {
      const blobs = new FailingBlobs();
      blobs.objects.set(entry().upload_key, Buffer.from(large));
      const store = fakeStore(entry({ lease: lease(attempt) }));
      await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() }, entry().upload_key, large.byteLength);
      expect(blobs.failed).toBeGreaterThan(0);
      if (attempt === 1) {
        // Processed again by the sweep: the upload is kept, nothing recorded.
        expect({ released: store.released, finished: store.finished, kept: blobs.objects.has(entry().upload_key) }).toEqual({ released: ['worker_1'], finished: [], kept: true });
      } else {
        expect(store.released).toEqual([]);
        expect(store.finished).toEqual([{ error: { code: 'storage_unavailable', detail: expect.stringMatching(/^The upload could not be read from storage on 2 attempts \(Reading the stored upload failed: We encountered an internal error/) } }]);
      }
      // No tile is left behind either way.
      expect([...blobs.objects.keys()].filter((key) => key.startsWith(accountModelPrefix(ACCOUNT, MODEL)))).toEqual([]);
    }
  });

  it('starts the tidal connection of a model that turns ready, over level 0 in one tile, and records it pending', async () => {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, clip.bytes);
    const store = fakeStore(entry());
    const fanOut = fakeFanOut();
    await processElevationUpload({ models: store, blobs, now: () => new Date('2026-11-23T21:00:00.000Z'), processDem: processStoredDem(blobs), fanOut, processing: oneRunOnly() }, entry().upload_key, clip.bytes.byteLength);
    const { ready } = store.finished[0] as { ready: { model_key: string } };
    const level0 = JSON.parse(blobs.objects.get(ready.model_key)!.toString('utf8')).pyramid.levels[0];
    expect(fanOut.started).toHaveLength(1);
    const [{ run, tiles }] = fanOut.started as [ConnectionRunStart];
    // The clip is far smaller than a connection tile: one window, the whole of level 0.
    expect(tiles).toEqual([{ row: 0, col: 0, width: level0.width, height: level0.height }]);
    expect(run).toMatchObject({ account_id: ACCOUNT, elevation_model_id: MODEL, model_prefix: accountModelPrefix(ACCOUNT, MODEL) });
    // Tampa Bay takes St. Petersburg's and Clearwater Beach's datums: traced at the lower of their mean sea levels.
    expect(run.sea_surface_navd88_m).toBe(tampaBaySeaSurface());
    expect(run.sea_surface_navd88_m).toBeLessThan(0);
    // Leased to the run for the fan-out's lease, from its start.
    expect(store.connections.get(MODEL)).toEqual({
      status: 'pending', tiles: 1, run_id: run.run_id, started_at: '2026-11-23T21:00:00.000Z', finished_at: null, error: null,
      lease: { owner: run.run_id, expires_at: '2026-11-23T22:00:00.000Z', attempt: 1 },
    });
  });

  it('records the connection failed at once when its run cannot be started, and the model stays ready', async () => {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, clip.bytes);
    const store = fakeStore(entry());
    await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(true), processing: oneRunOnly() }, entry().upload_key, clip.bytes.byteLength);
    expect(store.finished).toEqual([{ ready: expect.anything() }]);
    expect(store.connections.get(MODEL)).toMatchObject({ status: 'failed', error: { code: 'connection_not_started' } });
  });

  /**
   * A model processed at 21:00 whose first connection run was then lost: the store reads it back
   * ready with that run pending, and the sweep's retry (its lapsed lease) reaches the runner at 23:00.
   */
  async function lostRun() {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, clip.bytes);
    const store = fakeStore(entry());
    const fanOut = fakeFanOut();
    const deps = { models: store, blobs, now: () => new Date('2026-11-23T21:00:00.000Z'), processDem: processStoredDem(blobs), fanOut, processing: oneRunOnly() };
    await processElevationUpload(deps, entry().upload_key, clip.bytes.byteLength);
    const { ready } = store.finished[0] as { ready: { model_key: string } };
    const lost = store.connections.get(MODEL)!;
    store.get = async () => entry({ status: 'ready', model_key: ready.model_key, connection: lost });
    const runner = elevationModelRunner({ ...deps, now: () => new Date('2026-11-23T23:00:00.000Z') });
    const retry = { kind: 'elevation_model' as const, ref: { account_id: ACCOUNT, job_id: MODEL }, retry_of: lost.lease! };
    return { blobs, store, fanOut, modelKey: ready.model_key, lost, runner, retry };
  }

  it('runs a ready model\'s lost connection again when the sweep sends its lapsed lease, once, one attempt more', async () => {
    const { store, fanOut, lost, runner, retry } = await lostRun();
    await runner.run(retry, {});
    expect(fanOut.started).toHaveLength(2);
    const again = fanOut.started[1]!.run;
    expect(again.run_id).not.toBe(lost.run_id);
    expect(store.connections.get(MODEL)).toEqual({
      status: 'pending', tiles: 1, run_id: again.run_id, started_at: '2026-11-23T23:00:00.000Z', finished_at: null, error: null,
      lease: { owner: again.run_id, expires_at: '2026-11-24T00:00:00.000Z', attempt: 2 },
    });
    // A second delivery of the same retry finds the run moved on, and starts nothing; nor is the model processed again.
    await runner.run(retry, {});
    expect(fanOut.started).toHaveLength(2);
    expect(store.finished).toHaveLength(1);
  });

  it('ends a lost run failed when the model\'s record cannot be read to start it again, so no sweep sends it back', async () => {
    const { blobs, store, fanOut, modelKey, lost, runner, retry } = await lostRun();
    blobs.objects.delete(modelKey);
    await runner.run(retry, {});
    expect(fanOut.started).toHaveLength(1);
    expect(store.connections.get(MODEL)).toMatchObject({ run_id: lost.run_id, status: 'failed', lease: null, error: { code: 'connection_not_started' } });
  });

  it('starts no connection for a model that failed', async () => {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, Buffer.from('not a tiff'));
    const store = fakeStore(entry());
    const fanOut = fakeFanOut();
    await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut, processing: oneRunOnly() }, entry().upload_key, 10);
    expect(store.finished).toEqual([{ error: expect.anything() }]);
    expect(fanOut.started).toEqual([]);
    expect(store.connections.size).toBe(0);
  });

  it('does nothing for a model another worker claimed, or a key that is not an elevation upload', async () => {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, clip.bytes);
    const store = fakeStore(undefined);
    await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() }, entry().upload_key, 10);
    await processElevationUpload({ models: fakeStore(entry()), blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() }, `uploads/${ACCOUNT}/imp_x/file.csv`, 10);
    expect(store.finished).toEqual([]);
    expect(blobs.gets).toEqual([]);
    expect(blobs.ranges).toEqual([]);
    expect(blobs.objects.has(entry().upload_key)).toBe(true);
  });

  it('refuses an upload over the size limit without reading it', async () => {
    const blobs = new MemoryBlobs();
    blobs.objects.set(entry().upload_key, Buffer.from('x'));
    const store = fakeStore(entry());
    await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() }, entry().upload_key, MAX_DEM_UPLOAD_BYTES + 1);
    expect(store.finished).toEqual([{ error: expect.objectContaining({ code: 'file_too_large' }) }]);
    expect(blobs.gets).toEqual([]);
    expect(blobs.ranges).toEqual([]);
  });

  it('names the part of a model in parts that is over the size limit, read from the bucket, not from one notification', async () => {
    const keys = [1, 2, 3].map((part) => elevationUploadKey(ACCOUNT, MODEL, part));
    /** Part 3 stored over the limit (its bytes stand in for a 1 GiB file). */
    class SizedBlobs extends MemoryBlobs {
      override async size(key: string) { return key === keys[2] ? MAX_DEM_UPLOAD_BYTES + 1 : super.size(key); }
    }
    const blobs = new SizedBlobs();
    for (const key of keys) blobs.objects.set(key, Buffer.from('x'));
    const store = fakeStore(entry({ status: 'pending', upload_keys: keys }));
    const deps = { models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() };
    // A key of this model that is none of its parts starts nothing.
    await processElevationUpload(deps, elevationUploadKey(ACCOUNT, MODEL, 4), 10);
    expect(store.finished).toEqual([]);
    await processElevationUpload(deps, keys[2]!, MAX_DEM_UPLOAD_BYTES + 1);
    expect(store.finished).toEqual([{ error: { code: 'file_too_large', detail: expect.stringMatching(/^Part 3 of 3 is 1073741825 bytes; at most 1073741824 \(1 GiB\)/) } }]);
    expect(blobs.ranges).toEqual([]);
  });

  it('leaves no tile behind when writing the model fails half-way, and records the failure', async () => {
    // The clip makes one tile and one overview: the second put fails, after one tile was written.
    const blobs = new MemoryBlobs(1);
    blobs.objects.set(entry().upload_key, clip.bytes);
    const store = fakeStore(entry());
    await processElevationUpload({ models: store, blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: fakeFanOut(), processing: oneRunOnly() }, entry().upload_key, undefined);
    expect(store.finished).toEqual([{ error: expect.objectContaining({ code: 'internal_error' }) }]);
    expect([...blobs.objects.keys()].filter((key) => key.startsWith('elevation-models/'))).toEqual([]);
  });

  it('names each refusal of the file with its own code, and leaves other errors to be reported as internal', () => {
    expect(jobFailureOf(new RasterError('The raster has 70000000 cells.', 'raster_too_large'))).toEqual({ code: 'raster_too_large', detail: 'The raster has 70000000 cells.' });
    expect(jobFailureOf(new RasterError('The GeoTIFF has 3 bands; an elevation model has one.'))?.code).toBe('unusable_raster');
    expect(jobFailureOf(new VerticalReferenceError('An NGVD29 model needs ngvd29_to_navd88_m'))?.code).toBe('invalid_vertical_reference');
    expect(jobFailureOf(new Error('socket hang up'))).toBeUndefined();
  });
});

describe('account models read from the bucket', () => {
  async function storedModel(blobs: MemoryBlobs, id: string, resolutionM: number, createdAt: string): Promise<UploadedElevationModel> {
    const processed = await processDem(clip.bytes, { vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M });
    const record = processedModelRecord(processed, { elevation_model_id: id, name: id, source_vertical_datum: 'NGVD29', vertical_accuracy_m: null, surface_model: false });
    const modelKey = await writeProcessedModel(blobs, accountModelPrefix(ACCOUNT, id), record, processed.tiles);
    return entry({ elevation_model_id: id, status: 'ready', model_key: modelKey, resolution_m: resolutionM, created_at: createdAt });
  }

  it('come finest first, then newest, and read the same windows as the tiles they were written from', async () => {
    const blobs = new MemoryBlobs();
    const older = await storedModel(blobs, `em_${'1'.repeat(32)}`, 30, '2026-01-01T00:00:00.000Z');
    const newer = await storedModel(blobs, `em_${'2'.repeat(32)}`, 30, '2026-06-01T00:00:00.000Z');
    const finer = await storedModel(blobs, `em_${'3'.repeat(32)}`, 3, '2025-01-01T00:00:00.000Z');
    const models = new AccountElevationModels({ listReady: async () => [older, newer, finer] }, blobs);
    const sources = (await models.sources(ACCOUNT)) as BlobModelSource[];
    expect(sources.map((s) => s.record.elevation_model_id)).toEqual([finer, newer, older].map((e) => e.elevation_model_id));

    const [source] = sources;
    const box = source!.record.bbox;
    const grid = (await source!.grid(box, 1e9))!;
    const direct = (await readWindow(source!.record.pyramid, box, 1e9, async (key) => blobs.objects.get(`${accountModelPrefix(ACCOUNT, finer.elevation_model_id)}${key}`)!, 'x'))!;
    expect(Array.from(grid.values)).toEqual(Array.from(direct.values));
    expect(source!.info()).toMatchObject({ elevation_model_id: finer.elevation_model_id, surface_model: false, vertical_datum: 'NAVD88' });
    // Every account model in that order, read before the bundled Tampa quad that covers the same
    // ground, with SRTM (a surface model, used only on request) after them all.
    const layers = (await models.elevationFor(ACCOUNT)).layersFor!(box).map((layer) => layer.info().elevation_model_id);
    expect(layers).toEqual([...[finer, newer, older].map((e) => e.elevation_model_id), 'usgs-24k-tampa', 'srtm-1arcsec']);
  });

  it('an account without ready models gets the default source (local mode: bundled models, then SRTM)', async () => {
    const models = new AccountElevationModels({ listReady: async () => [] }, new MemoryBlobs());
    const source = await models.elevationFor(ACCOUNT);
    expect(source.layersFor?.([-82.45, 27.93, -82.44, 27.94])[0]?.info().elevation_model_id).toBe('usgs-24k-tampa');
  });
});
