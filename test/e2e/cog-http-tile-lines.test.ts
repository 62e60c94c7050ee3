import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRangeServer, writeCog, type RangeServer } from '../../local/statewide-cogs';
import { HttpCogElevationSource } from '../../shared/adapters/elevation/cog-http';
import type { ElevationGrid } from '../../shared/domain/hazards/elevation';
import type { BBox } from '../../shared/domain/hazards/geo';
import { groundAtPoint } from '../../shared/domain/hazards/ground';

/**
 * Windows across 1° tile lines: four adjoining COGs around 28°N 82°W hold the plane
 * z = 2 + 40·(lon + 82) + 25·(lat − 28) at their cell centres, so every cell of a mosaic is known by
 * hand. Like 3DEP tiles they overlap their neighbours by 6 cells, and there they hold the plane
 * plus 500 m: a mosaic that took a cell from a tile not owning it would show it.
 */
const CELL = 1 / 1200;
const OVERLAP = 6;
const POISON = 500;
const plane = (lon: number, lat: number) => 2 + 40 * (lon + 82) + 25 * (lat - 28);
const SOUTH_WEST_CORNERS = [[-83, 27], [-82, 27], [-83, 28], [-82, 28]] as const;
const TILES = ['n28w083', 'n28w082', 'n29w083', 'n29w082'];

function planeTile(lonSW: number, latSW: number): Uint8Array {
  const size = 1200 + 2 * OVERLAP;
  const west = lonSW - OVERLAP * CELL, north = latSW + 1 + OVERLAP * CELL;
  const values = new Float32Array(size * size);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const inside = row >= OVERLAP && row < size - OVERLAP && col >= OVERLAP && col < size - OVERLAP;
      values[row * size + col] = plane(west + (col + 0.5) * CELL, north - (row + 0.5) * CELL) + (inside ? 0 : POISON);
    }
  }
  return writeCog({ width: size, height: size, values }, { west, north, cellLon: CELL, cellLat: CELL });
}

let directory: string;
let server: RangeServer;
let filesBytes = 0;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'vac-cog-lines-'));
  SOUTH_WEST_CORNERS.forEach(([lon, lat], i) => {
    const file = path.join(directory, `${TILES[i]}.tif`);
    writeFileSync(file, planeTile(lon, lat));
    filesBytes += statSync(file).size;
  });
  server = await startRangeServer(directory);
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const reader = () => new HttpCogElevationSource({ urlTemplate: `${server.url}{tile}.tif`, tiles: TILES, elevationModelId: 'plane', name: 'plane', nativeResolution: '3 arc-seconds' });

/** Every cell of the grid equals the plane at its centre, and its cells fill the box to within a cell of each side. */
function expectPlaneOver(grid: ElevationGrid, box: BBox): void {
  expect(grid.cellLon).toBeCloseTo(CELL, 9);
  expect(Math.abs(grid.west - box[0])).toBeLessThan(CELL);
  expect(Math.abs(grid.west + (grid.width - 1) * grid.cellLon - box[2])).toBeLessThan(CELL);
  expect(Math.abs(grid.north - box[3])).toBeLessThan(CELL);
  expect(Math.abs(grid.north - (grid.height - 1) * grid.cellLat - box[1])).toBeLessThan(CELL);
  let worst = 0;
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) {
      const expected = plane(grid.west + col * grid.cellLon, grid.north - row * grid.cellLat);
      worst = Math.max(worst, Math.abs(grid.values[row * grid.width + col]! - expected));
    }
  }
  // NaN (a cell left without data) makes `worst` NaN and fails too.
  expect(worst).toBeLessThan(1e-4);
}

describe('statewide COG windows across 1° tile lines', () => {
  it('mosaics a window over four tiles from each tile\'s own part, reading a few ranges of each', async () => {
    const box: BBox = [-82.05, 27.95, -81.95, 28.05];
    server.resetCounts();
    const grid = (await reader().grid(box, 60_000))!;
    expectPlaneOver(grid, box);
    expect(grid.width * grid.height).toBeGreaterThanOrEqual(119 * 119);
    const { bytes, requests } = server.counts();
    expect(requests).toBeGreaterThanOrEqual(4);
    expect(bytes).toBeLessThan(0.05 * filesBytes);
  });

  it('mosaics a window over two tiles across a meridian and across a parallel', async () => {
    for (const box of [[-82.03, 27.4, -81.99, 27.45], [-82.6, 27.98, -82.55, 28.01]] as BBox[]) {
      expectPlaneOver((await reader().grid(box, 60_000))!, box);
    }
  });

  it('keeps each part\'s share of the cells when the window is decimated', async () => {
    const box: BBox = [-82.2, 27.8, -81.8, 28.2];
    const grid = (await reader().grid(box, 10_000))!;
    expect(grid.width * grid.height).toBeLessThanOrEqual(10_000 * 1.1);
    expect(grid.width * grid.height).toBeGreaterThan(10_000 * 0.3);
    expect(grid.values.every((v) => Number.isFinite(v) && v < POISON - 100)).toBe(true);
  });

  it('reads a point within half a cell of the tile corner from the posts on both sides', async () => {
    for (const point of [{ lon: -82.0002, lat: 27.9998 }, { lon: -81.9997, lat: 28.0001 }, { lon: -82.0001, lat: 27.5 }]) {
      const ground = await groundAtPoint(reader(), point, 0);
      expect(ground!.ground_navd88_m).toBeCloseTo(plane(point.lon, point.lat), 4);
    }
  });

  it('reads nothing for a box that only touches a listed tile from an unlisted one', async () => {
    const source = new HttpCogElevationSource({ urlTemplate: `${server.url}{tile}.tif`, tiles: ['n28w083'], elevationModelId: 'plane', name: 'plane', nativeResolution: '3 arc-seconds' });
    server.resetCounts();
    expect(await source.grid([-82, 27.2, -81.9, 27.3], 1000)).toBeUndefined();
    expect(server.counts().requests).toBe(0);
  });
});
