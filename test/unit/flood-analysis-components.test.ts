import type { Polygon } from 'geojson';
import { validateBoundary, type ValidBoundary } from '../../shared/domain/hazards/boundary';
import type { ElevationSource, ElevationSourceInfo } from '../../shared/domain/hazards/elevation';
import { RELIEF_FLAG_M } from '../../shared/domain/hazards/ground';
import { analyzeFlooding, estimateFloodAnalysisWork, MAX_ANALYSIS_CELLS, MAX_LISTED_ASSETS, settingWithoutElevation, type AnalysedSurfaces, type FloodAnalysisRequest } from '../../shared/domain/hazards/flood-analysis';
import { gaugeById, selectGauges, type GaugeSelection } from '../../shared/domain/hazards/gauges';
import { mhhwAboveNavd88, weightedMhhwNavd88 } from '../../shared/domain/hazards/tidal';
import { DATUM_STATIONS } from '../../shared/domain/hazards/datum-check';
import type { HazardLayer, LayerComponent } from '../../shared/domain/hazards/hazard-layers';
import type { AssetPoint } from '../../shared/domain/hazards/spatial-index';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { acresWhere as acresIn, colLonOf, expectAcresWithin, rowLatOf, wholeGridSource, type GridFrame } from '../helpers/test-grid';

/**
 * The components of a flood analysis over a graded grid near Tampa Bay: five columns of bay, then
 * land rising 0.1 m a column (0.2 m NAVD88 at column 5, 3.7 m at column 39). Every expected area is
 * counted here, cell by cell, from the grid and the levels the answer states.
 */
const WEST = -82.47;
const NORTH = 27.92;
const CELL = 0.001;
const SIZE = 40;
const groundOf = (col: number) => (col < 5 ? -1 : 0.2 + 0.1 * (col - 5));
const FRAME: GridFrame = { west: WEST, north: NORTH, cell: CELL, size: SIZE };
const colLon = colLonOf(FRAME);
const rowLat = rowLatOf(FRAME);
const gridSource = (ground: (row: number, col: number) => number, info: Partial<ElevationSourceInfo> = {}): ElevationSource =>
  wholeGridSource(FRAME, ground, { name: 'Graded test grid', ...info });
const graded = gridSource((_row, col) => groundOf(col));
const noElevation: ElevationSource = { info: () => ({ name: 'Nothing here', vertical_datum: 'NAVD88', native_resolution: '-' }), grid: async () => undefined };

/** A box over columns [from, to) and rows [top, bottom), on cell edges. */
const boxRing = (from: number, to: number, top = 0, bottom = SIZE) => [
  [colLon(from - 0.5), rowLat(bottom - 0.5)], [colLon(to - 0.5), rowLat(bottom - 0.5)], [colLon(to - 0.5), rowLat(top - 0.5)],
  [colLon(from - 0.5), rowLat(top - 0.5)], [colLon(from - 0.5), rowLat(bottom - 0.5)],
];
const polygon = (ring: number[][]): Polygon => ({ type: 'Polygon', coordinates: [ring] });
function boundaryOf(ring: number[][]): ValidBoundary {
  const validation = validateBoundary(polygon(ring));
  if (!validation.ok) throw new Error('bad test boundary');
  return validation.boundary;
}
/** The whole grid (built per call: boundary validation is code under test). */
const whole = () => boundaryOf(boxRing(0, SIZE));

/** Acres of the cells `exposed(row, col)` picks, within 0.5 % of the code's cell areas. */
const acresWhere = (exposed: (row: number, col: number) => boolean) => acresIn(FRAME, exposed);
const expectAcres = expectAcresWithin(0.005);
const f32 = Math.fround;
/** Land (not bay) of the graded grid between today's MHHW and `level`: still water reaches all of it (the ground rises away from the bay). */
const landBetween = (today: number, level: number) => (col: number) => col >= 5 && f32(groundOf(col)) >= today && f32(groundOf(col)) < level;

const noTides: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
const layersOf = (layers: HazardLayer[]) => ({ layersFor: async (component: LayerComponent) => layers.filter((l) => l.component === component) });
const noLayers = layersOf([]);
const layer = (component: LayerComponent, rp: number, ring: number[][], wse: number): HazardLayer => ({
  layer_id: `${component}-${rp}`, component, return_period_years: rp, name: `${component} ${rp}-year`, source: 'test model', loaded_at: '2026-01-05T00:00:00Z',
  bbox: [ring[0]![0]!, ring[0]![1]!, ring[2]![0]!, ring[2]![1]!], features: [{ geometry: polygon(ring), wse_navd88_m: wse }],
});
const asset = (id: string, col: number, extra: Partial<AssetPoint> = {}): AssetPoint => ({ asset_id: id, name: id, category: 'Transportation', lat: rowLat(20), lon: colLon(col), ...extra });
const surveyed = (navd88_m: number, kind: 'ground' | 'first_floor' = 'ground') => ({ surveyed: { navd88_m, kind, column: `${kind}_elevation_m_navd88` } as const });

type Area = { acres: number; km2: number };
type Length = { m: number; ft: number };
interface Exposure {
  planning_horizon: number;
  return_period_years?: number;
  annual_exceedance_probability?: number;
  sea_level_rise: Length;
  design_water_level_navd88?: Length;
  water_surface_shift?: Length;
  depth_above_minor_threshold?: Length;
  tidal_flood_days_per_year?: { minor: number; by_gauge: { noaa_id: string; days: number }[] };
  exposed_area: Area | null;
  exposed_assets: { count: number; assets_without_elevation: number; truncated: boolean; assets: { asset_id: string; depth: Length; ground_elevation_navd88: Length; water_level_navd88: Length; ground_basis: string }[] };
  existing_water: { today_mhhw_navd88: Length; open_water: Area | null; land_below_mhhw: Area | null; assets: number };
}
type Component = { status: string; results: Exposure[]; [key: string]: unknown };
const analyse = (request: Partial<FloodAnalysisRequest> & Pick<FloodAnalysisRequest, 'components'>, deps: { elevation?: ElevationSource; layers?: ReturnType<typeof layersOf>; assets?: AssetPoint[] } = {}) =>
  analyzeFlooding({ boundary: whole(), scenarios: ['intermediate'], horizons: [2050, 2100], currentYear: 2026, ...request },
    { elevation: deps.elevation ?? graded, layers: deps.layers ?? noLayers, tides: noTides, assets: deps.assets ?? [] });
const component = (result: Awaited<ReturnType<typeof analyse>>, name: string) => result.components[name] as Component;

describe('work units of the immediate-or-job decision', () => {
  it('are passes × (cells + 20 per asset) + native cells, cells capped at the analysis grid', () => {
    const request = { components: ['tidal', 'surge'] as const, scenarios: ['low', 'intermediate', 'high'] as const, horizons: [2050], boundary: { area_km2: 10 } };
    // 2 components × 3 scenarios × 1 horizon; 10 km² at 1,100 cells per km².
    expect(estimateFloodAnalysisWork({ ...request, components: [...request.components], scenarios: [...request.scenarios] }, 5, 7)).toBe(6 * (11_000 + 100) + 7);
    expect(estimateFloodAnalysisWork({ ...request, components: ['tidal'], scenarios: ['low'], horizons: [2050, 2070], boundary: { area_km2: 2_000 } }, 0)).toBe(2 * MAX_ANALYSIS_CELLS);
  });
});

describe('the MHHW the tidal levels stand on, handed to the exposure of each asset', () => {
  it('is that of a NOAA station on the same water within 10 km, else of the place\'s own gauges or of the gauge the caller chose for the whole area', async () => {
    const mhhwAt = async (selection?: GaugeSelection) => {
      let handed: AnalysedSurfaces | undefined;
      await analyzeFlooding({ boundary: whole(), components: ['tidal'], scenarios: ['intermediate'], horizons: [2050], currentYear: 2026, ...(selection ? { selection } : {}) },
        { elevation: graded, layers: noLayers, tides: noTides, assets: [], onSurfaces: (analysed) => { handed = analysed; } });
      return handed!.mhhwAt;
    };
    // Downtown Jacksonville: its own station, 8720226 (0.6 km), whatever gauges carry the rise.
    const [lon, lat] = [-81.6594, 30.3257];
    const jacksonville = DATUM_STATIONS.find((s) => s.noaa_id === '8720226')!.mhhw_navd88_m;
    const one: GaugeSelection = { method: 'single_gauge', gauges: [{ gauge: gaugeById('8726520')!, distance_km: 0, weight: 1 }], reason: 'r' };
    expect((await mhhwAt())(lon, lat)).toBe(jacksonville);
    expect((await mhhwAt(one))(lon, lat)).toBe(jacksonville);
    // Orlando: no station within 10 km, so the gauges'.
    const [inlandLon, inlandLat] = [-81.3792, 28.5383];
    expect((await mhhwAt())(inlandLon, inlandLat)).toBe(weightedMhhwNavd88(selectGauges({ lon: inlandLon, lat: inlandLat })));
    expect((await mhhwAt(one))(inlandLon, inlandLat)).toBe(mhhwAboveNavd88(gaugeById('8726520')!));
  });
});

describe('gauge surge statistics and the compound envelope', () => {
  // Analysed in each test: a mutation run switches a mutant on per test, so work done once before the tests would not see it.
  const run = () => analyse({ components: ['tidal', 'surge', 'compound'] }, { assets: [asset('a', 20), asset('b', 30)] });

  it('names the fitted gauge, its parameters, the fit each asset used and the sources of every part', async () => {
    const result = await run();
    const surge = component(result, 'surge');
    expect(surge.gauge).toMatchObject({ noaa_id: '8726520', name: 'St. Petersburg, FL', surge_regime: 'tampa_bay', gev_parameters: { mu_m: expect.any(Number), sigma_m: expect.any(Number), xi: expect.any(Number) } });
    expect(surge.asset_gauges).toEqual([{ noaa_id: '8726520', name: 'St. Petersburg, FL', assets: 2 }]);
    const notes = (surge.current_conditions as { note: string }[]).map((c) => c.note);
    expect(notes[0]).toMatch(/initial \(current 100-year\) event/);
    expect(notes[1]).toMatch(/^On the sea level of 2026: rise since 2000 of the NOAA 2022 Intermediate scenario \(median\) at the selected gauges, \d+ mm\.$/);
    expect(result.sources.map((source) => source.id).sort()).toEqual(['gev_wong', 'noaa_datums', 'noaa_htf', 'noaa_tr2022', 'uhslc_daily_max_peaks', 'us_atlas']);
    expect(result.elevation).not.toHaveProperty('native_resolution_areas');
  });

  it('tidal: the design level is MHHW plus the rise 1992→2000 plus the projected rise since 2000', async () => {
    const result = await run();
    const tidal = component(result, 'tidal');
    const mhhw = (tidal.mhhw_navd88 as Length).m;
    const epoch = result.datum_epoch.rise_1992_to_2000.m;
    expect(epoch).toBeGreaterThan(0.01);
    for (const r of tidal.results) expect(r.design_water_level_navd88!.m).toBeCloseTo(mhhw + epoch + r.sea_level_rise.m, 3);
  });

  it('gives the 100- and 500-year events with their probabilities, each area counted from the ground', async () => {
    const result = await run();
    const surge = component(result, 'surge');
    expect(surge.status).toBe('ok');
    expect((surge.current_conditions as { return_period_years: number; annual_exceedance_probability: number }[]).map((c) => [c.return_period_years, c.annual_exceedance_probability])).toEqual([[100, 0.01], [500, 0.002]]);
    expect(surge.results.map((r) => [r.planning_horizon, r.return_period_years, r.annual_exceedance_probability])).toEqual([[2050, 100, 0.01], [2050, 500, 0.002], [2100, 100, 0.01], [2100, 500, 0.002]]);
    for (const r of surge.results) {
      const exposed = landBetween(r.existing_water.today_mhhw_navd88.m, r.design_water_level_navd88!.m);
      expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => exposed(col)));
    }
    // The 500-year level stands higher than the 100-year one at each horizon, and so does its area.
    expect(surge.results[1]!.exposed_area!.acres).toBeGreaterThan(surge.results[0]!.exposed_area!.acres);
  });

  it('combines tidal and the 100-year surge, never the 500-year one, as the highest level at each place', async () => {
    const result = await run();
    const compound = component(result, 'compound');
    const surge = component(result, 'surge').results;
    const tidal = component(result, 'tidal').results;
    expect(compound.status).toBe('ok');
    expect(compound.components_combined).toEqual(['tidal', 'surge']);
    expect((compound.components_missing as { component: string }[]).map((m) => m.component)).toEqual(['rainfall']);
    compound.results.forEach((r, i) => {
      const level = Math.max(tidal[i]!.design_water_level_navd88!.m, surge.find((s) => s.planning_horizon === r.planning_horizon && s.return_period_years === 100)!.design_water_level_navd88!.m);
      const exposed = landBetween(r.existing_water.today_mhhw_navd88.m, level);
      expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => exposed(col)));
    });
    expect(compound.results[1]!.exposed_area!.acres).toBeLessThan(surge[3]!.exposed_area!.acres);
  });

  it('tidal: depth above the minor flood threshold is zero below it and the difference above it', async () => {
    const result = await run();
    const tidal = component(result, 'tidal');
    const minor = (tidal.high_tide_flood_thresholds_navd88 as { minor: Length }).minor.m;
    const [y2050, y2100] = tidal.results;
    expect(y2050!.design_water_level_navd88!.m).toBeLessThan(minor);
    expect(y2050!.depth_above_minor_threshold!.m).toBe(0);
    expect(y2100!.design_water_level_navd88!.m).toBeGreaterThan(minor);
    expect(y2100!.depth_above_minor_threshold!.m).toBeCloseTo(y2100!.design_water_level_navd88!.m - minor, 3);
  });

  it('tidal: flood days are the gauges\' days weighted as the gauges are', async () => {
    const result = await run();
    const weights = new Map(result.gauge_selection.gauges.map((g) => [g.noaa_id, g.weight]));
    expect(weights.size).toBe(2);
    for (const r of component(result, 'tidal').results) {
      const days = r.tidal_flood_days_per_year!;
      const weighted = days.by_gauge.reduce((s, g) => s + weights.get(g.noaa_id)! * g.days, 0);
      expect(Math.abs(days.minor - weighted)).toBeLessThanOrEqual(0.1);
    }
    const [y2050, y2100] = component(result, 'tidal').results;
    // The two gauges differ enough at 2100 that an unweighted mean would be told apart.
    const [a, b] = y2100!.tidal_flood_days_per_year!.by_gauge;
    expect(Math.abs(a!.days - b!.days)).toBeGreaterThan(10);
    expect(y2050!.tidal_flood_days_per_year!.minor).toBeLessThan(y2100!.tidal_flood_days_per_year!.minor);
  });

  it('states the boundary\'s own area', async () => {
    const result = await run();
    expect(result.boundary.area.km2).toBeCloseTo(whole().area_km2, 3);
    expect(result.boundary.area.km2).toBeGreaterThan(17);
  });
});

describe('flood days when the caller\'s selection gives a gauge no weight', () => {
  const centre = { lon: colLon(20), lat: rowLat(20) };
  const tidalDays = async (selection: GaugeSelection) => {
    const result = await analyse({ components: ['tidal'], horizons: [2100], selection });
    const regional = result.sources.some((source) => source.id === 'noaa_tr2022_regional');
    expect(regional).toBe(selection.method === 'regional_fallback');
    return component(result, 'tidal').results[0]!.tidal_flood_days_per_year!;
  };

  it('leaves out a gauge of weight zero, and a regional fallback counts each of its gauges equally', async () => {
    const [first, second] = selectGauges(centre).gauges;
    const one = await tidalDays({ method: 'inverse_distance_two_gauges', separation_miles: 19.6, reason: 'test', gauges: [{ ...first!, weight: 1 }, { ...second!, weight: 0 }] });
    expect(one.by_gauge.map((g) => g.noaa_id)).toEqual([first!.gauge.noaa_id]);
    expect(one.minor).toBe(one.by_gauge[0]!.days);
    const fallback = await tidalDays({ method: 'regional_fallback', region: 'EGOM', reason: 'test', gauges: [{ ...first!, weight: 0 }, { ...second!, weight: 0 }] });
    expect(fallback.by_gauge.map((g) => g.noaa_id)).toEqual([first!.gauge.noaa_id, second!.gauge.noaa_id]);
    expect(Math.abs(fallback.minor - (fallback.by_gauge[0]!.days + fallback.by_gauge[1]!.days) / 2)).toBeLessThanOrEqual(0.1);
  });
});

describe('loaded surge and rainfall layers', () => {
  // Surge: one 100-year polygon over columns 0–19 at 1.0 m. Rainfall: a 100-year pond on the upland
  // (columns 30–34, 3.0 m) and a 500-year one over columns 30–39 at 3.2 m.
  const surgeRing = boxRing(0, 20);
  const layers = layersOf([
    layer('surge', 100, surgeRing, 1.0),
    // A 500-year surge layer over a strip of the bay only: the compound must not take it.
    layer('surge', 500, boxRing(0, 4), 1.3),
    layer('rainfall', 100, boxRing(30, 35), 3.0),
    layer('rainfall', 500, boxRing(30, 40), 3.2),
  ]);
  const run = () => analyse({ components: ['tidal', 'surge', 'rainfall', 'compound'] }, { layers, assets: [asset('low-road', 12), asset('pond-pump', 31), asset('upland', 37), asset('pier', 2)] });

  it('surge: the layer raised by each horizon\'s rise, inside its polygon only; a missing return period is named', async () => {
    const result = await run();
    const surge = component(result, 'surge');
    expect(surge.status).toBe('ok');
    expect(surge.basis).toBe('loaded_layers');
    expect(surge.data_needed).toBeUndefined();
    expect((surge.layers as { layer_id: string }[]).map((l) => l.layer_id)).toEqual(['surge-100', 'surge-500']);
    expect(surge.results.map((r) => [r.planning_horizon, r.return_period_years, r.annual_exceedance_probability])).toEqual([[2050, 100, 0.01], [2100, 100, 0.01], [2050, 500, 0.002], [2100, 500, 0.002]]);
    // Over open water only, the 500-year layer exposes no land.
    expect(surge.results.slice(2).map((r) => r.exposed_area!.acres)).toEqual([0, 0]);
    for (const r of surge.results.slice(0, 2)) {
      expect(r.water_surface_shift!.m).toBe(r.sea_level_rise.m);
      const level = 1.0 + r.sea_level_rise.m;
      const today = r.existing_water.today_mhhw_navd88.m;
      expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => col < 20 && landBetween(today, level)(col)));
    }
    // 2100: 1.0 + 1.15 m reaches past column 19, where the polygon ends.
    expect(1.0 + surge.results[1]!.sea_level_rise.m).toBeGreaterThan(groundOf(20));
    const road = surge.results[1]!.exposed_assets.assets;
    expect(road.map((a) => a.asset_id)).toEqual(['low-road']);
    expect(road[0]!.depth.m).toBeCloseTo(1.0 + surge.results[1]!.sea_level_rise.m - groundOf(12), 3);
  });

  it('rainfall: both return periods as modelled, with no sea level rise, on ground no tide reaches', async () => {
    const result = await run();
    const rainfall = component(result, 'rainfall');
    expect(rainfall.status).toBe('ok');
    expect(rainfall.data_needed).toBeUndefined();
    expect(rainfall.method).toMatch(/not adjusted for sea level rise/);
    expect(component(result, 'surge').method).toMatch(/raised by the projected sea level rise/);
    expect(rainfall.results.map((r) => [r.planning_horizon, r.return_period_years, r.annual_exceedance_probability, r.water_surface_shift!.m])).toEqual([[2050, 100, 0.01, 0], [2100, 100, 0.01, 0], [2050, 500, 0.002, 0], [2100, 500, 0.002, 0]]);
    const [r100, , r500] = rainfall.results;
    expectAcres(r100!.exposed_area!.acres, acresWhere((_row, col) => col >= 30 && col < 35 && f32(groundOf(col)) < 3.0));
    expectAcres(r500!.exposed_area!.acres, acresWhere((_row, col) => col >= 30 && f32(groundOf(col)) < 3.2));
    expect(r100!.exposed_assets.assets.map((a) => a.asset_id)).toEqual(['pond-pump']);
    expect(r500!.exposed_assets.assets.map((a) => a.asset_id)).toEqual(['pond-pump']);
  });

  it('compound: the envelope of the tide, the 100-year surge layer and the 100-year rainfall layer', async () => {
    const result = await run();
    const compound = component(result, 'compound');
    const tidal = component(result, 'tidal').results;
    expect(compound.components_combined).toEqual(['tidal', 'surge', 'rainfall']);
    expect(compound.components_missing).toEqual([]);
    compound.results.forEach((r, i) => {
      const today = r.existing_water.today_mhhw_navd88.m;
      const tide = tidal[i]!.design_water_level_navd88!.m;
      const surgeLevel = 1.0 + r.sea_level_rise.m;
      expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => landBetween(today, tide)(col)
        || (col < 20 && landBetween(today, surgeLevel)(col))
        || (col >= 30 && col < 35 && f32(groundOf(col)) < 3.0)));
      expect(r.exposed_assets.assets.map((a) => a.asset_id).sort()).toEqual(['low-road', 'pond-pump']);
      // The pier stands in the bay: existing water, never newly exposed.
      expect(r.existing_water.assets).toBe(1);
    });
  });

  it('where polygons of one layer overlap, each cell takes the highest of their levels', async () => {
    // The whole upland at 3.2 m, then a polygon over its west half at 2.0 m (listed last: order must not matter).
    const pond = layer('rainfall', 100, boxRing(30, 40), 3.2);
    const overlapping = { ...pond, features: [...pond.features, { geometry: polygon(boxRing(30, 35)), wse_navd88_m: 2.0 }] };
    const result = await analyse({ components: ['rainfall'], horizons: [2050] }, { layers: layersOf([overlapping]) });
    const r = component(result, 'rainfall').results[0]!;
    expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => col >= 30 && f32(groundOf(col)) < 3.2));
  });

  it('names the loaded layers among the sources', async () => {
    const result = await run();
    expect(result.sources.map((source) => source.id)).toContain('operator_layers');
  });

  it('a surge layer without its 500-year partner is partial, and says which event is missing', async () => {
    const only100 = await analyse({ components: ['surge'], horizons: [2050] }, { layers: layersOf([layer('surge', 100, surgeRing, 1.0)]) });
    const surge = component(only100, 'surge');
    expect(surge.status).toBe('partial');
    expect(surge.data_needed).toMatch(/^No 500-year surge layer covers this boundary\. Load storm surge water-surface layers/);
    expect(surge.results.map((r) => r.return_period_years)).toEqual([100]);
  });

  it('a layer of another return period only: no data, with both events named', async () => {
    const other = await analyse({ components: ['rainfall'] }, { layers: layersOf([layer('rainfall', 25, boxRing(30, 35), 3.0)]) });
    const rainfall = component(other, 'rainfall');
    expect(rainfall.status).toBe('no_data');
    expect(rainfall.results).toEqual([]);
    expect(rainfall.data_needed).toMatch(/^No 100 and 500-year rainfall layer covers this boundary\./);
  });
});

describe('a boundary with no sea or bay water', () => {
  it('tidal and surge do not apply, rainfall needs a design storm, and the compound names what each part needs', async () => {
    const upland = gridSource(() => 3);
    const result = await analyse({ components: ['tidal', 'surge', 'rainfall', 'compound'] }, { elevation: upland });
    for (const name of ['tidal', 'surge']) expect(result.components[name]).toMatchObject({ status: 'not_applicable', setting: 'inland' });
    // A level plain holds no depression.
    expect(result.components.rainfall).toMatchObject({ status: 'needs_design_storm', count: 0, depressions: [], design_storm_needed: expect.stringMatching(/NOAA Atlas 14/) });
    expect(result.sources.map((source) => source.id)).not.toContain('operator_layers');
    const compound = component(result, 'compound');
    expect(compound).toMatchObject({ status: 'no_data', components_available: [] });
    expect(compound.data_needed).toMatch(/^Tidal datums need a NOAA gauge within 100 miles\. Load storm surge .* Load 100- and 500-year rainfall flood layers/);
  });

  it('with a storm, rainfall runs off the level plain and the compound has no coastal level to hold it against', async () => {
    const storm = { depth_mm: 100, duration_h: 24, return_period_years: 100, source: 'stated' };
    const result = await analyse({ components: ['rainfall', 'compound'], horizons: [2050], rainfall: storm }, { elevation: gridSource(() => 3) });
    const rainfall = component(result, 'rainfall');
    expect(rainfall).toMatchObject({ status: 'computed', ponded_volume_m3: 0 });
    const balance = rainfall.volume_balance as { left_model_m3: number; runoff_m3: number };
    expect(balance.left_model_m3).toBeCloseTo(balance.runoff_m3, 0);
    const compound = component(result, 'compound');
    expect(compound.status).toBe('no_data');
    expect((compound.results[0] as unknown as { tidal: { status: string } }).tidal.status).toBe('not_computed');
  });
});

describe('the components asked for', () => {
  it('a compound request computes its parts but answers the compound alone', async () => {
    const result = await analyse({ components: ['compound'], horizons: [2050] }, { layers: layersOf([layer('rainfall', 100, boxRing(30, 35), 3.0)]) });
    expect(Object.keys(result.components)).toEqual(['compound']);
    // Surge alone asks for no tidal record, and a gauge far from any regional fallback names no regional projection.
    const surgeOnly = await analyse({ components: ['surge'], horizons: [2050] });
    expect(surgeOnly.sources.map((source) => source.id).sort()).toEqual(['gev_wong', 'noaa_datums', 'noaa_tr2022', 'us_atlas']);
    // The bundled SRTM is named when it supplied the ground.
    const onSrtm = await analyse({ components: ['surge'], horizons: [2050] }, { elevation: gridSource((_row, col) => groundOf(col), { elevation_model_id: 'srtm-1arcsec' }) });
    expect(onSrtm.sources.map((source) => source.id)).toContain('srtm');
    expect(component(result, 'compound').components_combined).toEqual(['tidal', 'surge', 'rainfall']);
  });
});

describe('the sources named and the components answered', () => {
  // Surge and rainfall layers loaded over the whole grid: only the components asked for may read them.
  const loaded = layersOf([layer('surge', 100, boxRing(0, 20), 1.0), layer('surge', 500, boxRing(0, 20), 1.4), layer('rainfall', 100, boxRing(30, 35), 3.0)]);
  const ids = (result: Awaited<ReturnType<typeof analyse>>) => result.sources.map((source) => source.id).sort();

  it('tidal alone answers tidal alone, and names neither the loaded layers nor the surge statistics', async () => {
    const result = await analyse({ components: ['tidal'], horizons: [2050] }, { layers: loaded });
    expect(Object.keys(result.components)).toEqual(['tidal']);
    expect(ids(result)).toEqual(['noaa_datums', 'noaa_htf', 'noaa_tr2022', 'uhslc_daily_max_peaks', 'us_atlas']);
  });

  it('surge from a loaded layer names the layers and not the gauge statistics it did not use', async () => {
    const result = await analyse({ components: ['surge'], horizons: [2050] }, { layers: loaded });
    expect(component(result, 'surge').basis).toBe('loaded_layers');
    expect(ids(result)).toEqual(['noaa_datums', 'noaa_tr2022', 'operator_layers', 'us_atlas']);
  });

  it('rainfall from a loaded layer names the layers', async () => {
    const result = await analyse({ components: ['rainfall'], horizons: [2050] }, { layers: loaded });
    expect(Object.keys(result.components)).toEqual(['rainfall']);
    expect(ids(result)).toContain('operator_layers');
  });
});

describe('a surveyed asset on a cell higher than the water', () => {
  // A 5 m cell (a building) at row 20, column 10 of the graded grid; the land around it is 0.7 m.
  const building = gridSource((row, col) => (row === 20 && col === 10 ? 5 : groundOf(col)));
  it('is reached through the connected cells around it and stands on its surveyed ground', async () => {
    const result = await analyse({ components: ['tidal'], horizons: [2100] }, { elevation: building, assets: [asset('on-the-building', 10, surveyed(0.7)), asset('dem-on-the-building', 10)] });
    const listed = component(result, 'tidal').results[0]!.exposed_assets;
    const onBuilding = listed.assets.find((a) => a.asset_id === 'on-the-building')!;
    const level = onBuilding.water_level_navd88.m;
    expect(level).toBeLessThan(5);
    expect(level).toBeGreaterThan(f32(groundOf(9)));
    expect(onBuilding.depth.m).toBeCloseTo(level - 0.7, 3);
    // Without a survey the asset's ground is the building's: the water does not reach 5 m.
    expect(listed.assets.map((a) => a.asset_id)).not.toContain('dem-on-the-building');
  });
});

describe('assets listed by depth', () => {
  // 501 surveyed assets on the land band, each 1.5 mm higher than the last; a gap in the grid at column 39.
  const withGap = gridSource((_row, col) => (col === 39 ? Number.NaN : groundOf(col)));
  const many = Array.from({ length: MAX_LISTED_ASSETS + 1 }, (_, i) => asset(`a${i}`, 10, surveyed(0.5 + i * 0.0015, i % 2 === 0 ? 'ground' : 'first_floor')));
  const assets = [...many, asset('dem-1', 9), asset('dem-2', 11), asset('in-the-gap', 39), asset('outside', 39, { lat: rowLat(60) })];
  const run = async () => {
    const result = await analyse({ components: ['tidal'], horizons: [2100] }, { elevation: withGap, assets });
    return { result, tidal2100: component(result, 'tidal').results[0]! };
  };

  it('deepest first, the first 500 listed, the count complete', async () => {
    const { tidal2100 } = await run();
    const listed = tidal2100.exposed_assets;
    expect(listed.count).toBe(MAX_LISTED_ASSETS + 3);
    expect(listed.truncated).toBe(true);
    expect(listed.assets).toHaveLength(MAX_LISTED_ASSETS);
    const depths = listed.assets.map((a) => a.depth.m);
    expect(depths).toEqual([...depths].sort((a, b) => b - a));
    // The highest surveyed asset and the DEM asset at 0.8 m are the shallowest: one of them misses the list.
    // Each asset's depth stands on its own level (its own local MHHW), not the boundary's.
    const level = listed.assets[0]!.water_level_navd88.m;
    expect(listed.assets[0]!.depth.m).toBeCloseTo(level - 0.5, 3);
    expect(listed.assets.map((a) => a.asset_id)).not.toContain(`a${MAX_LISTED_ASSETS}`);
  });

  it('lists every one of exactly 500 exposed assets, and does not call the list truncated', async () => {
    const exactly = Array.from({ length: MAX_LISTED_ASSETS }, (_, i) => asset(`a${i}`, 10, surveyed(0.5 + i * 0.0015)));
    const result = await analyse({ components: ['tidal'], horizons: [2100] }, { assets: exactly });
    const listed = component(result, 'tidal').results[0]!.exposed_assets;
    expect([listed.count, listed.truncated, listed.assets.length]).toEqual([MAX_LISTED_ASSETS, false, MAX_LISTED_ASSETS]);
  });

  it('counts as without elevation only the assets without ground that the water reaches', async () => {
    // Gaps in the grid at columns 15 and 30; a surge layer over columns 0–19 only.
    const gaps = gridSource((_row, col) => (col === 15 || col === 30 ? Number.NaN : groundOf(col)));
    const layers = layersOf([layer('surge', 100, boxRing(0, 20), 1.0)]);
    const result = await analyse({ components: ['surge'], horizons: [2050] }, { elevation: gaps, layers, assets: [asset('reached', 15), asset('beyond-the-layer', 30), asset('low', 8)] });
    const surge100 = component(result, 'surge').results.find((r) => r.return_period_years === 100)!;
    expect(surge100.exposed_assets.assets_without_elevation).toBe(1);
    expect(surge100.exposed_assets.assets.map((a) => a.asset_id)).toEqual(['low']);
  });

  it('counts an asset whose ground no source gives as without elevation, and leaves out assets outside the boundary', async () => {
    const { result, tidal2100 } = await run();
    expect(tidal2100.exposed_assets.assets_without_elevation).toBe(1);
    expect(result.assets.inside_boundary).toBe(MAX_LISTED_ASSETS + 4);
  });

  it('names the ground of the assets and the share of the boundary the elevation covers', async () => {
    const { result, tidal2100 } = await run();
    expect(result.elevation).toMatchObject({ status: 'partial', coverage_fraction: 0.975 });
    expect(result.elevation.asset_ground).toMatchObject({ surveyed: MAX_LISTED_ASSETS + 1, from_dem: 2, surface_model_flagged: 0 });
    const bases = new Set(tidal2100.exposed_assets.assets.map((a) => a.ground_basis));
    expect([...bases].sort()).toEqual(['dem', 'surveyed_first_floor', 'surveyed_ground']);
  });
});

describe('the share of the boundary the elevation covers', () => {
  it('counts the cells inside the boundary only: a gap outside it leaves the boundary covered', async () => {
    const withGap = gridSource((_row, col) => (col === 39 ? Number.NaN : groundOf(col)));
    const west = await analyse({ components: ['tidal'], horizons: [2050], boundary: boundaryOf(boxRing(0, 30)) }, { elevation: withGap });
    expect(west.elevation).toMatchObject({ status: 'covered', coverage_fraction: 1 });
    const east = await analyse({ components: ['tidal'], horizons: [2050], boundary: boundaryOf(boxRing(30, 40)) }, { elevation: withGap });
    expect(east.elevation).toMatchObject({ status: 'partial', coverage_fraction: 0.9 });
  });
});

describe('existing water of a boundary smaller than the grid', () => {
  it('counts the open water and the land below MHHW inside the boundary only', async () => {
    // Columns 2–19, rows 10–29: three columns of the bay's five.
    const result = await analyse({ components: ['tidal'], horizons: [2050], boundary: boundaryOf(boxRing(2, 20, 10, 30)) });
    const r = component(result, 'tidal').results[0]!;
    const today = r.existing_water.today_mhhw_navd88.m;
    const inside = (row: number, col: number) => row >= 10 && row < 30 && col >= 2 && col < 20;
    expectAcres(r.existing_water.open_water!.acres, acresWhere((row, col) => inside(row, col) && col < 5));
    expectAcres(r.existing_water.land_below_mhhw!.acres, acresWhere((row, col) => inside(row, col) && col >= 5 && f32(groundOf(col)) < today));
  });
});

describe('a boundary no elevation covers', () => {
  it('gives levels and surveyed assets\' depths, no areas, and counts the other assets as without elevation', async () => {
    const result = await analyse({ components: ['tidal'], horizons: [2100] }, { elevation: noElevation, assets: [asset('surveyed', 20, surveyed(0.9)), asset('unsurveyed', 21)] });
    expect(result.elevation).toMatchObject({ status: 'not_covered', asset_ground: { surveyed: 1, from_dem: 0, surface_model_flagged: 0 } });
    const r = component(result, 'tidal').results[0]!;
    expect(r.exposed_area).toBeNull();
    expect(r.existing_water).toMatchObject({ open_water: null, land_below_mhhw: null, assets: 0 });
    expect(r.exposed_assets.count).toBe(1);
    expect(r.exposed_assets.assets_without_elevation).toBe(1);
    expect(r.exposed_assets.assets[0]!.depth.m).toBeCloseTo(r.design_water_level_navd88!.m - 0.9, 3);
  });

  it('says the tidal connection is not known, on the tidal and the gauge surge component, and not where elevation covers', async () => {
    const unknown = { setting: 'unknown', note: 'Without elevation data the tidal connection of this boundary is not known: the levels are the coastal water levels near the gauges, not depths here.' };
    const result = await analyse({ components: ['tidal', 'surge'], horizons: [2050] }, { elevation: noElevation });
    expect(result.components.tidal).toMatchObject({ status: 'ok', ...unknown });
    expect(result.components.surge).toMatchObject(unknown);
    const covered = await analyse({ components: ['tidal', 'surge'], horizons: [2050] });
    expect(covered.components.tidal).not.toHaveProperty('setting');
    expect(covered.components.surge).not.toHaveProperty('setting');
  });

  it('adds, when none of the boundary\'s counties is on the open coast, that only a tidal river would bring tidal flooding there', () => {
    expect(settingWithoutElevation([{ fips: '12095', name: 'Orange' }, { fips: '12117', name: 'Seminole' }]).note).toBe(
      'Without elevation data the tidal connection of this boundary is not known: the levels are the coastal water levels near the gauges, not depths here. None of its counties (Orange, Seminole) reaches the open coast (Florida\'s 35 coastal counties): unless the boundary lies on a tidal river (the lower St. Johns), tidal flooding and storm surge do not reach it, and the noncoastal checklist applies.',
    );
    expect(settingWithoutElevation([{ fips: '12095', name: 'Orange' }, { fips: '12009', name: 'Brevard' }]).note).not.toMatch(/None of its counties/);
  });
});

describe('areas at the DEM\'s native resolution', () => {
  const fine = gridSource((_row, col) => groundOf(col), { resolution_m: 2 });
  /**
   * The 2 m model whose analysis grid (read with the analysis budget) is an overview that lost the
   * low band of columns 5–9 (raised to 3 m, walling the bay off); the native windows read the model itself.
   */
  const walledOverview = gridSource((_row, col) => (col >= 5 && col < 10 ? 3 : groundOf(col)));
  const withOverview: ElevationSource = { info: fine.info, grid: (box, maxCells) => (maxCells === MAX_ANALYSIS_CELLS ? walledOverview : fine).grid(box, maxCells) };

  it('a 2 m model is tallied window by window, and the areas are those of the same cells', async () => {
    const result = await analyse({ components: ['tidal', 'surge'] }, { elevation: fine });
    expect(result.elevation).toHaveProperty('native_resolution_areas.cell_size_m', 2);
    for (const r of [...component(result, 'tidal').results, ...component(result, 'surge').results]) {
      const today = r.existing_water.today_mhhw_navd88.m;
      expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => landBetween(today, r.design_water_level_navd88!.m)(col)));
      expectAcres(r.existing_water.open_water!.acres, acresWhere((_row, col) => col < 5));
      expectAcres(r.existing_water.land_below_mhhw!.acres, acresWhere((_row, col) => col >= 5 && f32(groundOf(col)) < today));
    }
  });

  it('existing water is counted on the native cells, not on the coarser analysis grid', async () => {
    const result = await analyse({ components: ['tidal'], horizons: [2050] }, { elevation: withOverview });
    expect(result.elevation).toHaveProperty('native_resolution_areas.cell_size_m', 2);
    const r = component(result, 'tidal').results[0]!;
    const today = r.existing_water.today_mhhw_navd88.m;
    expectAcres(r.existing_water.open_water!.acres, acresWhere((_row, col) => col < 5));
    expectAcres(r.existing_water.land_below_mhhw!.acres, acresWhere((_row, col) => col >= 5 && f32(groundOf(col)) < today));
  });

  it('the compound of two still-water levels is the higher one, tallied on the native cells', async () => {
    const result = await analyse({ components: ['tidal', 'surge', 'compound'] }, { elevation: withOverview });
    const tidal = component(result, 'tidal').results;
    const surge = component(result, 'surge').results;
    component(result, 'compound').results.forEach((r, i) => {
      const level = Math.max(tidal[i]!.design_water_level_navd88!.m, surge.find((s) => s.planning_horizon === r.planning_horizon && s.return_period_years === 100)!.design_water_level_navd88!.m);
      expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => landBetween(r.existing_water.today_mhhw_navd88.m, level)(col)));
    });
  });

  it('a compound with a loaded layer is tallied on the analysis grid, each place under its highest level', async () => {
    const result = await analyse({ components: ['tidal', 'surge', 'compound'], horizons: [2050] }, { elevation: fine, layers: layersOf([layer('rainfall', 100, boxRing(30, 35), 3.0)]) });
    const tide = component(result, 'tidal').results[0]!.design_water_level_navd88!.m;
    const surge100 = component(result, 'surge').results.find((s) => s.return_period_years === 100)!.design_water_level_navd88!.m;
    const r = component(result, 'compound').results[0]!;
    expect(component(result, 'compound').components_combined).toEqual(['tidal', 'surge', 'rainfall']);
    const today = r.existing_water.today_mhhw_navd88.m;
    expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => landBetween(today, Math.max(tide, surge100))(col) || (col >= 30 && col < 35 && f32(groundOf(col)) < 3.0)));
  });

  it('a loaded layer over a 2 m model still leaves out the land below today\'s MHHW', async () => {
    const result = await analyse({ components: ['rainfall'], horizons: [2050] }, { elevation: fine, layers: layersOf([layer('rainfall', 100, boxRing(0, 20), 1.0)]) });
    const r = component(result, 'rainfall').results[0]!;
    const today = r.existing_water.today_mhhw_navd88.m;
    expectAcres(r.exposed_area!.acres, acresWhere((_row, col) => col < 20 && landBetween(today, 1.0)(col)));
  });
});

describe('assets on a surface model', () => {
  it('an asset on a block standing out of flat ground is flagged as probably a roof; one on the flat ground is not', async () => {
    // Flat land at 0.8 m with a 3 × 3 block a flag threshold and half a metre higher; a rainfall pond over both at 6 m.
    const block = (row: number, col: number) => row >= 10 && row <= 12 && col >= 20 && col <= 22;
    const surface = gridSource((row, col) => (col < 5 ? -1 : block(row, col) ? 0.8 + RELIEF_FLAG_M + 0.5 : 0.8), { surface_model: true });
    const pond = layersOf([layer('rainfall', 100, boxRing(15, 30), 6)]);
    const result = await analyse({ components: ['rainfall'], horizons: [2050], allowSurfaceModel: true }, { elevation: surface, layers: pond, assets: [asset('roof', 21, { lat: rowLat(11) }), asset('yard', 17)] });
    expect(result.elevation.asset_ground).toMatchObject({ from_dem: 2, surface_model_flagged: 1 });
    const listed = component(result, 'rainfall').results[0]!.exposed_assets.assets as Record<string, unknown>[];
    expect(listed.map((a) => [a.asset_id, a.surface_model_flag])).toEqual([['yard', undefined], ['roof', true]]);
    expect(listed[0]).not.toHaveProperty('surface_model_flag');
  });
});
