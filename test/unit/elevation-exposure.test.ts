import type { Polygon } from 'geojson';
import { validateBoundary, type ValidBoundary } from '../../shared/domain/hazards/boundary';
import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../shared/domain/hazards/elevation';
import { analyzeFlooding, estimateFloodAnalysisWork, nativePassCells, SYNC_WORK_BUDGET, type AnalysedSurfaces } from '../../shared/domain/hazards/flood-analysis';
import { readGround, RELIEF_FLAG_M } from '../../shared/domain/hazards/ground';
import { maskToMultiPolygon } from '../../shared/domain/hazards/inundation';
import { tallyAtNativeResolution } from '../../shared/domain/hazards/native-area';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';
import type { AssetPoint } from '../../shared/domain/hazards/spatial-index';
import { surveyedElevation } from '../../shared/domain/hazards/surveyed-elevation';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { acresWhere, colLonOf, expectAcresWithin, rowLatOf, wholeGridSource, type GridFrame } from '../helpers/test-grid';

/** A NAVD88 grid near Tampa Bay, 0.001° cells, built column band by column band. */
const WEST = -82.47;
const NORTH = 27.92;
const CELL = 0.001;
const SIZE = 40;
const SEA = -1;
const TIDAL_FLAT = 0.3;
const NEW_BAND = 0.7;
const UPLAND = 3;
const bandAt = (col: number) => (col < 5 ? SEA : col < 15 ? TIDAL_FLAT : col < 25 ? NEW_BAND : UPLAND);

const FRAME: GridFrame = { west: WEST, north: NORTH, cell: CELL, size: SIZE };
const fixedSource = (values: (row: number, col: number) => number, info: Partial<ElevationSourceInfo> = {}): ElevationSource =>
  wholeGridSource(FRAME, values, { name: 'Test bare-earth grid', elevation_model_id: 'test-grid', vertical_accuracy_m: 0.1, surface_model: false, ...info });
const bandAcres = (from: number, to: number) => acresWhere(FRAME, (_row, col) => col >= from && col < to);
/** Areas agree within 0.5 %: cell areas are spherical approximations (the test's and the code's alike). */
const expectAcres = expectAcresWithin(0.005);
const colLon = colLonOf(FRAME);
const rowLat = rowLatOf(FRAME);
const centre = { lat: rowLat(20), lon: colLon(20) };
const asset = (id: string, col: number, extra: Partial<AssetPoint> = {}): AssetPoint => ({ asset_id: id, name: id, category: null, lat: rowLat(20), lon: colLon(col), ...extra });
const noTides: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
const noLayers = { layersFor: async () => [] };

describe('surveyed elevations in asset files', () => {
  it('reads ground before first floor, feet as US survey feet, metres as given, by normalised header', () => {
    expect(surveyedElevation({ 'Ground Elevation (ft NAVD88)': 'x', ground_elevation_ft_navd88: '10', first_floor_elevation_ft_navd88: 12 }))
      .toEqual({ navd88_m: 10 * 1200 / 3937, kind: 'ground', column: 'ground_elevation_ft_navd88' });
    expect(surveyedElevation({ 'First_Floor_Elevation_M_NAVD88': 2.5 })).toEqual({ navd88_m: 2.5, kind: 'first_floor', column: 'First_Floor_Elevation_M_NAVD88' });
  });

  it('ignores blanks, text and values no Florida elevation can take', () => {
    expect(surveyedElevation({ ground_elevation_ft_navd88: '' })).toBeUndefined();
    expect(surveyedElevation({ ground_elevation_ft_navd88: 'n/a' })).toBeUndefined();
    expect(surveyedElevation({ ground_elevation_m_navd88: 9999 })).toBeUndefined();
    expect(surveyedElevation(undefined)).toBeUndefined();
  });
});

describe('existing water apart from newly exposed land', () => {
  const source = fixedSource((_row, col) => bandAt(col));
  const assets = [
    asset('on-flat', 10),
    asset('in-new-band', 20),
    asset('upland', 32),
    // The DEM says 0.7 m here; the survey says 2 ft.
    asset('surveyed', 21, { surveyed: { navd88_m: 2 * 1200 / 3937, kind: 'ground', column: 'ground_elevation_ft_navd88' } }),
  ];

  it('slr-impact: open water and the tidal flat are existing water; only the band between today and the horizon is new', async () => {
    const answer = await assessSlrImpact({ point: centre, scenario: 'intermediate', planningHorizon: 2076, percentile: '50', radiusKm: 3, includeGeoJson: false, currentYear: 2026 }, { elevation: source, assets });
    const level = answer.projected_mhhw_navd88.m;
    const today = answer.existing_water!.today_mhhw_navd88.m;
    // The fixture's bands sit where the test needs them.
    expect(TIDAL_FLAT).toBeLessThan(today);
    expect(NEW_BAND).toBeGreaterThan(today);
    expect(NEW_BAND).toBeLessThan(level);
    expectAcres(answer.existing_water!.open_water.acres, bandAcres(0, 5));
    expectAcres(answer.existing_water!.land_below_mhhw.acres, bandAcres(5, 15));
    expectAcres(answer.inundation_area!.acres, bandAcres(15, 25));
    expect(answer.existing_water!.assets).toBe(1);
    expect(answer.affected_assets!.assets.map((a) => a.asset_id).sort()).toEqual(['in-new-band', 'surveyed']);
    const surveyed = answer.affected_assets!.assets.find((a) => a.asset_id === 'surveyed')!;
    expect(surveyed.ground_basis).toBe('surveyed_ground');
    expect(surveyed.ground_elevation_navd88.m).toBeCloseTo(0.6096, 4);
    expect(surveyed.depth.m).toBeCloseTo(level - 0.6096012, 3);
    expect(answer.ground_elevation_navd88!.m).toBeCloseTo(NEW_BAND, 5);
    expect(answer.water_depth).toMatchObject({ inundated: true, existing_water: false });
    expect(answer.water_depth!.m).toBeCloseTo(level - NEW_BAND, 3);
  });

  it('flood-analysis: the same split in every result, in acres and asset counts', async () => {
    const boundary = boundaryOf([[colLon(-0.5), rowLat(39.5)], [colLon(39.5), rowLat(39.5)], [colLon(39.5), rowLat(-0.5)], [colLon(-0.5), rowLat(-0.5)], [colLon(-0.5), rowLat(39.5)]]);
    const result = await analyzeFlooding({ boundary, components: ['tidal'], scenarios: ['intermediate'], horizons: [2076], currentYear: 2026 }, { elevation: source, layers: noLayers, tides: noTides, assets });
    const tidal = (result.components.tidal as { results: { exposed_area: { acres: number }; exposed_assets: { assets: { asset_id: string }[] }; existing_water: { open_water: { acres: number }; land_below_mhhw: { acres: number }; assets: number } }[] }).results[0]!;
    expectAcres(tidal.existing_water.open_water.acres, bandAcres(0, 5));
    expectAcres(tidal.existing_water.land_below_mhhw.acres, bandAcres(5, 15));
    expectAcres(tidal.exposed_area.acres, bandAcres(15, 25));
    expect(tidal.existing_water.assets).toBe(1);
    expect(tidal.exposed_assets.assets.map((a) => a.asset_id).sort()).toEqual(['in-new-band', 'surveyed']);
  });
});

describe('today for existing water', () => {
  it('without a current year it is 2000, the projections\' baseline: MHHW plus the 1992→2000 rise, no projected rise', async () => {
    const answer = await assessSlrImpact({ point: centre, scenario: 'intermediate', planningHorizon: 2050, percentile: '50', radiusKm: 3, includeGeoJson: false }, { elevation: fixedSource((_row, col) => bandAt(col)), assets: [] });
    expect(answer.existing_water!.year).toBe(2000);
    expect(answer.existing_water!.today_mhhw_navd88.m).toBeCloseTo(answer.mhhw_navd88.m + answer.datum_epoch.rise_1992_to_2000.m, 3);
  });

  it('between 2000 and 2020, where the projections have no value, it rises linearly to the 2020 value', async () => {
    const at = (currentYear: number) => assessSlrImpact({ point: centre, scenario: 'intermediate', planningHorizon: 2050, percentile: '50', radiusKm: 3, includeGeoJson: false, currentYear }, { elevation: fixedSource((_row, col) => bandAt(col)), assets: [] });
    const [y2000, y2010, y2020] = await Promise.all([at(2000), at(2010), at(2020)]);
    const today = (a: typeof y2000) => a.existing_water!.today_mhhw_navd88.m;
    expect(today(y2010)).toBeCloseTo((today(y2000) + today(y2020)) / 2, 3);
    expect(today(y2020)).toBeGreaterThan(today(y2000));
  });
});

function boundaryOf(ring: number[][]): ValidBoundary {
  const validation = validateBoundary({ type: 'Polygon', coordinates: [ring] } as Polygon);
  if (!validation.ok) throw new Error('bad test boundary');
  return validation.boundary;
}

describe('inundated extents as polygons', () => {
  const grid = (width: number, height: number): ElevationGrid => ({
    values: new Float32Array(width * height), width, height, west: 0, north: 0, cellLon: 1, cellLat: 1, verticalDatum: 'NAVD88', source: 'test',
  });
  const shoelace = (ring: number[][]) => Math.abs(ring.slice(1).reduce((s, p, i) => s + ring[i]![0]! * p[1]! - p[0]! * ring[i]![1]!, 0)) / 2;

  it('traces an L-shaped area as one polygon whose area is that of its cells within half a cell per corner', () => {
    // 10 cells: a column of 6 and a foot of 4 more.
    const g = grid(8, 8);
    const mask = new Uint8Array(64);
    for (let row = 1; row <= 6; row++) mask[row * 8 + 1] = 1;
    for (let col = 2; col <= 5; col++) mask[6 * 8 + col] = 1;
    const geometry = maskToMultiPolygon(g, mask);
    expect(geometry.coordinates).toHaveLength(1);
    expect(geometry.coordinates[0]).toHaveLength(1);
    const ring = geometry.coordinates[0]![0]!;
    expect(shoelace(ring)).toBeGreaterThan(10 - 6 * 0.125 - 1e-9);
    expect(shoelace(ring)).toBeLessThan(10 + 1e-9);
    // Straight runs are reduced to their ends: an L with cut corners has at most 12 vertices.
    expect(ring.length).toBeLessThanOrEqual(13);
  });

  it('places the outline in longitude and latitude half a cell out from the outer cells\' centres, corners cut, straight runs as their two ends', () => {
    // Cells 0.002° wide and 0.001° high; a block of rows 1–2 and columns 1–3.
    const g: ElevationGrid = { ...grid(6, 5), west: -82.5, north: 27.9, cellLon: 0.002, cellLat: 0.001 };
    const mask = new Uint8Array(30);
    for (const row of [1, 2]) for (const col of [1, 2, 3]) mask[row * 6 + col] = 1;
    const [polygon, ...others] = maskToMultiPolygon(g, mask).coordinates;
    expect(others).toEqual([]);
    expect(polygon).toHaveLength(1);
    const ring = polygon![0]!;
    expect(ring[ring.length - 1]).toEqual(ring[0]);
    // In cell units (column, row of the centres): the block's edges half a cell out, each corner cut from edge to edge.
    const octagon = [[1, 0.5], [3, 0.5], [3.5, 1], [3.5, 2], [3, 2.5], [1, 2.5], [0.5, 2], [0.5, 1]];
    const expected = octagon.map(([col, row]) => [Math.round((-82.5 + col! * 0.002) * 1e6) / 1e6, Math.round((27.9 - row! * 0.001) * 1e6) / 1e6]);
    const byLonLat = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]!;
    expect(ring.slice(0, -1).map((p) => [p[0]!, p[1]!]).sort(byLonLat)).toEqual(expected.sort(byLonLat));
  });

  it('reduces a diagonal run to its two ends as well: no vertex of the outline lies on the line through its neighbours', () => {
    // A staircase: in rows 1–5, columns 1 up to the row's own number; its slanted side is one straight line.
    const g = grid(8, 8);
    const mask = new Uint8Array(64);
    for (let row = 1; row <= 5; row++) for (let col = 1; col <= row; col++) mask[row * 8 + col] = 1;
    const ring = maskToMultiPolygon(g, mask).coordinates[0]![0]!;
    const open = ring.slice(0, -1);
    open.forEach((p, i) => {
      const a = open[(i + open.length - 1) % open.length]!;
      const b = open[(i + 1) % open.length]!;
      expect(Math.abs((p[0]! - a[0]!) * (b[1]! - a[1]!) - (p[1]! - a[1]!) * (b[0]! - a[0]!))).toBeGreaterThan(1e-9);
    });
    // Three sides and three cut corners.
    expect(open.length).toBeLessThanOrEqual(6);
  });

  it('has no cap: 22,500 separate cells come back as 22,500 polygons', () => {
    const g = grid(300, 300);
    const mask = new Uint8Array(300 * 300);
    for (let row = 0; row < 300; row += 2) for (let col = 0; col < 300; col += 2) mask[row * 300 + col] = 1;
    expect(maskToMultiPolygon(g, mask).coordinates).toHaveLength(22_500);
  });

  it('flood-analysis returns one extent per scenario × horizon on request, with the exposed area', async () => {
    const source = fixedSource((_row, col) => bandAt(col));
    const boundary = boundaryOf([[colLon(-0.5), rowLat(39.5)], [colLon(39.5), rowLat(39.5)], [colLon(39.5), rowLat(-0.5)], [colLon(-0.5), rowLat(-0.5)], [colLon(-0.5), rowLat(39.5)]]);
    let analysed: AnalysedSurfaces | undefined;
    const result = await analyzeFlooding({ boundary, components: ['tidal'], scenarios: ['intermediate_low', 'intermediate'], horizons: [2046, 2076], currentYear: 2026, includeExtents: true },
      { elevation: source, layers: noLayers, tides: noTides, assets: [], onSurfaces: (a) => { analysed = a; } });
    expect(analysed).toBeDefined();
    const extents = result.inundation_extents!;
    expect(extents.map((e) => `${e.properties.scenario} ${e.properties.planning_horizon}`)).toEqual(['intermediate 2046', 'intermediate_low 2046', 'intermediate 2076', 'intermediate_low 2076']);
    const at2076 = extents.find((e) => e.properties.scenario === 'intermediate' && e.properties.planning_horizon === 2076)!;
    // The flat and the new band are inundated land at 2076: one connected strip of 20 columns.
    expectAcres(at2076.properties.acres, bandAcres(5, 25));
    expect(at2076.geometry.coordinates).toHaveLength(1);
  });
});

describe('the ground each answer names', () => {
  it('fills what a bare-earth model leaves uncovered from the fallback and says which share came from which', async () => {
    const model = fixedSource((_row, col) => (col < 30 ? bandAt(col) : Number.NaN));
    const fallback = fixedSource(() => 4, { name: 'Fallback surface model', elevation_model_id: 'fallback', surface_model: true });
    const layered: ElevationSource = { ...model, layersFor: () => [model, fallback] };
    const ground = (await readGround(layered, [WEST, NORTH - 0.039, WEST + 0.039, NORTH], 10_000, 0, { allowSurfaceModel: true }))!;
    expect(ground.layers.map((l) => [l.source.elevation_model_id, l.cells])).toEqual([['test-grid', 30 * SIZE], ['fallback', 10 * SIZE]]);
    expect(ground.grid.values[SIZE - 1]).toBe(4);
    // Without the caller's leave the surface model fills nothing: those cells stay without ground.
    const bareOnly = (await readGround(layered, [WEST, NORTH - 0.039, WEST + 0.039, NORTH], 10_000, 0))!;
    expect(bareOnly.layers.map((l) => [l.source.elevation_model_id, l.cells])).toEqual([['test-grid', 30 * SIZE]]);
    expect(bareOnly.grid.values[SIZE - 1]).toBeNaN();
  });

  it('flags surface-model cells that stand out of their neighbourhood (roofs, canopy), not flat ground', async () => {
    // Flat 1 m ground with a 3 × 3 block one threshold and a metre higher.
    const block = (row: number, col: number) => row >= 10 && row < 13 && col >= 10 && col < 13;
    const srtmLike = fixedSource((row, col) => (block(row, col) ? 1 + RELIEF_FLAG_M + 1 : 1), { surface_model: true });
    const ground = (await readGround(srtmLike, [WEST, NORTH - 0.039, WEST + 0.039, NORTH], 10_000, -5, { allowSurfaceModel: true }))!;
    expect(ground.flaggedCells).toBe(9);
    for (let i = 0; i < ground.flagged.length; i++) expect(ground.flagged[i] === 1).toBe(block(Math.floor(i / SIZE), i % SIZE));
    const bare = (await readGround(fixedSource((row, col) => (block(row, col) ? 10 : 1)), [WEST, NORTH - 0.039, WEST + 0.039, NORTH], 10_000, -5))!;
    expect(bare.flaggedCells).toBe(0);
  });
});

describe('areas at native resolution, window by window', () => {
  it('counts every cell once across windows and gives the area connected below any level', async () => {
    // A stated 2 m resolution makes 2 km windows: the 4 km grid is read in several, each cell counted in one core.
    const source = fixedSource((_row, col) => bandAt(col), { resolution_m: 2 });
    const box = [colLon(-0.5), rowLat(39.5), colLon(39.5), rowLat(-0.5)] as [number, number, number, number];
    const ring = [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]], [box[0], box[1]]];
    const tally = await tallyAtNativeResolution(source, { type: 'Polygon', coordinates: [ring] }, box, -0.09, async () => {});
    expect(tally.windows).toBeGreaterThan(3);
    expectAcres(tally.openWaterM2 / 4046.8564224, bandAcres(0, 5));
    expectAcres(tally.areaBelow(0.5) / 4046.8564224, bandAcres(5, 15));
    expectAcres(tally.areaBelow(1) / 4046.8564224, bandAcres(5, 25));
    expect(tally.areaBelow(0.29)).toBe(0);
    expectAcres(tally.areaBelow(3.5) / 4046.8564224, bandAcres(5, 40));
  });
});

describe('the native pass in the immediate-or-job decision', () => {
  const request = { components: ['tidal' as const], scenarios: ['intermediate' as const], horizons: [2070], boundary: { area_km2: 4 } };
  const box = [-82.47, 27.9, -82.45, 27.92] as [number, number, number, number];

  it('adds nothing where the analysis grid is already native, and the cells of a fine DEM where it is not', () => {
    const coarse = fixedSource(() => 1, { resolution_m: 30 });
    const lidar = fixedSource(() => 1, { resolution_m: 1 });
    expect(nativePassCells(coarse, box)).toBe(0);
    // 0.02° × 0.02° at 1 m: about 2,220 × 1,960 cells.
    const fine = nativePassCells(lidar, box);
    expect(fine).toBeGreaterThan(4_000_000);
    expect(fine).toBeLessThan(4_600_000);
    expect(estimateFloodAnalysisWork(request, 0, nativePassCells(coarse, box))).toBeLessThan(SYNC_WORK_BUDGET);
    expect(estimateFloodAnalysisWork(request, 0, fine)).toBeGreaterThan(SYNC_WORK_BUDGET);
  });
});
