import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startRangeServer, TILE_LIST, writeTileCogs, type RangeServer } from '../../local/statewide-cogs';
import { HttpCogElevationSource, tileName } from '../../shared/adapters/elevation/cog-http';
import { modelsIn } from '../../shared/adapters/elevation/tiled-model';
import { groundAtPoint } from '../../shared/domain/hazards/ground';
import { startTestApp } from '../helpers/local-app';

/**
 * The statewide bare-earth reader against COGs built from the bundled Tampa quad, served over a
 * local HTTP server that counts the bytes it sends: a point reads kilobytes, not the file, and its
 * ground is the quad's own, read here from the quad's tiles without the code under test.
 */
const DEM_ROOT = path.join(__dirname, '../../shared/data/dem');
const TAMPA = path.join(DEM_ROOT, 'usgs-24k-tampa');
const record = JSON.parse(readFileSync(path.join(TAMPA, 'model.json'), 'utf8')) as { pyramid: { west: number; north: number; levels: Array<{ cell_lon: number; cell_lat: number }> } };
const level0 = { ...record.pyramid.levels[0]!, west: record.pyramid.west, north: record.pyramid.north };

/** A level-0 post of the quad: each tile is gzip of 256 × 256 little-endian float32 metres (then water flags). */
function post(row: number, col: number): number {
  const raw = gunzipSync(readFileSync(path.join(TAMPA, '0', `${Math.floor(col / 256)}-${Math.floor(row / 256)}.bin.gz`)));
  return raw.readFloatLE(((row % 256) * 256 + (col % 256)) * 4);
}
/** Bilinear between the four posts around a point (posts at cell centres, row 0 north). */
function quadGround(lat: number, lon: number): number {
  const x = (lon - level0.west) / level0.cell_lon, y = (level0.north - lat) / level0.cell_lat;
  const c = Math.floor(x), r = Math.floor(y), tx = x - c, ty = y - r;
  return (post(r, c) * (1 - tx) + post(r, c + 1) * tx) * (1 - ty) + (post(r + 1, c) * (1 - tx) + post(r + 1, c + 1) * tx) * ty;
}

const POINTS = [{ lat: 27.93, lon: -82.44 }, { lat: 27.955, lon: -82.47 }, { lat: 27.91, lon: -82.41 }];
/** A data directory whose statewide COGs are built already (the Tampa tile only), as `npm start` leaves them. */
let dataDir: string;
let directory: string;
let server: RangeServer;
let tiles: string[];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vac-cog-'));
  directory = path.join(dataDir, 'statewide-cogs');
  tiles = await writeTileCogs(modelsIn(DEM_ROOT).filter((m) => m.record.elevation_model_id === 'usgs-24k-tampa'), directory);
  writeFileSync(path.join(directory, TILE_LIST), tiles.join(','));
  server = await startRangeServer(directory);
}, 120_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('statewide COG reader over HTTP range requests', () => {
  it('reads a point with a few ranges (kilobytes, not the file) and gives the quad\'s own ground', async () => {
    const fileBytes = statSync(path.join(directory, `${tileName(-82.44, 27.93)}.tif`)).size;
    for (const point of POINTS) {
      // A fresh reader each time: the header and tile offsets are counted too.
      const reader = new HttpCogElevationSource({ urlTemplate: `${server.url}{tile}.tif`, tiles, elevationModelId: 'statewide-test', name: 'test', nativeResolution: '30 m' });
      server.resetCounts();
      const ground = await groundAtPoint(reader, point, 0);
      const { bytes, requests } = server.counts();
      expect(ground!.source.elevation_model_id).toBe('statewide-test');
      expect(ground!.ground_navd88_m).toBeCloseTo(quadGround(point.lat, point.lon), 4);
      expect(bytes).toBeLessThan(200 * 1024);
      expect(bytes).toBeLessThan(0.05 * fileBytes);
      expect(requests).toBeGreaterThan(0);
    }
  });

  it('makes no request for a tile the index does not list', async () => {
    const reader = new HttpCogElevationSource({ urlTemplate: `${server.url}{tile}.tif`, tiles, elevationModelId: 'statewide-test', name: 'test', nativeResolution: '30 m' });
    server.resetCounts();
    expect(await reader.grid([-81.01, 26.99, -81.0, 27.0], 1000)).toBeUndefined();
    expect(reader.extentAt(-81.005, 26.995)).toBeUndefined();
    expect(server.counts().requests).toBe(0);
  });

  it('refuses a server that ignores Range instead of reading the whole file', async () => {
    const whole = await import('node:http').then(({ createServer }) => createServer((_req, res) => res.end(readFileSync(path.join(directory, `${tiles[0]}.tif`)).subarray(0, 4096))));
    await new Promise<void>((resolve) => whole.listen(0, '127.0.0.1', resolve));
    const port = (whole.address() as { port: number }).port;
    const reader = new HttpCogElevationSource({ urlTemplate: `http://127.0.0.1:${port}/{tile}.tif`, tiles, elevationModelId: 'x', name: 'x', nativeResolution: 'x' });
    await expect(reader.grid([-82.441, 27.929, -82.439, 27.931], 100)).rejects.toThrow();
    await new Promise((resolve) => whole.close(resolve));
  });
});

describe('the API on the statewide COG source', () => {
  it('answers slr-impact on the statewide COGs of the bundled quads, served by the local app', async () => {
    const app = await startTestApp({ backgroundWorkers: false, statewideCogs: true, dataDir });
    try {
      const point = POINTS[0]!;
      const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.enterprise, json: { lat: point.lat, lon: point.lon, scenario: 'intermediate', planning_horizon: 2050, radius_km: 1 } });
      expect(res.status).toBe(200);
      const body = res.json as { elevation: { point_source_id: string; sources: Array<{ elevation_model_id: string }> }; ground_elevation_navd88: { m: number } };
      expect(body.elevation.point_source_id).toBe('statewide-cog');
      expect(body.elevation.sources.map((s) => s.elevation_model_id)).toContain('statewide-cog');
      expect(body.ground_elevation_navd88.m).toBeCloseTo(quadGround(point.lat, point.lon), 3);
    } finally {
      await app.stop();
    }
  }, 240_000);
});
