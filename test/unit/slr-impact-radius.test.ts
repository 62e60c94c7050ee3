import type { ElevationSource, ElevationSourceInfo } from '../../shared/domain/hazards/elevation';
import { RELIEF_FLAG_M } from '../../shared/domain/hazards/ground';
import { assessSlrImpact, type SlrImpactRequest } from '../../shared/domain/hazards/slr-impact';
import type { AssetPoint } from '../../shared/domain/hazards/spatial-index';
import { colLonOf, croppingSource as croppingModel, expectAcresWithin, haversineKm, rowLatOf, sphericalCellAcres, type GridFrame } from '../helpers/test-grid';

/**
 * Sea level rise at a point over a model that answers only the box it is asked for (as the tiled
 * and S3 sources do): the window must take in the whole radius, and every count is made here from
 * the model's cells with an independent haversine.
 */
const WEST = -82.52;
const NORTH = 27.97;
const CELL = 0.0005;
const SIZE = 200;
const CENTRE = { lat: NORTH - 100 * CELL, lon: WEST + 100 * CELL };
const SEA = -1;
const FLAT = 0.3;
const NEW_LAND = 0.7;
const FRAME: GridFrame = { west: WEST, north: NORTH, cell: CELL, size: SIZE };
const colLon = colLonOf(FRAME);
const rowLat = rowLatOf(FRAME);
/** Bay west of column 70, a tidal flat in columns 70–79, then land at 0.7 m; a walled pit at rows 96–104, columns 130–138. */
function bands(row: number, col: number): number {
  if (col < 70) return SEA;
  if (col < 80) return FLAT;
  const inPit = row >= 96 && row <= 104 && col >= 130 && col <= 138;
  if (inPit) return row === 96 || row === 104 || col === 130 || col === 138 ? 5 : 0.5;
  return NEW_LAND;
}

const croppingSource = (value: (row: number, col: number) => number, info: Partial<ElevationSourceInfo> = {}) => croppingModel(FRAME, value, info);
function acresWithin(radiusKm: number, pick: (row: number, col: number) => boolean): number {
  let acres = 0;
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      if (pick(row, col) && haversineKm(CENTRE, { lat: rowLat(row), lon: colLon(col) }) <= radiusKm) acres += sphericalCellAcres(FRAME, row);
    }
  }
  return acres;
}
/** Within 1 %: the radius edge cuts cells, and cell areas are spherical approximations. */
const expectAcres = expectAcresWithin(0.01);

const request = (extra: Partial<SlrImpactRequest> = {}): SlrImpactRequest => ({ point: CENTRE, scenario: 'intermediate', planningHorizon: 2076, percentile: '50', radiusKm: 2, includeGeoJson: false, currentYear: 2026, ...extra });
const asset = (id: string, row: number, col: number, extra: Partial<AssetPoint> = {}): AssetPoint => ({ asset_id: id, name: id, category: null, lat: rowLat(row), lon: colLon(col), ...extra });
const source = croppingSource(bands);

describe('sea level rise within a radius, on a model read by box', () => {
  const assets = [
    asset('new-dem', 100, 110),
    asset('new-surveyed', 90, 105, { surveyed: { navd88_m: 0.6, kind: 'ground', column: 'ground_elevation_m_navd88' } }),
    asset('on-the-flat', 100, 75),
    asset('pier', 100, 60),
    asset('far-away', 100, 199),
  ];

  it('the bands sit between today\'s MHHW and the horizon\'s as the fixture needs', async () => {
    const answer = await assessSlrImpact(request(), { elevation: source, assets: [] });
    const today = answer.existing_water!.today_mhhw_navd88.m;
    expect(FLAT).toBeLessThan(today);
    expect(NEW_LAND).toBeGreaterThan(today);
    expect(NEW_LAND).toBeLessThan(answer.projected_mhhw_navd88.m);
    expect(0.5).toBeGreaterThan(today);
  });

  it('counts the new land, the open water and the flat of the whole circle, east and west alike', async () => {
    const answer = await assessSlrImpact(request(), { elevation: source, assets: [] });
    const inPit = (row: number, col: number) => row >= 96 && row <= 104 && col >= 130 && col <= 138;
    expectAcres(answer.inundation_area!.acres, acresWithin(2, (row, col) => col >= 80 && !inPit(row, col)));
    expectAcres(answer.existing_water!.open_water.acres, acresWithin(2, (_row, col) => col < 70));
    expectAcres(answer.existing_water!.land_below_mhhw.acres, acresWithin(2, (_row, col) => col >= 70 && col < 80));
    expect(answer.elevation).toMatchObject({ status: 'covered', point_source_id: 'Cropping test model' });
    expect(answer.elevation).not.toHaveProperty('note');
  });

  it('lists the assets newly reached within the radius, deepest first, and counts those already in water', async () => {
    const answer = await assessSlrImpact(request(), { elevation: source, assets });
    const level = answer.projected_mhhw_navd88.m;
    expect(answer.affected_assets!.assets.map((a) => a.asset_id)).toEqual(['new-surveyed', 'new-dem']);
    const [surveyed, dem] = answer.affected_assets!.assets as Record<string, unknown>[] as { depth: { m: number }; ground_column?: string; water_level_navd88: { m: number } }[];
    expect(surveyed!.ground_column).toBe('ground_elevation_m_navd88');
    expect(dem).not.toHaveProperty('ground_column');
    expect(surveyed!.depth.m).toBeCloseTo(surveyed!.water_level_navd88.m - 0.6, 3);
    expect(dem!.depth.m).toBeCloseTo(dem!.water_level_navd88.m - NEW_LAND, 3);
    expect(Math.abs(surveyed!.water_level_navd88.m - level)).toBeLessThan(0.01);
    expect(answer.existing_water!.assets).toBe(2);
  });

  it('the map of the inundated land holds the new land and the flat', async () => {
    const answer = await assessSlrImpact(request({ includeGeoJson: true }), { elevation: source, assets: [] });
    const feature = answer.inundation_area!.geojson as { properties: { acres: number; water_level_navd88_m: number } };
    expect(feature.properties.acres).toBeCloseTo(answer.inundation_area!.acres + answer.existing_water!.land_below_mhhw.acres, 0);
    expect(feature.properties.water_level_navd88_m).toBeCloseTo(answer.projected_mhhw_navd88.m, 3);
  });
});

describe('a surface model', () => {
  // A block at 2.1 m on the tidal flat's seaward edge (rows 98–102, columns 70–72): columns 70 and 71
  // stand more than the flag's 3 m above the bay (−1 m) within two cells, column 72 does not.
  const ROOF = 2.1;
  const onBlock = (row: number, col: number) => row >= 98 && row <= 102 && col >= 70 && col <= 72;
  const surface = croppingSource((row, col) => (onBlock(row, col) ? ROOF : bands(row, col)), { surface_model: true });
  const highEnd = request({ scenario: 'high', planningHorizon: 2100, percentile: '83', point: { lat: rowLat(100), lon: colLon(71) }, radiusKm: 1, allowSurfaceModel: true });

  it('gives no ground, depth, area or assets unless the caller allows it, and says what to do', async () => {
    const answer = await assessSlrImpact({ ...highEnd, allowSurfaceModel: false }, { elevation: surface, assets: [asset('new-dem', 100, 90)] });
    expect(answer.elevation).toMatchObject({ status: 'no_bare_earth', surface_model: { name: 'Cropping test model' } });
    expect((answer.elevation as { what_to_do: string }).what_to_do).toMatch(/allow_surface_model: true/);
    expect(answer.ground_elevation_navd88).toBeNull();
    expect(answer.water_depth).toBeNull();
    expect(answer.inundation_area).toBeNull();
    expect(answer.affected_assets).toBeNull();
    expect(answer.projected_mhhw_navd88.m).toBeGreaterThan(ROOF);
  });

  it('flags the point and the affected assets that stand out of their surroundings as probably roofs', async () => {
    expect(ROOF - SEA).toBeGreaterThan(RELIEF_FLAG_M);
    expect(ROOF - FLAT).toBeLessThan(RELIEF_FLAG_M);
    const answer = await assessSlrImpact(highEnd, { elevation: surface, assets: [asset('on-the-block', 100, 71), asset('block-inner-edge', 100, 72), asset('new-dem', 100, 90)] });
    // The fixture: the high scenario's 2100 level (83rd percentile) reaches above the block.
    expect(answer.projected_mhhw_navd88.m).toBeGreaterThan(ROOF);
    expect(answer.elevation).toHaveProperty('point_surface_model_flag', true);
    const flags = Object.fromEntries((answer.affected_assets!.assets as Record<string, unknown>[]).map((a) => [a.asset_id, a.surface_model_flag ?? false]));
    expect(flags).toEqual({ 'new-dem': false, 'block-inner-edge': false, 'on-the-block': true });
  });

  it('does not flag a point on ground that does not stand out', async () => {
    const answer = await assessSlrImpact({ ...highEnd, point: { lat: rowLat(100), lon: colLon(90) } }, { elevation: surface, assets: [] });
    expect(answer.elevation).not.toHaveProperty('point_surface_model_flag');
  });
});

describe('the water depth at the point itself', () => {
  // 4 km: the bay lies within the radius of every point tried.
  const at = (row: number, col: number, elevation = source) => assessSlrImpact(request({ point: { lat: rowLat(row), lon: colLon(col) }, radiusKm: 4 }), { elevation, assets: [] });

  it('on new land: inundated, with the depth below the projected level', async () => {
    const answer = await at(100, 100);
    expect(answer.water_depth).toMatchObject({ inundated: true, existing_water: false });
    expect(answer.water_depth!.m).toBeCloseTo(answer.projected_mhhw_navd88.m - NEW_LAND, 3);
    expect(answer.water_depth).not.toHaveProperty('note');
  });

  it('in the bay: open water, not inundated land', async () => {
    const answer = await at(100, 50);
    expect(answer.water_depth).toMatchObject({ inundated: false, existing_water: true, note: expect.stringMatching(/^The point is open water/) });
  });

  it('on the flat: existing water, reached by today\'s tide', async () => {
    const answer = await at(100, 75);
    expect(answer.water_depth).toMatchObject({ inundated: true, existing_water: true, note: expect.stringMatching(/already lies below today's MHHW/) });
  });

  it('in the walled pit: below the level but not connected', async () => {
    const answer = await at(100, 134);
    expect(answer.water_depth).toMatchObject({ m: 0, inundated: false, existing_water: false, note: expect.stringMatching(/not connected to open water/) });
    expect(answer.ground_elevation_navd88!.m).toBeCloseTo(0.5, 5);
  });

  it('above the level: dry, without a note', async () => {
    const high = croppingSource((row, col) => (col < 70 ? SEA : row === 100 && col === 100 ? 3 : NEW_LAND));
    const answer = await at(100, 100, high);
    expect(answer.water_depth).toEqual({ m: 0, ft: 0, inundated: false, existing_water: false });
  });
});

describe('the elevation the answer names', () => {
  it('part of the window without data: partial, with a note, and the share covered', async () => {
    const gappy = croppingSource((row, col) => (row < 80 ? Number.NaN : bands(row, col)), { elevation_model_id: 'county-lidar-2018' });
    const answer = await assessSlrImpact(request(), { elevation: gappy, assets: [] });
    expect(answer.elevation).toMatchObject({ status: 'partial', point_source_id: 'county-lidar-2018', note: expect.stringMatching(/^Part of the radius has no elevation data/) });
    const fraction = (answer.elevation as { coverage_fraction: number }).coverage_fraction;
    expect(fraction).toBeGreaterThan(0.5);
    expect(fraction).toBeLessThan(0.999);
  });
});

describe('what the answer names as its sources and setting', () => {
  it('the tide projections and datums, with SRTM only when it gave the ground; inland without open water; none of it without elevation', async () => {
    const ids = (answer: { sources: { id: string }[] }) => answer.sources.map((source) => source.id).sort();
    expect(ids(await assessSlrImpact(request(), { elevation: source, assets: [] }))).toEqual(['noaa_datums', 'noaa_tr2022']);
    const srtm = croppingSource(bands, { elevation_model_id: 'srtm-1arcsec' });
    expect(ids(await assessSlrImpact(request(), { elevation: srtm, assets: [] }))).toEqual(['noaa_datums', 'noaa_tr2022', 'srtm']);
    const upland = await assessSlrImpact(request(), { elevation: croppingSource(() => 3), assets: [] });
    expect(upland).toMatchObject({ water_depth: null, inundation_area: null, location_setting: { setting: 'inland' } });
    expect(ids(upland)).toEqual(['noaa_datums', 'noaa_tr2022']);
    const nowhere: ElevationSource = { info: () => ({ name: 'none', vertical_datum: 'NAVD88', native_resolution: '-' }), grid: async () => undefined };
    const uncovered = await assessSlrImpact(request(), { elevation: nowhere, assets: [] });
    expect(uncovered).toMatchObject({ elevation: { status: 'not_covered' }, location_setting: { setting: 'unknown' } });
    expect(ids(uncovered)).toEqual(['noaa_datums', 'noaa_tr2022']);
    expect(uncovered.provenance).toEqual(upland.provenance);
  });
});

describe('answers around a point asked again', () => {
  const assets = [asset('new-dem', 100, 110), asset('on-the-flat', 100, 75)];
  const variants: Partial<SlrImpactRequest>[] = [
    {},
    { scenario: 'high', planningHorizon: 2100, includeGeoJson: true },
    { percentile: '83', radiusKm: 1 },
    { scenario: 'low', planningHorizon: 2040, includeGeoJson: true },
  ];

  it('are the same, to the byte, as on a model opened for each answer', async () => {
    const kept = croppingSource(bands);
    for (const variant of variants) {
      const again = JSON.stringify(await assessSlrImpact(request(variant), { elevation: kept, assets }));
      const fresh = JSON.stringify(await assessSlrImpact(request(variant), { elevation: croppingSource(bands), assets }));
      expect(again).toBe(fresh);
    }
  });

  it('read the window once for every scenario, horizon and percentile at the same radius', async () => {
    const kept = croppingSource(bands);
    let windowReads = 0;
    const counting: ElevationSource = {
      ...kept,
      info: () => kept.info(),
      extentAt: kept.extentAt?.bind(kept),
      grid: (box, maxCells) => {
        if (maxCells === 400_000) windowReads++;
        return kept.grid(box, maxCells);
      },
    };
    for (const variant of variants.filter((v) => v.radiusKm === undefined)) await assessSlrImpact(request(variant), { elevation: counting, assets });
    expect(windowReads).toBe(1);
  });
});
