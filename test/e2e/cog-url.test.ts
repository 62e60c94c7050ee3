import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRangeServer, writeCog, type RangeServer } from '../../local/statewide-cogs';
import { CogUrlError, registerCogUrl, UrlCogSource } from '../../shared/adapters/elevation/cog-url';
import { groundAtPoint } from '../../shared/domain/hazards/ground';

/**
 * A COG registered by URL: its header is judged by range reads only (bytes counted), the URL by the
 * webhook rules, and it is then read where it is. The COG holds the plane
 * z = 1.5 + 30·(lon + 82.5) − 20·(lat − 27.5) at its cell centres, so a point's ground is known by hand.
 */
const CELL = 1 / 1200;
const WEST = -83, NORTH = 28, SIDE = 1200;
const plane = (lon: number, lat: number) => 1.5 + 30 * (lon + 82.5) - 20 * (lat - 27.5);

function cogOf(value: (lon: number, lat: number) => number): Uint8Array {
  const values = new Float32Array(SIDE * SIDE);
  for (let row = 0; row < SIDE; row++) {
    for (let col = 0; col < SIDE; col++) values[row * SIDE + col] = value(WEST + (col + 0.5) * CELL, NORTH - (row + 0.5) * CELL);
  }
  return writeCog({ width: SIDE, height: SIDE, values }, { west: WEST, north: NORTH, cellLon: CELL, cellLat: CELL });
}

let directory: string;
let server: RangeServer;
const local = { mode: 'local' as const };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CogUrlError);
  return (error as CogUrlError).code;
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'vac-cog-url-'));
  writeFileSync(path.join(directory, 'plane.tif'), cogOf(plane));
  writeFileSync(path.join(directory, 'feet.tif'), cogOf((lon, lat) => 20_000 + plane(lon, lat)));
  writeFileSync(path.join(directory, 'text.tif'), 'this is not a TIFF at all, only some text of a few dozen bytes\n'.repeat(64));
  server = await startRangeServer(directory);
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('registering a COG by URL', () => {
  it('describes a COG from its header and coarsest overview by ranges, not the file', async () => {
    server.resetCounts();
    const description = await registerCogUrl(`${server.url}plane.tif`, local);
    const { bytes, requests } = server.counts();
    expect(description.bbox).toEqual([WEST, NORTH - 1, WEST + 1, NORTH]);
    expect(description.cell_deg[0]).toBeCloseTo(CELL, 12);
    expect(description.epsg).toBe(4269);
    expect(description.overviews).toBe(3);
    // The plane's extremes over the coarsest image's cells (every 8th cell from the first).
    const corner = (col: number, row: number) => plane(WEST + (col * 8 + 0.5) * CELL, NORTH - (row * 8 + 0.5) * CELL);
    expect(description.min_m).toBeCloseTo(corner(0, 0), 4);
    expect(description.max_m).toBeCloseTo(corner(149, 149), 4);
    expect(requests).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(0.05 * statSync(path.join(directory, 'plane.tif')).size);
  });

  it('reads a registered COG where it is: a point\'s ground is the plane there', async () => {
    const description = await registerCogUrl(`${server.url}plane.tif`, local);
    const source = new UrlCogSource({ elevation_model_id: 'em_plane', name: 'plane', cog_url: `${server.url}plane.tif`, bbox: description.bbox, resolution_m: description.resolution_m }, local);
    for (const point of [{ lon: -82.7, lat: 27.3 }, { lon: -82.123, lat: 27.891 }]) {
      server.resetCounts();
      const ground = await groundAtPoint(source, point, 0);
      expect(ground!.source.elevation_model_id).toBe('em_plane');
      expect(ground!.ground_navd88_m).toBeCloseTo(plane(point.lon, point.lat), 4);
      expect(server.counts().bytes).toBeLessThan(512 * 1024);
    }
    expect(await source.grid([-81.5, 27.2, -81.4, 27.3], 1000)).toBeUndefined();
  });

  it('refuses values outside −500…9,000 m and a file that is not a GeoTIFF', async () => {
    expect(await refusal(registerCogUrl(`${server.url}feet.tif`, local))).toBe('elevation_out_of_range');
    expect(await refusal(registerCogUrl(`${server.url}text.tif`, local))).toBe('not_a_cog');
  });

  it('refuses a server that ignores Range, and says when nothing answers', async () => {
    const whole = createServer((_req, res) => res.end(Buffer.alloc(4096)));
    await new Promise<void>((resolve) => whole.listen(0, '127.0.0.1', resolve));
    const port = (whole.address() as AddressInfo).port;
    try {
      expect(await refusal(registerCogUrl(`http://127.0.0.1:${port}/plane.tif`, local))).toBe('cog_no_ranges');
    } finally {
      await new Promise((resolve) => whole.close(resolve));
    }
    // The port was just freed: nothing listens there.
    expect(await refusal(registerCogUrl(`http://127.0.0.1:${port}/plane.tif`, local))).toBe('cog_unreachable');
  });

  it('refuses loopback, private and metadata addresses outside local mode, before any request', async () => {
    server.resetCounts();
    const aws = { mode: 'aws' as const, resolve: async () => [{ address: '169.254.169.254', family: 4 }] };
    expect(await refusal(registerCogUrl(`${server.url}plane.tif`, aws))).toBe('cog_url_refused');
    expect(await refusal(registerCogUrl(`https://127.0.0.1/plane.tif`, aws))).toBe('cog_url_refused');
    expect(await refusal(registerCogUrl('https://10.1.2.3/dem.tif', aws))).toBe('cog_url_refused');
    expect(await refusal(registerCogUrl('https://dem.example.org/dem.tif', aws))).toBe('cog_url_refused');
    expect(await refusal(registerCogUrl('http://dem.example.org/dem.tif', aws))).toBe('cog_url_refused');
    // Local mode lets loopback through, nothing else private.
    expect(await refusal(registerCogUrl('http://10.1.2.3/dem.tif', local))).toBe('cog_url_refused');
    expect(server.counts().requests).toBe(0);
  });
});
