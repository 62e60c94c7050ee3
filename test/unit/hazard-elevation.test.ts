import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { SrtmTileSource } from '../../shared/adapters/elevation/srtm-tiles';
import { cellIndexAt, type ElevationGrid } from '../../shared/domain/hazards/elevation';
import { depthAtPoint, floodModel, inundationWithinRadius, isInundated } from '../../shared/domain/hazards/inundation';
import { toNavd88 } from '../../shared/domain/hazards/vertical-datum';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';

const TILES = path.join(__dirname, '../../shared/data/hazards/srtm1');

/** Independent read of one SRTM sample: row 0 is the tile's north edge, big-endian int16. */
function srtmSample(tile: string, lat: number, lon: number): number {
  const bytes = Object.values(unzipSync(readFileSync(path.join(TILES, `${tile}.hgt.zip`))))[0]!;
  const north = Math.floor(lat) + 1;
  const west = Math.floor(lon);
  const row = Math.round((north - lat) * 3600);
  const col = Math.round((lon - west) * 3600);
  return new DataView(bytes.buffer, bytes.byteOffset).getInt16((row * 3601 + col) * 2, false);
}

const grid = (rows: number[][]): ElevationGrid => ({
  values: Float32Array.from(rows.flat()), width: rows[0]!.length, height: rows.length, west: 0, north: 0.01 * (rows.length - 1),
  cellLon: 0.01, cellLat: 0.01, verticalDatum: 'NAVD88', source: 'test',
});

describe('connected flooding (priority flood)', () => {
  // Sea on the left (0), low coastal land (1), a 3 m ridge, and a 1 m basin behind it.
  const g = grid([
    [0, 1, 1, 3, 1, 1],
    [0, 1, 2, 3, 1, 1],
    [0, 1, 1, 3, 1, 1],
  ]);
  const model = floodModel(g, 0);

  it('floods low ground connected to the sea but not the basin behind the ridge', () => {
    expect(isInundated(model, 1, 1.5)).toBe(true);
    expect(isInundated(model, 4, 1.5)).toBe(false);
    expect(isInundated(model, 8, 1.5)).toBe(false);
    expect(depthAtPoint(model, { lat: 0.02, lon: 0.04 }, 1.5)).toEqual({ ground_navd88_m: 1, depth_m: 0, isolated_low_ground: true, open_water: false });
  });

  it('floods the basin once the level tops the ridge', () => {
    expect(isInundated(model, 4, 3.5)).toBe(true);
    expect(depthAtPoint(model, { lat: 0.02, lon: 0.04 }, 3.5)!.depth_m).toBeCloseTo(2.5, 6);
  });

  it('counts all inundated land as new when no level of today is given, and a cell without data as nothing', () => {
    const level = 1.5;
    const all = inundationWithinRadius(model, { lat: 0.01, lon: 0.02 }, 100, level);
    const inundatedCells = Array.from({ length: 18 }, (_, i) => i).filter((i) => isInundated(model, i, level));
    expect(inundatedCells).toEqual([1, 2, 7, 13, 14]);
    expect(all.existing.land_m2).toBe(0);
    expect(all.area_m2).toBeGreaterThan(0);
    // A source's water flag on a cell without data: neither open water nor land.
    const flagged = { ...g, values: Float32Array.from(g.values, (v, i) => (i === 0 ? Number.NaN : v)), water: Uint8Array.from(g.values, (v) => (v === 0 ? 1 : 0)) };
    const withGap = inundationWithinRadius(floodModel(flagged, 0), { lat: 0.01, lon: 0.02 }, 100, level);
    // Two of the three sea cells left (rows this close to the equator differ in area by less than 1e-7).
    expect(withGap.existing.open_water_m2 / ((2 / 3) * all.existing.open_water_m2)).toBeCloseTo(1, 6);
  });

  it('grows the inundated area monotonically with the level', () => {
    const areas = [0.5, 1.5, 2.5, 3.5].map((level) => inundationWithinRadius(model, { lat: 0.01, lon: 0.02 }, 100, level).area_m2);
    for (let i = 1; i < areas.length; i++) expect(areas[i]).toBeGreaterThanOrEqual(areas[i - 1]!);
    expect(areas[0]).toBe(0);
  });
});

describe('bundled SRTM tiles', () => {
  const source = new SrtmTileSource();

  it('reads the same samples as a direct read of the tile', async () => {
    const box: [number, number, number, number] = [-81.79, 24.55, -81.77, 24.56];
    const g = (await source.grid(box, 1_000_000))!;
    for (const [lat, lon] of [[24.555, -81.78], [24.5511111111, -81.7788888889]]) {
      const index = cellIndexAt(g, lat!, lon!)!;
      expect(g.values[index]).toBe(srtmSample('N24W082', lat!, lon!));
    }
    expect(g.verticalDatum).toBe('EGM96');
  });

  it('answers undefined outside the covered tiles and NaN for the uncovered part of a window', async () => {
    expect(await source.grid([-82.5, 27.5, -82.4, 27.6], 10_000)).toBeDefined();
    expect(await source.grid([-85.5, 26.1, -85.4, 26.2], 10_000)).toBeUndefined(); // open Gulf: no tile
    // N25W082 is not bundled: a window across latitude 25 at -81.5 is half covered.
    const straddling = (await source.grid([-81.52, 24.98, -81.48, 25.02], 100_000))!;
    const north = straddling.values[cellIndexAt(straddling, 25.015, -81.5)!];
    const south = straddling.values[cellIndexAt(straddling, 24.985, -81.5)!];
    expect(Number.isNaN(north)).toBe(true);
    expect(Number.isNaN(south)).toBe(false);
  });

  it('decimates large windows to the requested cell budget', async () => {
    const g = (await source.grid([-81.9, 24.5, -81.5, 24.8], 10_000))!;
    expect(g.width * g.height).toBeLessThanOrEqual(10_000);
    expect(g.cellLon).toBeGreaterThan(1 / 3600);
  });

  it('shifts SRTM heights to NAVD88 by the gauge MSL − NAVD88', async () => {
    const g = (await source.grid([-81.79, 24.55, -81.78, 24.56], 10_000))!;
    const { grid: navd, correction } = toNavd88(g, -0.26649);
    expect(navd.values[0]).toBeCloseTo(g.values[0]! - 0.26649, 5);
    expect(navd.verticalDatum).toBe('NAVD88');
    // The offset stated is the one applied, to the millimetre.
    expect(correction).toMatchObject({ from: 'EGM96', applied_offset_m: -0.266 });
  });

  it('answers a point outside elevation coverage without area or depth, not an error', async () => {
    // Jupiter Inlet: within reach of the gauges, outside the bundled tiles.
    const result = await assessSlrImpact({ point: { lat: 26.94, lon: -80.07 }, scenario: 'intermediate', planningHorizon: 2070, percentile: '50', radiusKm: 1, includeGeoJson: false }, { elevation: source, assets: [] });
    expect(result.elevation.status).toBe('not_covered');
    expect(result.water_depth).toBeNull();
    expect(result.inundation_area).toBeNull();
    expect('projected_mhhw_navd88' in result && result.projected_mhhw_navd88.m).toBeGreaterThan(0);
    expect(result.location_setting.setting).toBe('unknown');
  });
});
