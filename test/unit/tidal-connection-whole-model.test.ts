import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BUNDLED_MODELS_DIR } from '../../shared/adapters/elevation';
import { LayeredElevationSource } from '../../shared/adapters/elevation/layered';
import { modelsIn } from '../../shared/adapters/elevation/tiled-model';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import type { BBox } from '../../shared/domain/hazards/geo';
import { assessSlrImpact, type SlrImpactRequest } from '../../shared/domain/hazards/slr-impact';
import { colLonOf, croppingSource, haversineKm, rowLatOf, sphericalCellAcres, type GridFrame } from '../helpers/test-grid';

/**
 * Tidal connection is decided over the whole elevation model, not the radius window: the depth at
 * a point is the same for every radius. Checked on an analytic channel and on a bundled USGS quad,
 * whose connection is traced here by a breadth-first search over its raw tiles.
 */

/** The same source with its extent forgotten: connection is then traced within the window only. */
const windowOnly = (source: ElevationSource): ElevationSource => ({
  info: () => source.info(),
  grid: (box, maxCells) => source.grid(box, maxCells),
  ...(source.layersFor ? { layersFor: (box: BBox) => source.layersFor!(box) } : {}),
});

describe('a channel reaching the sea outside a small window', () => {
  // 200 × 200 cells of 0.0005° (about 50 m): the bay west of column 5, land at 3 m, a one-cell
  // channel at 0.4 m along row 100 from the bay to a basin at 0.6 m (rows 90–110, columns 150–190).
  const FRAME: GridFrame = { west: -82.52, north: 27.97, cell: 0.0005, size: 200 };
  const colLon = colLonOf(FRAME), rowLat = rowLatOf(FRAME);
  const BASIN = 0.6;
  const inBasin = (row: number, col: number) => row >= 90 && row <= 110 && col >= 150 && col <= 190;
  const terrain = (dam: boolean) => (row: number, col: number) => {
    if (col < 5) return -1;
    if (inBasin(row, col)) return BASIN;
    if (row === 100 && col < 150) return dam && col === 100 ? 3 : 0.4;
    return 3;
  };
  const whole: BBox = [FRAME.west, FRAME.north - 199 * FRAME.cell, FRAME.west + 199 * FRAME.cell, FRAME.north];
  const model = (dam: boolean) => croppingSource(FRAME, terrain(dam), {}, { extentAt: () => whole });
  const centre = { lat: rowLat(100), lon: colLon(170) };
  const request = (radiusKm: number): SlrImpactRequest => ({ point: centre, scenario: 'high', planningHorizon: 2100, percentile: '50', radiusKm, includeGeoJson: false, currentYear: 2026 });
  const RADII = [0.3, 0.6, 1, 2, 4];

  it('floods the basin to the same depth at every radius, the smallest of which holds no open water', async () => {
    // 0.3 km reaches 6 cells from the centre: all basin, no bay.
    expect(haversineKm(centre, { lat: centre.lat, lon: colLon(150) })).toBeGreaterThan(0.3);
    for (const radiusKm of RADII) {
      const answer = await assessSlrImpact(request(radiusKm), { elevation: model(false), assets: [] });
      const level = answer.projected_mhhw_navd88.m;
      expect(level).toBeGreaterThan(BASIN);
      expect(answer.location_setting.setting).toBe('coastal');
      expect(answer.ground_elevation_navd88!.m).toBeCloseTo(BASIN, 4);
      expect(answer.water_depth).toMatchObject({ inundated: true });
      expect(answer.water_depth!.m).toBeCloseTo(level - BASIN, 3);
    }
  });

  it('reports the new inundated land within the radius only: the basin cells within 0.3 km', async () => {
    const answer = await assessSlrImpact(request(0.3), { elevation: model(false), assets: [] });
    expect(answer.existing_water!.today_mhhw_navd88.m).toBeLessThan(BASIN);
    let acres = 0;
    for (let row = 0; row < FRAME.size; row++) {
      for (let col = 0; col < FRAME.size; col++) {
        if (inBasin(row, col) && haversineKm(centre, { lat: rowLat(row), lon: colLon(col) }) <= 0.3) acres += sphericalCellAcres(FRAME, row);
      }
    }
    expect(acres).toBeGreaterThan(0);
    expect(Math.abs(answer.inundation_area!.acres - acres)).toBeLessThan(0.01 * acres);
  });

  it('leaves the basin dry at every radius once a dam cuts the channel, and says it is not connected', async () => {
    for (const radiusKm of RADII) {
      const answer = await assessSlrImpact(request(radiusKm), { elevation: model(true), assets: [] });
      expect(answer.location_setting.setting).toBe('coastal');
      expect(answer.water_depth).toMatchObject({ m: 0, inundated: false });
      expect(answer.water_depth!.note).toMatch(/not connected to open water anywhere in the elevation model/);
    }
  });

  it('is what a window-only trace gets wrong: inland, the bay being 8 km away', async () => {
    for (const radiusKm of RADII) {
      expect((await assessSlrImpact(request(radiusKm), { elevation: windowOnly(model(false)), assets: [] })).location_setting.setting).toBe('inland');
    }
  });
});

describe('a point on the bundled Tampa quad', () => {
  const models = modelsIn(BUNDLED_MODELS_DIR);
  const tampa = models.find((m) => m.record.elevation_model_id === 'usgs-24k-tampa')!;
  const source = new LayeredElevationSource(models);

  /** Level 0 of the quad read from its tiles here (gzip: 256² float32 metres, then a water byte each). */
  function rawQuad() {
    const { west, north, levels } = tampa.record.pyramid;
    const { width, height, cell_lon: cellLon, cell_lat: cellLat } = levels[0]!;
    const values = new Float32Array(width * height).fill(Number.NaN);
    const water = new Uint8Array(width * height);
    const dir = path.join(BUNDLED_MODELS_DIR, 'usgs-24k-tampa', '0');
    for (const tile of levels[0]!.tiles) {
      const [tx, ty] = tile.split('-').map(Number) as [number, number];
      const raw = gunzipSync(readFileSync(path.join(dir, `${tile}.bin.gz`)));
      const tileValues = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + 256 * 256 * 4));
      for (let r = 0; r < 256; r++) {
        for (let c = 0; c < 256; c++) {
          const row = ty * 256 + r, col = tx * 256 + c;
          if (row >= height || col >= width) continue;
          values[row * width + col] = tileValues[r * 256 + c]!;
          water[row * width + col] = raw[256 * 256 * 4 + r * 256 + c]!;
        }
      }
    }
    return { values, water, width, height, west, north, cellLon, cellLat };
  }
  const quad = rawQuad();

  /** Cells reached from the quad's water through cells below `level` (8 neighbours), by breadth-first search. */
  function reachedBelow(level: number): Uint8Array {
    const { values, width, height } = quad;
    const reached = new Uint8Array(values.length);
    const queue: number[] = [];
    for (let i = 0; i < values.length; i++) if (quad.water[i] && values[i]! < level) { reached[i] = 1; queue.push(i); }
    for (let head = 0; head < queue.length; head++) {
      const i = queue[head]!;
      const row = Math.floor(i / width), col = i % width;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const r = row + dr, c = col + dc;
          if (r < 0 || c < 0 || r >= height || c >= width) continue;
          const j = r * width + c;
          if (!reached[j] && values[j]! < level) { reached[j] = 1; queue.push(j); }
        }
      }
    }
    return reached;
  }

  function expectedAt(point: { lat: number; lon: number }, level: number) {
    const fc = (point.lon - quad.west) / quad.cellLon, fr = (quad.north - point.lat) / quad.cellLat;
    const c0 = Math.floor(fc), r0 = Math.floor(fr), tx = fc - c0, ty = fr - r0;
    const at = (r: number, c: number) => quad.values[r * quad.width + c]!;
    const ground = (at(r0, c0) * (1 - tx) + at(r0, c0 + 1) * tx) * (1 - ty) + (at(r0 + 1, c0) * (1 - tx) + at(r0 + 1, c0 + 1) * tx) * ty;
    const cell = Math.round(fr) * quad.width + Math.round(fc);
    const connected = quad.water[cell] === 1 || reachedBelow(level)[cell] === 1;
    return { ground, depth: connected ? Math.max(0, level - ground) : 0 };
  }

  // Points whose 3 km window stays inside the quad, from a seeded generator, and two where a window
  // of 0.3 km holds no water though the ground 1 km around is flooded from Hillsborough Bay.
  const [w, s, e, n] = tampa.record.bbox;
  const MARGIN_LON = 0.035, MARGIN_LAT = 0.03;
  let seed = 44;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const points = [
    { lat: 27.93499, lon: -82.44047 },
    { lat: 27.91758, lon: -82.43466 },
    ...Array.from({ length: 6 }, () => ({ lat: s + MARGIN_LAT + next() * (n - s - 2 * MARGIN_LAT), lon: w + MARGIN_LON + next() * (e - w - 2 * MARGIN_LON) })),
  ];
  const RADII = [0.3, 0.5, 1, 2, 3];

  it('keeps every point\'s 3 km window inside the quad', () => {
    for (const point of points) {
      expect(haversineKm(point, { lat: point.lat, lon: w })).toBeGreaterThan(3);
      expect(haversineKm(point, { lat: point.lat, lon: e })).toBeGreaterThan(3);
      expect(haversineKm(point, { lat: s, lon: point.lon })).toBeGreaterThan(3);
      expect(haversineKm(point, { lat: n, lon: point.lon })).toBeGreaterThan(3);
    }
  });

  it.each(points.map((p, i) => [i, p] as const))('gives point %i the same depth at every radius, the depth traced over the raw quad', async (_i, point) => {
    const depths = new Set<number>();
    let inundated = 0;
    for (const radiusKm of RADII) {
      const answer = await assessSlrImpact({ point, scenario: 'high', planningHorizon: 2100, percentile: '50', radiusKm, includeGeoJson: false, currentYear: 2026 }, { elevation: source, assets: [] });
      const expected = expectedAt(point, answer.projected_mhhw_navd88.m);
      expect(answer.ground_elevation_navd88!.m).toBeCloseTo(expected.ground, 3);
      expect(answer.water_depth!.m).toBeCloseTo(expected.depth, 3);
      depths.add(answer.water_depth!.m);
      if (expected.depth > 0) inundated++;
    }
    expect(depths.size).toBe(1);
    expect([0, RADII.length]).toContain(inundated);
  });

  it('is flooded at the first two points, where a window-only trace at 0.3 km finds no water at all', async () => {
    for (const point of points.slice(0, 2)) {
      const request: SlrImpactRequest = { point, scenario: 'high', planningHorizon: 2100, percentile: '50', radiusKm: 0.3, includeGeoJson: false, currentYear: 2026 };
      expect((await assessSlrImpact(request, { elevation: windowOnly(source), assets: [] })).location_setting.setting).toBe('inland');
      expect((await assessSlrImpact(request, { elevation: source, assets: [] })).water_depth!.m).toBeGreaterThan(0.5);
    }
  });
});
