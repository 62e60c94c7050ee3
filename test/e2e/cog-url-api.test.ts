import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createElevationModel } from '../../functions/hazards/handler';
import { elevationModelDeps, idempotencyStore } from '../../functions/hazards/deps';
import { cogUrlReader } from '../../shared/adapters/elevation/cog-url';
import { startRangeServer, writeCog, type RangeServer } from '../../local/statewide-cogs';
import { HttpError } from '../../shared/http/problem';
import type { RouteRequest } from '../../shared/http/types';
import type { createElevationModelRoute } from '../../shared/routes/elevation-models';
import { startTestApp } from '../helpers/local-app';

/**
 * A COG registered by URL through the API, as a county with its lidar on a web server would: the
 * header is read by ranges, the model is ready at once, and the point analyses stand on it. The COG
 * holds the plane z = 20·(lon + 82.6) − 2·(lat − 27.5) metres at its cell centres (NAD83, 1/1200°
 * cells over −83…−82, 27…28): sea in the west, rising land in the east, so the point is coastal
 * and its ground is known by hand.
 */
const CELL = 1 / 1200;
const WEST = -83, NORTH = 28, SIDE = 1200;
const plane = (lon: number, lat: number) => 20 * (lon + 82.6) - 2 * (lat - 27.5);
/** US survey foot in metres, written out here rather than taken from the code under test. */
const US_FOOT_M = 1200 / 3937;
/** Downtown Tampa, inside the COG. */
const POINT = { lon: -82.4572, lat: 27.9506 };

function planeCog(): Uint8Array {
  const values = new Float32Array(SIDE * SIDE);
  for (let row = 0; row < SIDE; row++) {
    for (let col = 0; col < SIDE; col++) values[row * SIDE + col] = plane(WEST + (col + 0.5) * CELL, NORTH - (row + 0.5) * CELL);
  }
  return writeCog({ width: SIDE, height: SIDE, values }, { west: WEST, north: NORTH, cellLon: CELL, cellLat: CELL });
}

describe('registering a COG by URL through the API', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let server: RangeServer;
  let directory: string;
  let fileBytes: number;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'vac-cog-url-api-'));
    writeFileSync(path.join(directory, 'plane.tif'), planeCog());
    writeFileSync(path.join(directory, 'notes.tif'), 'not a GeoTIFF, only a few dozen bytes of text\n'.repeat(64));
    fileBytes = statSync(path.join(directory, 'plane.tif')).size;
    server = await startRangeServer(directory);
    app = await startTestApp({ backgroundWorkers: false });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const register = (key: string, json: Record<string, unknown>) => app.request('POST', '/hazards/elevation-models', { key, json });
  const slrImpact = (key: string) => app.request('POST', '/hazards/slr-impact', { key, json: { ...POINT, scenario: 'intermediate', planning_horizon: 2070 } });

  it('registers a COG from its header alone, ready at once, and a GET shows where it is read from', async () => {
    server.resetCounts();
    const created = await register(app.keys.pro, { name: 'Plane COG', vertical_datum: 'NAVD88', units: 'm', vertical_accuracy_m: 0.1, cog_url: `${server.url}plane.tif` });
    expect(created.status).toBe(201);
    const registered = server.counts();
    expect(registered.bytes).toBeLessThan(0.05 * fileBytes);
    expect(created.json).toMatchObject({ status: 'ready', source: 'cog_url', cog_url: `${server.url}plane.tif`, crs: { epsg: 4269 }, error: null, nodata: expect.any(Number) });
    expect(created.json.upload_url).toBeUndefined();
    expect(created.json.bbox).toEqual([WEST, NORTH - 1, WEST + 1, NORTH]);
    // 1/1200° of latitude is about 92.8 m; the reported size is the mean of both axes at 27.5° N.
    expect(created.json.resolution_m).toBeGreaterThan(80);
    expect(created.json.resolution_m).toBeLessThan(93);
    const id = created.json.elevation_model_id;
    expect(created.headers.get('location')).toMatch(new RegExp(`/hazards/elevation-models/${id}$`));

    const got = await app.request('GET', `/hazards/elevation-models/${id}`, { key: app.keys.pro });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ elevation_model_id: id, status: 'ready', source: 'cog_url', cog_url: `${server.url}plane.tif` });

    server.resetCounts();
    const res = await slrImpact(app.keys.pro);
    expect(res.status).toBe(200);
    expect(res.json.elevation.source).toMatchObject({ elevation_model_id: id, name: 'Plane COG', vertical_accuracy_m: 0.1, surface_model: false });
    // Bilinear interpolation of a plane is the plane.
    expect(res.json.ground_elevation_navd88.m).toBeCloseTo(plane(POINT.lon, POINT.lat), 2);
    // Tidal connection is traced over the whole model (here small enough to read at full resolution):
    // the first analysis reads each tile it needs once, never the file whole.
    const first = server.counts();
    expect(first.requests).toBeGreaterThan(0);
    expect(first.bytes).toBeLessThan(fileBytes);

    // A second point is read from the model kept open (its header is not read again).
    server.resetCounts();
    const near = { lon: POINT.lon + 0.01, lat: POINT.lat - 0.01 };
    const again = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { ...near, scenario: 'intermediate', planning_horizon: 2070 } });
    expect(again.json.elevation.source.elevation_model_id).toBe(id);
    expect(again.json.ground_elevation_navd88.m).toBeCloseTo(plane(near.lon, near.lat), 2);
    expect(server.counts().bytes).toBeLessThan(fileBytes);
  }, 60_000);

  it('converts a COG in NGVD29 feet as an upload would: feet to metres, then the stated shift', async () => {
    const created = await register(app.keys.enterprise, { name: 'Plane COG in feet', vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: -0.25, cog_url: `${server.url}plane.tif` });
    expect(created.status).toBe(201);
    expect(created.json.vertical_conversion).toMatch(/NGVD29.*NAVD88/);
    const res = await slrImpact(app.keys.enterprise);
    expect(res.json.elevation.source.elevation_model_id).toBe(created.json.elevation_model_id);
    expect(res.json.ground_elevation_navd88.m).toBeCloseTo(plane(POINT.lon, POINT.lat) * US_FOOT_M - 0.25, 2);
  }, 60_000);

  it('deletes a registered COG like any model: the analyses stop using it, the file is untouched', async () => {
    const created = await register(app.keys.enterprise, { name: 'Plane to delete', vertical_datum: 'NAVD88', units: 'm', cog_url: `${server.url}plane.tif` });
    const id = created.json.elevation_model_id;
    const deleted = await app.request('DELETE', `/hazards/elevation-models/${id}`, { key: app.keys.enterprise });
    expect(deleted.status).toBe(204);
    expect((await app.request('GET', `/hazards/elevation-models/${id}`, { key: app.keys.enterprise })).status).toBe(404);
    expect((await slrImpact(app.keys.enterprise)).json.elevation.source.elevation_model_id).not.toBe(id);
    expect(statSync(path.join(directory, 'plane.tif')).size).toBe(fileBytes);
  }, 60_000);

  it('answers the same model again for the same Idempotency-Key', async () => {
    const body = { name: 'Plane again', vertical_datum: 'NAVD88', units: 'm', cog_url: `${server.url}plane.tif` };
    const first = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: body, headers: { 'Idempotency-Key': 'cog-plane-1' } });
    const again = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: body, headers: { 'Idempotency-Key': 'cog-plane-1' } });
    expect(first.status).toBe(201);
    expect(again.json.elevation_model_id).toBe(first.json.elevation_model_id);
  });

  it('refuses what cannot be read by ranges as an elevation model, with stable codes and nothing stored', async () => {
    const before = (await app.request('GET', '/hazards/elevation-models', { key: app.keys.pro })).json.data.length;
    const cases: Array<[string, number, string]> = [
      [`${server.url}notes.tif`, 422, 'not_a_cog'],
      [`${server.url.replace('http://', 'http://user:secret@')}plane.tif`, 400, 'cog_url_refused'],
      ['http://10.1.2.3/dem.tif', 400, 'cog_url_refused'],
      ['ftp://example.org/dem.tif', 400, 'cog_url_refused'],
    ];
    for (const [url, status, code] of cases) {
      const res = await register(app.keys.pro, { name: 'Refused', vertical_datum: 'NAVD88', units: 'm', cog_url: url });
      expect({ url, status: res.status, code: res.json.code }).toEqual({ url, status, code });
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(JSON.stringify(res.json)).not.toContain('secret');
    }
    expect((await app.request('GET', '/hazards/elevation-models', { key: app.keys.pro })).json.data.length).toBe(before);
  });

  it('outside local mode refuses a loopback COG before reading anything', async () => {
    const create = createElevationModel(() => ({ ...elevationModelDeps(), cogs: cogUrlReader({ mode: 'aws' }) }), idempotencyStore);
    server.resetCounts();
    const request = {
      body: { name: 'Loopback', vertical_datum: 'NAVD88', units: 'm', cog_url: `${server.url}plane.tif` },
      headers: {}, account: { accountId: 'acct_loopback' }, now: new Date(), baseUrl: 'http://127.0.0.1/api', params: {}, query: {},
    } as unknown as RouteRequest<typeof createElevationModelRoute>;
    const error = await create(request).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect({ code: (error as HttpError).code, status: (error as HttpError).status }).toEqual({ code: 'cog_url_refused', status: 400 });
    expect(server.counts().requests).toBe(0);
  });
});
