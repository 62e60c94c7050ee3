import { writeArrayBuffer } from 'geotiff';
import { tampaBaySeaSurface } from '../helpers/tide-datums';
import { readTampaClip, TAMPA_SHIFT_M, US_FT } from '../helpers/dem-fixture';
import { startTestApp } from '../helpers/local-app';
import { writeTiff } from '../helpers/tiff-writer';

/**
 * Bring your own DEM through the API, as a county would: create a model, PUT the GeoTIFF to the
 * presigned URL, wait for the worker, then see the hazard analyses use it — for this account only.
 */
describe('elevation models through the API', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let clip: Awaited<ReturnType<typeof readTampaClip>>;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    clip = await readTampaClip();
  });
  afterAll(async () => {
    await app.stop();
  });

  const create = (key: string, json: unknown) => app.request('POST', '/hazards/elevation-models', { key, json });
  const get = (key: string, id: string) => app.request('GET', `/hazards/elevation-models/${id}`, { key });

  /** Polls the model until the worker has decided (ready or failed). */
  async function settled(id: string): Promise<any> {
    for (let i = 0; i < 240; i++) {
      const res = await get(app.keys.pro, id);
      if (res.json.status === 'ready' || res.json.status === 'failed') return res.json;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`Elevation model ${id} did not finish processing.`);
  }

  async function upload(body: Uint8Array | string, json: Record<string, unknown> = { name: 'Upload', vertical_datum: 'NAVD88', units: 'm' }) {
    const created = await create(app.keys.pro, json);
    expect(created.status).toBe(201);
    const put = await fetch(created.json.upload_url, { method: 'PUT', body });
    expect(put.status).toBe(200);
    return settled(created.json.elevation_model_id);
  }

  /** A smooth land cell well inside the clip (range under 2 ft over its 4 × 4 neighbourhood), and a point inside it between cell centres. */
  function smoothLandPoint(): { lat: number; lon: number } {
    for (let r = 20; r < clip.height - 20; r++) {
      for (let c = 20; c < clip.width - 20; c++) {
        const around = [-1, 0, 1, 2].flatMap((dr) => [-1, 0, 1, 2].map((dc) => clip.at(r + dr, c + dc)));
        if (Math.min(...around) > 8 && Math.max(...around) - Math.min(...around) < 2) {
          const [lon, lat] = clip.lonLatOf(r + 0.8, c + 0.9);
          return { lat, lon };
        }
      }
    }
    throw new Error('The fixture has no smooth land cell.');
  }

  let modelId: string;

  it('creates a pending model with a presigned upload, processes a State Plane feet NGVD29 GeoTIFF and reports what it found', async () => {
    const created = await create(app.keys.pro, {
      name: 'Tampa clip (State Plane West, NGVD29 ft)', vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M, vertical_accuracy_m: 0.5,
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'pending', upload_method: 'PUT', vertical_datum: 'NGVD29', units: 'ft', crs: null, bbox: null, error: null });
    expect(created.headers.get('location')).toMatch(new RegExp(`/hazards/elevation-models/${created.json.elevation_model_id}$`));
    expect(new URL(created.json.upload_url).hostname).toBe('127.0.0.1');
    modelId = created.json.elevation_model_id;

    const put = await fetch(created.json.upload_url, { method: 'PUT', body: clip.bytes });
    expect(put.status).toBe(200);
    const ready = await settled(modelId);
    expect(ready).toMatchObject({ status: 'ready', crs: { epsg: 2237 }, vertical_accuracy_m: 0.5, error: null });
    expect(ready.resolution_m).toBeCloseTo(100 * US_FT, 0);
    expect(ready.vertical_conversion).toMatch(/NGVD29.*NAVD88/);
    const [w, s, e, n] = ready.bbox as number[];
    const [west, north] = clip.lonLatOf(0, 0);
    const [east, south] = clip.lonLatOf(clip.height, clip.width);
    // The lattice's cell centres lie inside the file's extent, within a cell of its edges.
    for (const [inner, outer] of [[w, west], [s, south], [e, east], [n, north]]) expect(Math.abs(inner! - outer)).toBeLessThan(0.0005);

    const list = await app.request('GET', '/hazards/elevation-models', { key: app.keys.pro });
    expect(list.status).toBe(200);
    expect(list.json.data.map((m: { elevation_model_id: string }) => m.elevation_model_id)).toContain(modelId);
  });

  it('is used first by slr-impact inside it, with ground equal to the file read independently (converted to NAVD88)', async () => {
    const point = smoothLandPoint();
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { ...point, scenario: 'intermediate', planning_horizon: 2070 } });
    expect(res.status).toBe(200);
    expect(res.json.elevation.source).toMatchObject({ elevation_model_id: modelId, name: 'Tampa clip (State Plane West, NGVD29 ft)', vertical_accuracy_m: 0.5, surface_model: false });
    expect(res.json.elevation.source.resolution_m).toBeCloseTo(100 * US_FT, 0);
    const expected = clip.feetAt(point.lon, point.lat)! * US_FT + TAMPA_SHIFT_M;
    // The model is the file resampled bilinearly to a lon/lat lattice, read bilinearly again: on
    // ground this smooth the two interpolations agree within a centimetre or two.
    expect(Math.abs(res.json.ground_elevation_navd88.m - expected)).toBeLessThan(0.03);
  });

  it('traces its own tidal connection, which slr-impact and flood-analysis then read at the model\'s resolution', async () => {
    let model: any;
    for (let i = 0; i < 240; i++) {
      model = (await get(app.keys.pro, modelId)).json;
      if (model.connection?.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(model.connection).toEqual({ status: 'ready', tiles: 1, error: null });
    // Tampa Bay answers stand on St. Petersburg's and Clearwater Beach's datums: the run was traced at the lower MSL.
    const cacheOf = (res: { json: any }) => res.json.elevation.connection.model_cache;
    const impact = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { ...smoothLandPoint(), scenario: 'intermediate', planning_horizon: 2070 } });
    expect(impact.status).toBe(200);
    // Traced at the clip's own resolution already, the connection leaves the cache no lower path to add.
    expect(cacheOf(impact)).toMatchObject({ elevation_model_id: modelId, water_flag: false, used: true, cells_lowered: 0 });
    expect(cacheOf(impact).sea_surface_navd88_m).toBe(tampaBaySeaSurface());
    expect(cacheOf(impact).cell_size_m).toBeCloseTo(100 * US_FT, 0);
    const [west, north] = clip.lonLatOf(20, 20);
    const [east, south] = clip.lonLatOf(clip.height - 20, clip.width - 20);
    const boundary = { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] };
    const analysis = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: boundary, components: ['tidal'], scenarios: ['intermediate'], planning_horizons: [2050] } });
    expect(analysis.status).toBe(200);
    expect(cacheOf(analysis)).toMatchObject({ elevation_model_id: modelId, used: true, cells_lowered: 0 });
  });

  it('is used first by flood-analysis over a boundary inside it', async () => {
    const [west, north] = clip.lonLatOf(20, 20);
    const [east, south] = clip.lonLatOf(clip.height - 20, clip.width - 20);
    const boundary = { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] };
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: boundary, components: ['tidal'], scenarios: ['intermediate'], planning_horizons: [2050] } });
    expect(res.status).toBe(200);
    expect(res.json.elevation.source).toMatchObject({ elevation_model_id: modelId, surface_model: false });
  });

  it('makes one surface of a model uploaded in parts, processed once the last part arrives, with ground across the seams equal to the file', async () => {
    // The clip cut in four at row 50 and column 60: the smooth point's interpolation reads all four parts.
    const cuts = [[0, 50, 0, 60], [0, 50, 60, clip.width], [50, clip.height, 0, 60], [50, clip.height, 60, clip.width]];
    const { origin, cellSize, nodata } = clip.frame;
    const parts = cuts.map(([r0, r1, c0, c1]) => writeTiff({
      width: c1! - c0!, height: r1! - r0!, epsg: 2237, origin: [origin[0] + c0! * cellSize[0], origin[1] - r0! * cellSize[1]], cellSize,
      nodata: String(nodata), value: (r, c) => clip.at(r + r0!, c + c0!),
    }));
    const created = await create(app.keys.pro, { name: 'Tampa clip in four parts', vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M, parts: 4 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'pending', parts: 4, source: 'upload' });
    expect(created.json.upload_urls).toHaveLength(4);
    expect(created.json.upload_urls[0]).toBe(created.json.upload_url);
    expect(new Set(created.json.upload_urls).size).toBe(4);
    const id = created.json.elevation_model_id;
    for (const i of [3, 0, 2]) expect((await fetch(created.json.upload_urls[i], { method: 'PUT', body: parts[i] })).status).toBe(200);
    // Three parts of four: the upload watcher sees them and waits.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await get(app.keys.pro, id)).json.status).toBe('pending');
    expect((await fetch(created.json.upload_urls[1], { method: 'PUT', body: parts[1] })).status).toBe(200);
    const ready = await settled(id);
    expect(ready).toMatchObject({ status: 'ready', parts: 4, crs: { epsg: 2237 }, error: null });
    expect(ready.resolution_m).toBeCloseTo(100 * US_FT, 0);

    const point = smoothLandPoint();
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { ...point, scenario: 'intermediate', planning_horizon: 2070 } });
    expect(res.json.elevation.source).toMatchObject({ elevation_model_id: id, name: 'Tampa clip in four parts' });
    const expected = clip.feetAt(point.lon, point.lat)! * US_FT + TAMPA_SHIFT_M;
    expect(Math.abs(res.json.ground_elevation_navd88.m - expected)).toBeLessThan(0.03);
    expect((await app.request('DELETE', `/hazards/elevation-models/${id}`, { key: app.keys.pro })).status).toBe(204);
    // Without it the whole file's model answers, with the same ground to the millimetre.
    const after = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { ...point, scenario: 'intermediate', planning_horizon: 2070 } });
    expect(after.json.elevation.source.elevation_model_id).toBe(modelId);
    expect(after.json.ground_elevation_navd88.m).toBeCloseTo(res.json.ground_elevation_navd88.m, 3);
  });

  it('refuses parts with a COG URL, and more parts than a model may have', async () => {
    const withCog = await create(app.keys.pro, { name: 'x', vertical_datum: 'NAVD88', units: 'm', parts: 2, cog_url: 'https://lidar.example.org/dem.tif' });
    expect(withCog.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'parts' }] });
    for (const parts of [0, 65, 1.5]) expect((await create(app.keys.pro, { name: 'x', vertical_datum: 'NAVD88', units: 'm', parts })).json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'parts' }] });
  });

  it('replays a creation repeated with the same Idempotency-Key instead of creating a second model', async () => {
    const body = { name: 'Idempotent', vertical_datum: 'EGM96', units: 'm' };
    const headers = { 'Idempotency-Key': 'dem-create-once-1' };
    const first = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: body, headers });
    const again = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: body, headers });
    expect(again.status).toBe(201);
    expect(again.json.elevation_model_id).toBe(first.json.elevation_model_id);
    const other = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: { ...body, name: 'Other' }, headers });
    expect(other.json).toMatchObject({ code: 'idempotency_key_reused' });
    expect((await app.request('DELETE', `/hazards/elevation-models/${first.json.elevation_model_id}`, { key: app.keys.pro })).status).toBe(204);
  });

  it('is invisible to another account: 404, not listed, not used', async () => {
    expect((await get(app.keys.enterprise, modelId)).status).toBe(404);
    expect((await app.request('DELETE', `/hazards/elevation-models/${modelId}`, { key: app.keys.enterprise })).status).toBe(404);
    const list = await app.request('GET', '/hazards/elevation-models', { key: app.keys.enterprise });
    expect(list.json.data).toEqual([]);
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.enterprise, json: { ...smoothLandPoint(), scenario: 'intermediate', planning_horizon: 2070 } });
    expect(res.status).toBe(200);
    expect(res.json.elevation.source.elevation_model_id).not.toBe(modelId);
  });

  it('fails a file that is not a GeoTIFF, and one in a CRS it cannot reproject, with the reason', async () => {
    const garbage = await upload('this is not a raster at all');
    expect(garbage).toMatchObject({ status: 'failed', error: { code: 'not_a_geotiff' }, crs: null });
    const webMercator = writeArrayBuffer(new Float32Array(16).fill(3), {
      width: 4, height: 4, ModelPixelScale: [30, 30, 0], ModelTiepoint: [0, 0, 0, -9_180_000, 3_240_000, 0], GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 3857,
    }) as ArrayBuffer;
    const unknownCrs = await upload(new Uint8Array(webMercator));
    expect(unknownCrs).toMatchObject({ status: 'failed', error: { code: 'unsupported_crs' } });
    expect(unknownCrs.error.detail).toContain('EPSG:3857');
  });

  it('refuses invalid requests with problem+json and field errors', async () => {
    const noShift = await create(app.keys.pro, { name: 'x', vertical_datum: 'NGVD29', units: 'ft' });
    expect(noShift.status).toBe(400);
    expect(noShift.headers.get('content-type')).toContain('application/problem+json');
    expect(noShift.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'ngvd29_to_navd88_m' }] });
    const badDatum = await create(app.keys.pro, { name: 'x', vertical_datum: 'MLLW', units: 'm' });
    expect(badDatum.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'vertical_datum' }] });
    const unknownField = await create(app.keys.pro, { name: 'x', vertical_datum: 'NAVD88', units: 'm', crs: 'EPSG:2237' });
    expect(unknownField.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'crs' }] });
    expect((await get(app.keys.pro, 'em_nope')).json).toMatchObject({ code: 'invalid_request' });
    expect((await get(app.keys.pro, `em_${'0'.repeat(32)}`)).status).toBe(404);
    expect((await create(app.keys.free, { name: 'x', vertical_datum: 'NAVD88', units: 'm' })).json).toMatchObject({ code: 'subscription_required' });
    const badCursor = await app.request('GET', '/hazards/elevation-models?cursor=bm90LWEtY3Vyc29y', { key: app.keys.pro });
    expect(badCursor.status).toBe(400);
  });

  it('deletes a model: gone from the API and no longer used', async () => {
    const point = smoothLandPoint();
    expect((await app.request('DELETE', `/hazards/elevation-models/${modelId}`, { key: app.keys.pro })).status).toBe(204);
    expect((await get(app.keys.pro, modelId)).status).toBe(404);
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { ...point, scenario: 'intermediate', planning_horizon: 2070 } });
    expect(res.json.elevation.source.elevation_model_id).not.toBe(modelId);
  });
});
