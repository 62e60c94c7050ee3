import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Polygon } from 'geojson';
import { LayeredElevationSource } from '../../shared/adapters/elevation/layered';
import { SrtmTileSource } from '../../shared/adapters/elevation/srtm-tiles';
import { modelsIn } from '../../shared/adapters/elevation/tiled-model';
import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { analyzeFlooding, type AnalysedSurfaces } from '../../shared/domain/hazards/flood-analysis';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';
import { packageDatums, twoClosestUsable } from './readers/raw';

/**
 * The bundled USGS 7.5-minute Tampa quad (bare earth, NAVD88), read here on its own: `model.json`
 * gives the lattice of level 0, each 256 × 256 tile is gzip of little-endian float32 metres.
 */
const DEM_ROOT = path.join(__dirname, '../../shared/data/dem');
const TAMPA = path.join(DEM_ROOT, 'usgs-24k-tampa');
interface Level0 { west: number; north: number; cell_lon: number; cell_lat: number; width: number; height: number }
const record = JSON.parse(readFileSync(path.join(TAMPA, 'model.json'), 'utf8')) as { elevation_model_id: string; resolution_m: number; vertical_accuracy_m: number; pyramid: { west: number; north: number; levels: Level0[] } };
const level0 = { ...record.pyramid.levels[0]!, west: record.pyramid.west, north: record.pyramid.north };
const tiles = new Map<string, Float32Array>();
function post(row: number, col: number): number {
  const key = `${Math.floor(col / 256)}-${Math.floor(row / 256)}`;
  let tile = tiles.get(key);
  if (!tile) {
    const raw = gunzipSync(readFileSync(path.join(TAMPA, '0', `${key}.bin.gz`)));
    tile = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + 256 * 256 * 4));
    tiles.set(key, tile);
  }
  return tile[(row % 256) * 256 + (col % 256)]!;
}
/** Bilinear between the four posts around a point (posts at cell centres, row 0 north). */
function fileGround(lat: number, lon: number): number {
  const x = (lon - level0.west) / level0.cell_lon;
  const y = (level0.north - lat) / level0.cell_lat;
  const c = Math.floor(x), r = Math.floor(y), tx = x - c, ty = y - r;
  return (post(r, c) * (1 - tx) + post(r, c + 1) * tx) * (1 - ty) + (post(r + 1, c) * (1 - tx) + post(r + 1, c + 1) * tx) * ty;
}

/** A seeded generator (mulberry32): the same points every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const elevation = new LayeredElevationSource(modelsIn(DEM_ROOT), new SrtmTileSource());
/** Points well inside the quad (a 1 km window fits), near Hillsborough Bay so that water is in reach. */
function pointsInQuad(count: number, seed: number) {
  const next = random(seed);
  return Array.from({ length: count }, () => ({ lat: 27.89 + next() * 0.08, lon: -82.485 + next() * 0.09 }));
}

describe('ground from the bundled bare-earth quad', () => {
  it('names the model, and the ground at a point is the bilinear value of the file posts (fractional, no whole-metre steps)', async () => {
    const grounds: number[] = [];
    for (const point of pointsInQuad(12, 7)) {
      const answer = await assessSlrImpact({ point, scenario: 'intermediate', planningHorizon: 2050, percentile: '50', radiusKm: 1, includeGeoJson: false, currentYear: 2026 }, { elevation, assets: [] });
      expect(answer.elevation.source).toMatchObject({ elevation_model_id: record.elevation_model_id, vertical_accuracy_m: record.vertical_accuracy_m, surface_model: false });
      if (answer.location_setting.setting === 'inland') continue;
      expect(answer.ground_elevation_navd88!.m).toBeCloseTo(fileGround(point.lat, point.lon), 3);
      grounds.push(answer.ground_elevation_navd88!.m);
    }
    expect(grounds.length).toBeGreaterThan(6);
    expect(grounds.filter((g) => Math.abs(g - Math.round(g)) > 0.01).length).toBeGreaterThan(grounds.length / 2);
  });

  it('inundated acreage strictly increases between two horizons whose levels differ by more than the DEM step where land lies in that band', async () => {
    const point = { lat: 27.93, lon: -82.44 };
    const at = (year: number) => assessSlrImpact({ point, scenario: 'intermediate', planningHorizon: year, percentile: '50', radiusKm: 2, includeGeoJson: false, currentYear: 2026 }, { elevation, assets: [] });
    const early = await at(2046);
    const late = await at(2076);
    const [low, high] = [early.projected_mhhw_navd88.m, late.projected_mhhw_navd88.m];
    // Land of the file with ground between the two levels, within the radius (from the file's own posts).
    let inBand = 0;
    const rows = Math.ceil(2 / 111.32 / level0.cell_lat);
    const r0 = Math.round((level0.north - point.lat) / level0.cell_lat);
    const c0 = Math.round((point.lon - level0.west) / level0.cell_lon);
    for (let r = r0 - rows; r <= r0 + rows; r++) for (let c = c0 - rows; c <= c0 + rows; c++) {
      const v = post(r, c);
      if (v > low && v < high) inBand++;
    }
    expect(high - low).toBeGreaterThan(0.1);
    expect(inBand).toBeGreaterThan(100);
    expect(late.inundation_area!.acres).toBeGreaterThan(early.inundation_area!.acres);
  });
});

describe('ground from SRTM, in whole metres', () => {
  it('lists its lowest land levels (whole metres + MSL − NAVD88 of the two gauges, from the raw datums), and levels between the same two steps expose the same land (Key West)', async () => {
    const point = { lat: 24.5551, lon: -81.78 };
    const pair = twoClosestUsable(point);
    const datums = packageDatums(pair.map(({ g }) => g.id));
    const msl = pair.reduce((sum, { g, w }) => sum + w * (datums[g.id]!.MSL! - datums[g.id]!.NAVD88!), 0);
    const answers = await Promise.all([2030, 2046, 2076, 2100].map((year) => assessSlrImpact({ point, scenario: 'intermediate', planningHorizon: year, percentile: '50', radiusKm: 2, includeGeoJson: false, currentYear: 2026, allowSurfaceModel: true }, { elevation: new SrtmTileSource(), assets: [] })));
    const steps = (answers[0]!.elevation as { height_steps: { step_m: number; lowest_land_levels_navd88_m: number[] } }).height_steps;
    expect(steps.step_m).toBe(1);
    steps.lowest_land_levels_navd88_m.forEach((level, i) => expect(Math.abs(level - (i + 1 + msl))).toBeLessThanOrEqual(0.001));
    const below = (level: number) => steps.lowest_land_levels_navd88_m.filter((step) => step < level).length;
    const levels = answers.map((answer) => answer.projected_mhhw_navd88.m);
    const acres = answers.map((answer) => answer.inundation_area!.acres);
    // 2030, 2046 and 2076 lie below the lowest step, 2100 above it: the first three expose the same land, the last more.
    expect(levels.map(below)).toEqual([0, 0, 0, 1]);
    expect(new Set(levels).size).toBe(4);
    expect(acres.slice(0, 3)).toEqual([acres[0], acres[0], acres[0]]);
    expect(acres[3]).toBeGreaterThan(acres[0]!);
  });
});

describe('slr-impact and flood-analysis agree on the same coordinates and model', () => {
  it('gives the same ground elevation and depth at random points', async () => {
    let compared = 0;
    let flooded = 0;
    // Half the points on low ground by the file's own posts (where depths are not all zero), half anywhere.
    const candidates = pointsInQuad(400, 42);
    const low = candidates.filter((p) => { const g = fileGround(p.lat, p.lon); return g > 0.3 && g < 0.9; }).slice(0, 6);
    for (const [i, point] of [...low, ...candidates.slice(0, 6)].entries()) {
      const asset = { asset_id: `p${i}`, name: `point ${i}`, category: null, ...point };
      const radiusKm = 1;
      const slr = await assessSlrImpact({ point, scenario: 'intermediate', planningHorizon: 2070, percentile: '50', radiusKm, includeGeoJson: false, currentYear: 2026 }, { elevation, assets: [asset] });
      if (slr.location_setting.setting !== 'coastal') continue;
      // The same window as a boundary: the analysis reads the same grid for the connection to open water.
      const dLat = radiusKm / 111.32, dLon = radiusKm / (111.32 * Math.cos((point.lat * Math.PI) / 180));
      const [w, s, e, n] = [point.lon - dLon, point.lat - dLat, point.lon + dLon, point.lat + dLat];
      const validation = validateBoundary({ type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] } as Polygon);
      // A window wholly in the bay overlaps no county's (cartographic, land) boundary: no area analysis there.
      if (!validation.ok) continue;
      let analysed: AnalysedSurfaces | undefined;
      const area = await analyzeFlooding({ boundary: validation.boundary, components: ['tidal'], scenarios: ['intermediate'], horizons: [2070], currentYear: 2026 },
        { elevation, layers: { layersFor: async () => [] }, tides: harmonicTides, assets: [asset], onSurfaces: (a) => { analysed = a; } });
      const site = analysed!.sites.find((s) => s.asset.asset_id === asset.asset_id)!;
      expect(site.ground).toBeCloseTo(slr.ground_elevation_navd88!.m, 4);
      const fromSlr = slr.affected_assets!.assets.find((a) => a.asset_id === asset.asset_id);
      const results = (area.components.tidal as { results: { exposed_assets: { assets: { asset_id: string; depth: { m: number } }[] } }[] }).results;
      const fromArea = results[0]!.exposed_assets.assets.find((a) => a.asset_id === asset.asset_id);
      expect(fromArea?.depth.m ?? 0).toBeCloseTo(fromSlr?.depth.m ?? 0, 4);
      if (!slr.water_depth!.existing_water) expect(fromSlr?.depth.m ?? 0).toBeCloseTo(slr.water_depth!.m, 4);
      compared++;
      if (fromSlr) flooded++;
    }
    expect(compared).toBeGreaterThan(5);
    expect(flooded).toBeGreaterThan(0);
  }, 120_000);
});
