import { cellIndexAt, cellSizeMetres, coveredFraction, rowCellAreas, sourceInfoFor, type ElevationSource } from './elevation';
import { connectedFloodModel, connectionAround, describeConnection, type CacheUse, type Connection } from './connection';
import { describeGround, noBareEarth, noGroundReason, readGround, siteGround, usesSrtm, withheldSurfaceModelAt, type GroundGrid, type GroundOptions } from './ground';
import { GROUND_METHOD, projectedMhhw, riseSince2000 } from './slr-impact';
import { MARGIN_CELLS, nativeCellCount, tallyAtNativeResolution, WINDOW_CELLS, type SpillTally } from './native-area';
import { componentExtents, inundationExtents } from './inundation-extents';
import type { AnalysedSurfaces, AssetSite } from './analysed-surfaces';
import type { BBox, LatLon } from './geo';
import { epochRise, selectGauges, type Gauge, type GaugeSelection } from './gauges';
import { LayerSurface, type HazardLayer, type HazardLayerSource } from './hazard-layers';
import { isInundated, isOpenWater, siteDepth, surveyedSiteCell, type FloodModel } from './inundation';
import { GEV_LABEL, gevReturnLevel, officialOnePercent, surgeBasis } from './surge';
import { localSeaLevelRise } from './local-slr';
import { BASELINE_NOTE, datumEpoch, provenance, SCREENING_NOTICE, sourcesOf, type SourceId } from './provenance';
import { describeGaugeSelection } from './responses';
import { SCENARIO_LABELS, type ScenarioId } from './scenarios';
import { AssetIndex, type AssetPoint } from './spatial-index';
import { connectedLevelSurface, envelopeSurface, layerSurface, type WaterSurface } from './flood-surfaces';
import { FLOOD_DAY_METHOD, projectFloodDays, type TidePredictor } from './tide-flood-days';
import { weightedHtfThresholdsNavd88, weightedMhhwNavd88, weightedMslNavd88 } from './tidal';
import { area, length, roundTo } from './units';
import { areaDatumCheck, mhhwAt, mhhwSource } from './datum-check';
import type { ValidBoundary } from './boundary';
import { rasterizePolygon } from './rasterize';

import { DESIGN_RETURN_PERIOD_YEARS, type FloodComponent } from './vocabulary';
import { isCoastalCounty } from '../compliance/setting';
import { inlandBoundary } from './inland';
import { compoundWithStorm, rainfallOnGrid, type StormOnGrid, type WetCells } from './rainfall-component';
import type { DesignStorm } from './rainfall-ponding';

export { FLOOD_COMPONENTS, type FloodComponent } from './vocabulary';

/** Cells of the elevation grid per analysis: beyond this the DEM is read decimated (cell size reported). */
export const MAX_ANALYSIS_CELLS = 1_000_000;
/** Exposed assets listed per result (deepest first); the count is always complete. */
export const MAX_LISTED_ASSETS = 500;
const SURGE_RETURN_PERIODS = [100, 500] as const;
const RAINFALL_RETURN_PERIODS = [100, 500] as const;
const PERCENTILE = '50';
/** The scenario of "today's" sea level: NOAA 2022's five scenarios lie within about 3 cm of one another in the 2020s. */
const CURRENT_CONDITIONS_SCENARIO: ScenarioId = 'intermediate';

export interface FloodAnalysisRequest {
  boundary: ValidBoundary;
  components: FloodComponent[];
  scenarios: ScenarioId[];
  horizons: number[];
  /** The caller's single-gauge choice; default: the two-gauge rule at the boundary's centre and at each asset. */
  selection?: GaugeSelection;
  /** This year: today's MHHW (same scenario) separates existing water from newly exposed land. Default: 2000, the projections' baseline. */
  currentYear?: number;
  /** Return the inundated extent per scenario × horizon as GeoJSON polygons. */
  includeExtents?: boolean;
  /** The design storm (the caller's or the account's stored one) for rainfall ponding on the grid. */
  rainfall?: DesignStorm;
  /** The caller's `allow_surface_model`: a surface model (SRTM) may give the ground where no bare-earth model does. */
  allowSurfaceModel?: boolean;
}

export interface FloodAnalysisDeps {
  elevation: ElevationSource;
  layers: HazardLayerSource;
  tides: TidePredictor;
  assets: readonly AssetPoint[];
  /** Called as the analysis advances (jobs persist it). */
  progress?: (fraction: number) => Promise<void> | void;
  /** Receives the design water surfaces and asset sites once computed (exposure on assets, inundation extents). */
  onSurfaces?: (analysed: AnalysedSurfaces) => Promise<void> | void;
}

export type { AnalysedSurfaces, AssetSite };

/** Lets the process answer other requests between the long synchronous passes of an analysis. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Work units used to decide between an immediate answer and a job; `nativeCells` are the cells the
 * native-resolution pass reads (see nativePassCells), one unit each.
 */
export function estimateFloodAnalysisWork(request: Omit<FloodAnalysisRequest, 'boundary'> & { boundary: Pick<ValidBoundary, 'area_km2'> }, assetCount: number, nativeCells = 0): number {
  const passes = request.components.length * request.scenarios.length * request.horizons.length;
  const cells = Math.min(MAX_ANALYSIS_CELLS, request.boundary.area_km2 * 1100);
  return passes * (cells + assetCount * 20) + nativeCells;
}

/** Cells of the native-resolution pass over `box`: none when the analysis grid is already native. */
export function nativePassCells(source: ElevationSource, box: BBox): number {
  const native = nativeCellCount(source, box);
  return native > MAX_ANALYSIS_CELLS ? native : 0;
}

/** Above this many work units an analysis runs as a job (a few seconds, well inside API Gateway's 29 s). */
export const SYNC_WORK_BUDGET = 3_000_000;

/**
 * Above this many work units an immediate analysis is also held to a wall-clock limit (uncached tide
 * predictions, a loaded server); below it the answer is always immediate, so whether a request gets
 * its result or a job depends on the request alone, never on the load of the moment.
 */
export const TIME_LIMITED_WORK = SYNC_WORK_BUDGET / 2;

interface AnalysisArea {
  model: FloodModel | undefined;
  mask: Uint8Array | undefined;
  rowAreas: Float64Array | undefined;
  sites: AssetSite[];
  /** Areas at the DEM's native resolution, when the analysis grid had to be coarser. */
  native?: SpillTally;
}

/** What lies below today's MHHW already (per scenario): reported as existing water, never as newly exposed. */
interface ExistingWater {
  today: number;
  year: number;
  /** 1 = land cell of the boundary already connected below today's MHHW. */
  cells: Uint8Array | undefined;
  openWaterArea: number;
  landArea: number;
  sites: Set<AssetSite>;
}

function existingWater(area_: AnalysisArea, today: number, year: number, todayAtSite: (site: AssetSite) => number): ExistingWater {
  const { model, mask, rowAreas } = area_;
  let openWaterArea = 0;
  let landArea = 0;
  let cells: Uint8Array | undefined;
  if (model && mask && rowAreas) {
    cells = new Uint8Array(mask.length);
    const { values, width } = model.grid;
    for (let i = 0; i < values.length; i++) {
      if (!mask[i] || Number.isNaN(values[i]!)) continue;
      const rowArea = rowAreas[Math.floor(i / width)]!;
      if (isOpenWater(model, i)) openWaterArea += rowArea;
      else if (isInundated(model, i, today)) { cells[i] = 1; landArea += rowArea; }
    }
  }
  if (area_.native) {
    openWaterArea = area_.native.openWaterM2;
    landArea = area_.native.areaBelow(today);
  }
  const sites = new Set(area_.sites.filter((site) => site.open_water
    || (site.ground !== undefined && siteDepth(model, site.cell, site.ground, todayAtSite(site)).depth_m > 0)));
  return { today, year, cells, openWaterArea, landArea, sites };
}

function exposure(surface: WaterSurface, area_: AnalysisArea, existing: ExistingWater) {
  let exposedArea = 0;
  const { model, mask, rowAreas, native } = area_;
  if (native && surface.uniformLevel !== undefined) {
    exposedArea = Math.max(0, native.areaBelow(surface.uniformLevel) - native.areaBelow(existing.today));
  } else if (model && mask && rowAreas) {
    const { values, width } = model.grid;
    for (let i = 0; i < values.length; i++) {
      if (!mask[i] || existing.cells?.[i]) continue;
      const ground = values[i]!;
      if (Number.isNaN(ground) || isOpenWater(model, i)) continue;
      if (surface.levelAtCell(i) > ground) exposedArea += rowAreas[Math.floor(i / width)]!;
    }
  }
  const exposed: { site: AssetSite; level: number; depth: number }[] = [];
  let unknown = 0;
  for (const site of area_.sites) {
    if (existing.sites.has(site)) continue;
    const level = surface.levelAtPoint(site.asset.lon, site.asset.lat, site.cell);
    if (level === -Infinity) continue;
    if (site.ground === undefined) { unknown++; continue; }
    if (level > site.ground) exposed.push({ site, level, depth: level - site.ground });
  }
  exposed.sort((a, b) => b.depth - a.depth);
  return {
    exposed_area: model ? area(exposedArea) : null,
    exposed_assets: {
      count: exposed.length,
      assets_without_elevation: unknown,
      truncated: exposed.length > MAX_LISTED_ASSETS,
      assets: exposed.slice(0, MAX_LISTED_ASSETS).map(({ site, level, depth }) => ({
        asset_id: site.asset.asset_id,
        name: site.asset.name,
        category: site.asset.category,
        lat: site.asset.lat,
        lon: site.asset.lon,
        ground_elevation_navd88: length(site.ground!),
        ground_basis: site.ground_basis,
        ground_source: site.ground_source,
        ...(site.surface_flag ? { surface_model_flag: true } : {}),
        water_level_navd88: length(level),
        depth: length(depth),
      })),
    },
    existing_water: {
      today_mhhw_navd88: length(existing.today),
      year: existing.year,
      open_water: model ? area(existing.openWaterArea) : null,
      land_below_mhhw: model ? area(existing.landArea) : null,
      assets: existing.sites.size,
    },
  };
}

const LAYER_DATA_NEEDED = {
  surge: 'Load storm surge water-surface layers (FEMA coastal still-water elevations or SLOSH/ADCIRC results, NAVD88) with bin/hazard-layers-load.ts, or check that a reliable NOAA tide gauge lies within 100 miles.',
  rainfall: 'Load 100- and 500-year rainfall flood layers (NOAA Atlas 14 design storms run through a local H&H model, water-surface elevation polygons in NAVD88) with bin/hazard-layers-load.ts.',
};

/**
 * The four flood components of s. 380.093(3)(d) over a boundary: per component, scenario and
 * horizon, the design water level (NAVD88), the exposed area where elevation covers the boundary
 * and the caller's assets inside it with their depths. A component without data says which data
 * to load; no level is ever invented.
 */
export async function analyzeFlooding(request: FloodAnalysisRequest, deps: FloodAnalysisDeps) {
  const { boundary } = request;
  const centre = { lon: (boundary.bbox[0] + boundary.bbox[2]) / 2, lat: (boundary.bbox[1] + boundary.bbox[3]) / 2 };
  const selection = request.selection ?? selectGauges(centre);
  const mslNavd88 = weightedMslNavd88(selection);
  const epoch = epochRise(selection);
  const usedSources: SourceId[] = ['noaa_tr2022', 'noaa_datums', 'us_atlas'];
  if (selection.method === 'regional_fallback') usedSources.push('noaa_tr2022_regional');

  const insideAssets = new AssetIndex(deps.assets).within(boundary.geometry, boundary.bbox);
  const area_ = await analysisArea(deps.elevation, boundary, mslNavd88, insideAssets, { allowSurfaceModel: request.allowSurfaceModel === true });
  if (area_.ground && usesSrtm(area_.ground)) usedSources.push('srtm');
  await deps.progress?.(0.2);

  // Each site its own gauge interpolation (unless the caller chose one gauge for the whole area).
  const siteSelections = new Map<string, GaugeSelection>();
  const selectionAt = (lon: number, lat: number) => {
    const key = `${lon},${lat}`;
    let own = siteSelections.get(key);
    if (!own) siteSelections.set(key, (own = request.selection ?? selectGauges({ lon, lat })));
    return own;
  };
  // Each site's MHHW: its local NOAA station's where one stands on the same water, else its gauges'.
  const siteMhhws = new Map<string, number>();
  const mhhwOfSite = (lon: number, lat: number) => {
    const key = `${lon},${lat}`;
    let mhhw = siteMhhws.get(key);
    if (mhhw === undefined) siteMhhws.set(key, (mhhw = mhhwAt({ lon, lat }, selectionAt(lon, lat))));
    return mhhw;
  };
  const projectedAtSite = (lon: number, lat: number, scenario: ScenarioId, year: number) => projectedMhhw(selectionAt(lon, lat), scenario, PERCENTILE, year, mhhwOfSite(lon, lat));
  // The boundary's own levels stand on the MHHW at its centre, as its gauges do.
  const centreMhhw = mhhwAt(centre, selection);
  const currentYear = request.currentYear ?? 2000;
  const existingByScenario = new Map<ScenarioId, ExistingWater>();
  const existingFor = (scenario: ScenarioId) => {
    let existing = existingByScenario.get(scenario);
    if (!existing) {
      existing = existingWater(area_, projectedMhhw(selection, scenario, PERCENTILE, currentYear, centreMhhw), currentYear,
        (site) => projectedAtSite(site.asset.lon, site.asset.lat, scenario, currentYear));
      existingByScenario.set(scenario, existing);
    }
    return existing;
  };

  const rise = (scenario: ScenarioId, year: number) => localSeaLevelRise(selection, scenario, PERCENTILE, year);
  const wanted = new Set(request.components);
  const needs = (c: FloodComponent) => wanted.has(c) || wanted.has('compound');
  const combos = request.scenarios.flatMap((scenario) => request.horizons.map((year) => ({ scenario, year })));
  const comboHeader = (scenario: ScenarioId, year: number) => ({
    scenario, scenario_name: SCENARIO_LABELS[scenario], planning_horizon: year, percentile: Number(PERCENTILE), sea_level_rise: length(rise(scenario, year)),
  });

  const components: Record<string, unknown> = {};
  const surfaces = new Map<string, WaterSurface>();
  const key = (component: string, scenario: ScenarioId, year: number) => `${component}|${scenario}|${year}`;

  // Nothing tidal reaches a boundary with no open water anywhere in the elevation model(s) around it,
  // nor, without elevation data, one whose counties have no coast and no tide station near.
  const tidalWater = (area_.connection?.model ?? area_.model)?.water.includes(1) === true;
  const inland = !tidalWater && (area_.model !== undefined || inlandBoundary(boundary.counties, boundary.bbox));
  const inlandReason = area_.model
    ? 'the elevation model shows no sea or bay water in or around the boundary'
    : `none of its counties (${boundary.counties.map((c) => c.name).join(', ')}) reaches the coast and no NOAA tide station lies within 10 km`;
  const inlandComponent = (component: string) => ({
    status: 'not_applicable',
    setting: 'inland',
    note: `Inland: ${inlandReason}, so ${component} does not reach it through a tidal connection and no coastal water level is applied. Rainfall-induced flooding applies (and, for a jurisdiction without tidal exposure, the noncoastal checklist of the 2022 amendment).`,
  });

  // Without elevation data the tidal connection is not known: the coastal levels come with that said.
  const unknownSetting = area_.model === undefined ? settingWithoutElevation(boundary.counties) : {};

  if (needs('tidal')) {
    usedSources.push('noaa_htf', 'uhslc_daily_max_peaks');
    const tidal = inland
      ? inlandComponent('tidal flooding')
      : {
        ...await tidalComponent(selection, centre, area_, boundary.bbox, combos, rise, epoch, comboHeader, deps.tides, existingFor,
          (s, y) => (lon, lat) => projectedAtSite(lon, lat, s, y), (s, y, surface) => surfaces.set(key('tidal', s, y), surface)),
        ...unknownSetting,
      };
    if (wanted.has('tidal')) components.tidal = tidal;
  }
  await deps.progress?.(0.5);

  if (needs('surge')) {
    const layers = await deps.layers.layersFor('surge', boundary.bbox);
    const surge = layers.length > 0
      ? layerComponent('surge', layers, SURGE_RETURN_PERIODS, area_, combos, rise, comboHeader, existingFor, (s, y, rp, surface) => rp === DESIGN_RETURN_PERIOD_YEARS && surfaces.set(key('surge', s, y), surface))
      : inland
        ? inlandComponent('storm surge')
        : { ...await gaugeSurgeComponent(centre, selection, selectionAt, epoch, currentYear, area_, combos, rise, comboHeader, existingFor, (s, y, surface) => surfaces.set(key('surge', s, y), surface)), ...unknownSetting };
    usedSources.push(layers.length > 0 ? 'operator_layers' : 'gev_wong');
    if (wanted.has('surge')) components.surge = surge;
  }
  await deps.progress?.(0.7);

  // The storm's ponding on the grid, when rainfall is computed there (no layers loaded, a storm given).
  let pond: StormOnGrid | undefined;
  if (needs('rainfall')) {
    const layers = await deps.layers.layersFor('rainfall', boundary.bbox);
    const onGrid = layers.length === 0 && area_.model ? rainfallOnGrid(area_.model, request.rainfall) : undefined;
    pond = onGrid?.pond;
    const rainfall = layers.length > 0
      ? layerComponent('rainfall', layers, RAINFALL_RETURN_PERIODS, area_, combos, () => 0, comboHeader, existingFor, (s, y, rp, surface) => rp === DESIGN_RETURN_PERIOD_YEARS && surfaces.set(key('rainfall', s, y), surface))
      : onGrid
        ? onGrid.answer
        : { status: 'no_data', data_needed: LAYER_DATA_NEEDED.rainfall, note: 'No elevation data covers this boundary (no depressions to fill) and no rainfall flood layer does; no level is estimated.' };
    if (layers.length > 0) usedSources.push('operator_layers');
    if (wanted.has('rainfall')) components.rainfall = rainfall;
  }

  // The compound depth grids are sampled at the asset cells only: one grid per combination would not fit a county.
  const siteCells = [...new Set(area_.sites.flatMap((site) => (site.cell === undefined ? [] : [site.cell])))];
  const compoundAtSites = new Map<string, Map<number, number>>();
  const compoundCases: { scenario: string; year: number; wet: WetCells }[] = [];
  if (wanted.has('compound')) {
    const parts = ['tidal', 'surge', 'rainfall'].filter((c) => combos.every(({ scenario, year }) => surfaces.has(key(c, scenario, year))));
    const missing = ['tidal', 'surge', 'rainfall'].filter((c) => !parts.includes(c));
    const envelope = parts.length < 2
      ? { status: 'no_data', data_needed: missing.map((c) => LAYER_DATA_NEEDED[c as 'surge' | 'rainfall'] ?? 'Tidal datums need a NOAA gauge within 100 miles.').join(' '), components_available: parts }
      : {
        status: 'ok',
        method: 'Envelope: at each place the highest of the tidal level (MHHW + rise), the 100-year surge still-water level and the 100-year rainfall water surface, where each has data. Joint probabilities are not modelled; rainfall layers are not re-run with sea level rise boundary conditions.',
        components_combined: parts,
        components_missing: missing.map((c) => ({ component: c, data_needed: LAYER_DATA_NEEDED[c as 'surge' | 'rainfall'] })),
        results: combos.map(({ scenario, year }) => ({
          ...comboHeader(scenario, year),
          ...exposure(envelopeSurface(parts.map((c) => surfaces.get(key(c, scenario, year))!)), area_, existingFor(scenario)),
        })),
      };
    components.compound = pond && area_.model
      ? {
        ...compoundWithStorm(area_.model, pond, combos.map(({ scenario, year }) => ({
          scenario, year, header: comboHeader(scenario, year),
          tidal: surfaces.get(key('tidal', scenario, year))?.uniformLevel,
          surge: surfaces.get(key('surge', scenario, year))?.uniformLevel,
        })), (scenario, year, depth, wet) => {
          compoundAtSites.set(`${scenario}|${year}`, new Map(siteCells.map((cell) => [cell, depth[cell]!])));
          compoundCases.push({ scenario, year, wet });
        }),
        still_water_envelope: envelope,
      }
      : envelope;
  }
  const ponding = pond && wanted.has('rainfall') ? {
    storm: pond.storm,
    rainfall: pond.ponding.depth,
    compoundAt: wanted.has('compound') ? (scenario: ScenarioId, year: number, cell: number) => compoundAtSites.get(`${scenario}|${year}`)?.get(cell) : undefined,
    scenarioHorizons: combos,
  } : undefined;
  const analysed: AnalysedSurfaces = {
    model: area_.model, mask: area_.mask, sites: area_.sites, surfaces, mhhwAt: mhhwOfSite,
    ...(ponding ? { ponding } : {}),
    ...(pond && compoundCases.length > 0 ? { compound: { storm: pond.storm, cases: compoundCases } } : {}),
  };
  await deps.onSurfaces?.(analysed);
  await deps.progress?.(1);

  return {
    boundary: {
      area: area(boundary.area_km2 * 1e6),
      bbox: boundary.bbox,
      vertex_count: boundary.vertex_count,
      counties: boundary.counties,
      warnings: boundary.warnings,
    },
    scenarios: request.scenarios,
    planning_horizons: request.horizons,
    gauge_selection: describeGaugeSelection(selection),
    elevation: await describeElevation(area_, deps.elevation, boundary.bbox as BBox, mslNavd88),
    assets: { inside_boundary: insideAssets.length, source: "The caller's imported assets (points)." },
    components,
    ...(request.includeExtents ? { inundation_extents: inundationExtentFeatures(analysed), component_extents: componentExtents(analysed).filter((e) => wanted.has(e.component)) } : {}),
    vertical_datum: 'NAVD88',
    units: 'Lengths in metres (m) and feet (ft, 1 ft = 0.3048 m); areas in acres and km².',
    baseline: BASELINE_NOTE,
    datum_epoch: datumEpoch(epoch),
    screening_level: SCREENING_NOTICE,
    sources: sourcesOf(usedSources),
    provenance: provenance(usedSources, epoch),
  };
}

async function analysisArea(source: ElevationSource, boundary: ValidBoundary, mslNavd88: number, assets: AssetPoint[], options: GroundOptions): Promise<AnalysisArea & { ground?: GroundGrid; coverage?: number; connection?: Connection; cacheUse?: CacheUse; options: GroundOptions }> {
  const box = boundary.bbox as BBox;
  const ground = await readGround(source, box, MAX_ANALYSIS_CELLS, mslNavd88, options);
  const grid = ground?.grid;
  const centre = { lon: (box[0] + box[2]) / 2, lat: (box[1] + box[3]) / 2 };
  const connection = grid ? await connectionAround(source, centre, box, mslNavd88, options) : undefined;
  const flooded = grid && await connectedFloodModel(grid, mslNavd88, connection);
  const model = flooded?.model;
  const sites: AssetSite[] = [];
  for (const asset of assets) {
    // The DEM at the asset's own location is read only where the analysis grid covers it.
    const ownCell = grid && cellIndexAt(grid, asset.lat, asset.lon);
    const site = asset.surveyed || !grid || ownCell !== undefined ? await siteGround(source, asset, mslNavd88, options) : undefined;
    sites.push({
      asset,
      // A surveyed asset is connected through the model cells around it, not only the one it falls in.
      cell: asset.surveyed && model && ownCell !== undefined ? surveyedSiteCell(model, ownCell) : ownCell,
      ground: site?.ground_navd88_m,
      ...(site ? { ground_basis: site.basis, ground_source: site.ground_source } : { no_ground_reason: options.allowSurfaceModel ? 'outside_model' : await noGroundReason(source, asset) }),
      open_water: site?.open_water ?? false,
      surface_flag: site?.surface_flag ?? false,
    });
    if (sites.length % 256 === 0) await yieldToEventLoop();
  }
  if (!ground || !grid || !model) return { model: undefined, mask: undefined, rowAreas: undefined, sites, options };
  const mask = rasterizePolygon(boundary.geometry, grid);
  let covered = 0;
  let inside = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    inside++;
    if (!Number.isNaN(grid.values[i]!)) covered++;
  }
  const native = nativePassCells(source, boundary.bbox as BBox) > 0
    ? await tallyAtNativeResolution(source, boundary.geometry, boundary.bbox as BBox, mslNavd88, yieldToEventLoop, options, connection)
    : undefined;
  return { model, mask, rowAreas: rowCellAreas(grid), sites, ground, connection, cacheUse: flooded?.cacheUse, options, coverage: inside === 0 ? coveredFraction(grid) : covered / inside, ...(native ? { native } : {}) };
}

async function describeElevation(area_: Awaited<ReturnType<typeof analysisArea>>, source: ElevationSource, box: BBox, mslNavd88: number) {
  const surveyed = area_.sites.filter((s) => s.ground_basis === 'surveyed_ground' || s.ground_basis === 'surveyed_first_floor').length;
  const assetGround = {
    surveyed,
    from_dem: area_.sites.filter((s) => s.ground_basis === 'dem').length,
    surface_model_flagged: area_.sites.filter((s) => s.surface_flag).length,
    method: GROUND_METHOD,
  };
  if (!area_.model || !area_.ground) {
    const centre = { lon: (box[0] + box[2]) / 2, lat: (box[1] + box[3]) / 2 };
    const withheld = area_.options.allowSurfaceModel ? undefined : await withheldSurfaceModelAt(source, centre);
    if (withheld) {
      const answer = noBareEarth(withheld);
      return { ...answer, note: `${answer.note} Design levels are given; exposed area and asset depths are not (except for assets with a surveyed elevation).`, water_surface_navd88: length(mslNavd88), asset_ground: assetGround };
    }
    return {
      status: 'not_covered',
      source: sourceInfoFor(source, box),
      note: 'No elevation data covers this boundary: design levels and exposure by level are given, but exposed area and asset depths are not computed (except for assets with a surveyed elevation).',
      water_surface_navd88: length(mslNavd88),
      asset_ground: assetGround,
    };
  }
  return {
    status: area_.coverage! >= 0.999 ? 'covered' : 'partial',
    ...describeGround(area_.ground, area_.mask),
    coverage_fraction: roundTo(area_.coverage!, 4),
    cell_size_m: cellSizeMetres(area_.model.grid),
    ...(area_.native ? {
      native_resolution_areas: {
        cell_size_m: roundTo(area_.native.cellSizeM, 2),
        windows: area_.native.windows,
        cells_read: area_.native.cellsRead,
        method: `Areas of still-water levels (tide, gauge surge statistics, their envelope) at the DEM's native resolution, read in windows of ${WINDOW_CELLS}² cells flooded from their own open water with a ${MARGIN_CELLS}-cell margin and from the whole-model connection (elevation.connection), so a channel leaving a window is followed at the connection's cell size; levels to the millimetre. Loaded layer surfaces and the connection of assets use the coarser grid of cell_size_m.`,
      },
    } : {}),
    vertical_datum_correction: area_.ground.layers[0]!.correction,
    connection: describeConnection(area_.connection, area_.cacheUse),
    asset_ground: assetGround,
    method: "Land cells connected (8-neighbour) to open water below the water level count as exposed, apart from land already below today's MHHW (existing_water). Open water is never counted as land: SRTM sea and bay cells (0 or below in the raw model) are marked before the datum shift; for DEMs without a water flag, cells at or below local mean sea level.",
    screening_level: SCREENING_NOTICE,
  };
}

/** The inundated land per scenario × horizon as GeoJSON Features (the compound envelope of the components analysed). */
function inundationExtentFeatures(analysed: AnalysedSurfaces) {
  return inundationExtents(analysed).map((extent) => ({
    type: 'Feature',
    properties: { scenario: extent.scenario, planning_horizon: extent.planning_horizon, components: extent.components, ...area(extent.area_m2) },
    geometry: extent.geometry,
  }));
}

type ComboHeader = (scenario: ScenarioId, year: number) => Record<string, unknown>;

async function tidalComponent(
  selection: GaugeSelection,
  centre: LatLon,
  area_: AnalysisArea,
  bbox: BBox,
  combos: { scenario: ScenarioId; year: number }[],
  rise: (s: ScenarioId, y: number) => number,
  epoch: number,
  header: ComboHeader,
  tides: TidePredictor,
  existingFor: (s: ScenarioId) => ExistingWater,
  levelAtSite: (s: ScenarioId, y: number) => (lon: number, lat: number) => number,
  keep: (s: ScenarioId, y: number, surface: WaterSurface) => void,
) {
  const gaugesMhhw = weightedMhhwNavd88(selection);
  const mhhw = mhhwAt(centre, selection);
  // The flood thresholds stand on MHHW: a local station's moves them with it.
  const gaugeThresholds = weightedHtfThresholdsNavd88(selection);
  const thresholds = { minor: gaugeThresholds.minor + mhhw - gaugesMhhw, moderate: gaugeThresholds.moderate + mhhw - gaugesMhhw, major: gaugeThresholds.major + mhhw - gaugesMhhw };
  const gauges = selection.gauges.filter((g) => g.weight > 0 || selection.method === 'regional_fallback');
  const results = [];
  for (const { scenario, year } of combos) {
    await yieldToEventLoop();
    const floodDays = [];
    for (const { gauge, weight } of gauges) {
      floodDays.push({ gauge, weight, projection: await projectFloodDays(tides, gauge, scenario, PERCENTILE, year) });
    }
    // MHHW is the 1983–2001 epoch's (centre 1992); the scenarios start in 2000.
    const level = mhhw + epoch + rise(scenario, year);
    const surface = connectedLevelSurface(level, area_.model, levelAtSite(scenario, year));
    keep(scenario, year, surface);
    const weightTotal = floodDays.reduce((s, d) => s + (d.weight || 1), 0);
    results.push({
      ...header(scenario, year),
      design_water_level_navd88: length(level),
      design_water_level_basis: 'Projected MHHW: MHHW (NAVD88, 1983–2001 epoch) + rise 1992→2000 + projected rise since 2000.',
      depth_above_minor_threshold: length(Math.max(0, level - thresholds.minor)),
      tidal_flood_days_per_year: {
        minor: roundTo(floodDays.reduce((s, d) => s + (d.weight || 1) * d.projection.days, 0) / weightTotal, 1),
        year,
        by_gauge: floodDays.map((d) => ({
          noaa_id: d.gauge.noaa_id,
          name: d.gauge.name,
          days: roundTo(d.projection.days, 1),
          observed_mean_2007_2016: d.projection.observed_mean_2007_2016 === null ? null : roundTo(d.projection.observed_mean_2007_2016, 1),
          floored_at_observed_mean: d.projection.floored_at_observed_mean,
          nontidal_sd_m: roundTo(d.projection.nontidal_sd_m, 3),
          calibrated_on_observed_days: d.projection.calibrated,
          basis: d.projection.basis,
        })),
        method: FLOOD_DAY_METHOD,
      },
      ...exposure(surface, area_, existingFor(scenario)),
    });
  }
  return {
    status: 'ok',
    mhhw_navd88: length(mhhw),
    mhhw_source: mhhwSource(centre, selection),
    local_datum_check: areaDatumCheck(bbox, gaugesMhhw),
    high_tide_flood_thresholds_navd88: { minor: length(thresholds.minor), moderate: length(thresholds.moderate), major: length(thresholds.major) },
    thresholds_basis: 'NOAA (Sweet et al. 2018): minor 0.04·GT + 0.50 m, moderate 0.03·GT + 0.80 m, major 0.04·GT + 1.17 m above MHHW (GT = great diurnal range of the NOAA datums), weighted as the gauges are.',
    results,
  };
}

async function gaugeSurgeComponent(
  centre: { lat: number; lon: number },
  selection: GaugeSelection,
  selectionAt: (lon: number, lat: number) => GaugeSelection,
  epoch: number,
  currentYear: number,
  area_: AnalysisArea,
  combos: { scenario: ScenarioId; year: number }[],
  rise: (s: ScenarioId, y: number) => number,
  header: ComboHeader,
  existingFor: (s: ScenarioId) => ExistingWater,
  keep: (s: ScenarioId, y: number, surface: WaterSurface) => void,
) {
  const basis = surgeBasis(centre, selection);
  if (!basis.ok) return { status: 'no_data', reason: basis.reason, data_needed: LAYER_DATA_NEEDED.surge };
  const { gauge } = basis;
  const gev = gauge.gev!;
  const returnLevel = (rp: number) => gevReturnLevel(gev.gev_m.mu, gev.gev_m.sigma, gev.gev_m.xi, rp);
  // Above the annual mean sea level → NAVD88 at the location, at the sea level of 2000.
  const base = basis.mslNavd88 + epoch;
  // Current conditions stand on today's sea level (the scenarios differ by about 3 cm in the 2020s).
  const todayRise = riseSince2000(selection, CURRENT_CONDITIONS_SCENARIO, PERCENTILE, currentYear);
  // Each asset its own fit (the nearest reliable one in its surge regime) on its own two-gauge
  // datums and rise; where its own location has none, the boundary's fit stands for it.
  const siteBases = new Map<string, { gauge: Gauge; base: number; selection: GaugeSelection }>();
  const siteBasis = (lon: number, lat: number) => {
    const key = `${lon},${lat}`;
    let site = siteBases.get(key);
    if (!site) {
      const own = selectionAt(lon, lat);
      const ownBasis = surgeBasis({ lon, lat }, own);
      const chosen = ownBasis.ok ? ownBasis : basis;
      site = { gauge: chosen.gauge, base: chosen.mslNavd88 + epochRise(own), selection: own };
      siteBases.set(key, site);
    }
    return site;
  };
  const siteLevel = (rp: number, scenario: ScenarioId, year: number) => (lon: number, lat: number) => {
    const site = siteBasis(lon, lat);
    const fit = site.gauge.gev!.gev_m;
    return gevReturnLevel(fit.mu, fit.sigma, fit.xi, rp) + site.base + localSeaLevelRise(site.selection, scenario, PERCENTILE, year);
  };
  return {
    status: 'ok',
    basis: 'tide_gauge_statistics',
    label: GEV_LABEL,
    gauge: {
      noaa_id: gauge.noaa_id, name: gauge.name, distance_km: roundTo(basis.distance_km, 1), surge_regime: basis.regime,
      record: `${gev.first_year}–${gev.last_year} (${gev.n_annual_maxima} annual maxima)`, record_max_above_annual_msl: length(gev.record_max_m),
      gev_parameters: { mu_m: roundTo(gev.gev_m.mu, 5), sigma_m: roundTo(gev.gev_m.sigma, 5), xi: roundTo(gev.gev_m.xi, 4), method: 'Maximum likelihood, fitted by this API to the annual maxima.' },
    },
    conversion: `Return level above the annual mean sea level (z = μ + σ/ξ·((−ln(1 − 1/T))^−ξ − 1)) + this location's MSL − NAVD88 (${basis.mslNavd88.toFixed(3)} m, NOAA datums of the selected gauges, 1983–2001 epoch) + rise 1992→2000 (${epoch.toFixed(3)} m) + projected rise since 2000. These are the boundary's levels; each asset's depth uses its own nearest reliable fit in its surge regime on its own two-gauge datums and rise (asset_gauges).`,
    current_conditions: SURGE_RETURN_PERIODS.map((rp) => ({
      return_period_years: rp,
      annual_exceedance_probability: 1 / rp,
      year: currentYear,
      design_water_level_navd88: length(returnLevel(rp) + base + todayRise),
      sea_level_rise_since_2000: length(todayRise),
      note: `On the sea level of ${currentYear}: rise since 2000 of the NOAA 2022 ${SCENARIO_LABELS[CURRENT_CONDITIONS_SCENARIO]} scenario (median) at the selected gauges, ${(todayRise * 1000).toFixed(0)} mm${rp === DESIGN_RETURN_PERIOD_YEARS ? ': the statute\'s initial (current 100-year) event' : ''}.`,
    })),
    noaa_official_1pct: officialOnePercent(gauge),
    results: await surgeResults(),
    asset_gauges: assetGauges(),
  };

  /** Which fit each listed asset's level came from, with the number of assets. */
  function assetGauges() {
    const counts = new Map<Gauge, number>();
    for (const site of area_.sites) {
      const { gauge: fitted } = siteBasis(site.asset.lon, site.asset.lat);
      counts.set(fitted, (counts.get(fitted) ?? 0) + 1);
    }
    return [...counts].map(([fitted, assets]) => ({ noaa_id: fitted.noaa_id, name: fitted.name, assets }));
  }

  async function surgeResults() {
    const results = [];
    for (const { scenario, year } of combos) {
      for (const rp of SURGE_RETURN_PERIODS) {
        await yieldToEventLoop();
        const level = returnLevel(rp) + base + rise(scenario, year);
        const surface = connectedLevelSurface(level, area_.model, siteLevel(rp, scenario, year));
        if (rp === DESIGN_RETURN_PERIOD_YEARS) keep(scenario, year, surface);
        results.push({
          ...header(scenario, year),
          return_period_years: rp,
          annual_exceedance_probability: 1 / rp,
          design_water_level_navd88: length(level),
          ...exposure(surface, area_, existingFor(scenario)),
        });
      }
    }
    return results;
  }
}

function layerComponent(
  component: 'surge' | 'rainfall',
  layers: HazardLayer[],
  returnPeriods: readonly number[],
  area_: AnalysisArea,
  combos: { scenario: ScenarioId; year: number }[],
  shift: (s: ScenarioId, y: number) => number,
  header: ComboHeader,
  existingFor: (s: ScenarioId) => ExistingWater,
  keep: (s: ScenarioId, y: number, rp: number, surface: WaterSurface) => void,
) {
  const results = [];
  const missing = returnPeriods.filter((rp) => !layers.some((l) => l.return_period_years === rp));
  for (const rp of returnPeriods.filter((r) => !missing.includes(r))) {
    const surfaceLayers = new LayerSurface(layers.filter((l) => l.return_period_years === rp));
    for (const { scenario, year } of combos) {
      const surface = layerSurface(surfaceLayers, shift(scenario, year), area_.model);
      keep(scenario, year, rp, surface);
      results.push({ ...header(scenario, year), return_period_years: rp, annual_exceedance_probability: 1 / rp, water_surface_shift: length(shift(scenario, year)), ...exposure(surface, area_, existingFor(scenario)) });
    }
  }
  return {
    status: missing.length === returnPeriods.length ? 'no_data' : missing.length > 0 ? 'partial' : 'ok',
    basis: 'loaded_layers',
    layers: layers.map((l) => ({ layer_id: l.layer_id, name: l.name, source: l.source, return_period_years: l.return_period_years, loaded_at: l.loaded_at })),
    method: component === 'surge'
      ? 'Water-surface elevations of the loaded surge layers (present-day), raised by the projected sea level rise.'
      : 'Water-surface elevations of the loaded rainfall layers as modelled; not adjusted for sea level rise.',
    ...(missing.length > 0 ? { data_needed: `No ${missing.join(' and ')}-year ${component} layer covers this boundary. ${LAYER_DATA_NEEDED[component]}` } : {}),
    results,
  };
}

/**
 * The setting of a boundary no elevation model covers: whether water reaches it through a tidal
 * connection is not known. Its counties say whether it is likely: none of them on the open coast
 * (Orlando in Orange County) means tidal flooding and surge reach it only along a tidal river.
 */
export function settingWithoutElevation(counties: readonly { fips: string; name: string }[]): { setting: 'unknown'; note: string } {
  const inland = counties.every((c) => !isCoastalCounty(c.fips))
    ? ` None of its counties (${counties.map((c) => c.name).join(', ')}) reaches the open coast (Florida's 35 coastal counties): unless the boundary lies on a tidal river (the lower St. Johns), tidal flooding and storm surge do not reach it, and the noncoastal checklist applies.`
    : '';
  return {
    setting: 'unknown',
    note: `Without elevation data the tidal connection of this boundary is not known: the levels are the coastal water levels near the gauges, not depths here.${inland}`,
  };
}
