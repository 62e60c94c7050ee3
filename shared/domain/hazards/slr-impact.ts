import { cellIndexAt, cellSizeMetres, coveredFraction, sourceInfoFor, type ElevationSource } from './elevation';
import { connectedFloodModel, connectionAround, describeConnection, type CacheUse, type Connection } from './connection';
import {
  describeGround, groundAtPoint, groundLayers, modelIdOf, noBareEarth, readGround, sameLayers, siteGround, usesSrtm, withheldSurfaceModelAt,
  type GroundGrid, type GroundOptions, type PointGround,
} from './ground';
import { epochRise, selectGauges, type GaugeSelection } from './gauges';
import { haversineKm, type BBox, type LatLon } from './geo';
import { inundationWithinRadius, maskToMultiPolygon, siteDepth, type FloodModel, type RadiusInundation } from './inundation';
import { localSeaLevelRise } from './local-slr';
import { BASELINE_NOTE, datumEpoch, provenance, SCREENING_NOTICE, sourcesOf, type SourceId } from './provenance';
import { describeGaugeSelection } from './responses';
import { DATUM_CHECK_RADIUS_KM, mhhwAt, mhhwSource, pointDatumCheck } from './datum-check';
import { inlandCountyAt } from './inland';
import { PERCENTILES, SCENARIO_LABELS, type Percentile, type ScenarioId } from './scenarios';
import type { AssetPoint } from './spatial-index';
import { weightedMhhwNavd88, weightedMslNavd88 } from './tidal';
import { area, length, roundTo } from './units';
import { LruCache } from '../../lru-cache';

const MAX_IMPACT_CELLS = 400_000;

export interface SlrImpactRequest {
  point: LatLon;
  scenario: ScenarioId;
  planningHorizon: number;
  percentile: Percentile;
  radiusKm: number;
  includeGeoJson: boolean;
  /** The caller's single-gauge choice (see `chooseSingleGauge`); default: the two-gauge rule. */
  selection?: GaugeSelection;
  /** This year: today's MHHW (same scenario) separates existing water from newly exposed land. Default: 2000, the projections' baseline. */
  currentYear?: number;
  /** The caller's `allow_surface_model`: a surface model (SRTM) may give the ground where no bare-earth model does. */
  allowSurfaceModel?: boolean;
}

export const GROUND_METHOD = "Ground at a point or asset: the asset's surveyed elevation column when its file has one (ground before first floor, NAVD88), else the elevation model at the location at its native resolution, interpolated bilinearly between the four surrounding posts. Each asset's water level uses its own gauge interpolation.";

/** The NOAA 2022 projections start in 2020; before it the rise since 2000 is taken linearly from 0 in 2000. */
const FIRST_PROJECTED_YEAR = 2020;

/** Projected rise since 2000 in `year`, including the years before the projections' first (2020). */
export function riseSince2000(selection: GaugeSelection, scenario: ScenarioId, percentile: Percentile, year: number): number {
  return year >= FIRST_PROJECTED_YEAR
    ? localSeaLevelRise(selection, scenario, percentile, year)
    : localSeaLevelRise(selection, scenario, percentile, FIRST_PROJECTED_YEAR) * Math.max(0, year - 2000) / (FIRST_PROJECTED_YEAR - 2000);
}

/**
 * Projected MHHW (NAVD88) in `year`: MHHW of the 1983–2001 epoch + rise 1992→2000 + projected rise
 * since 2000. `mhhw`: the place's own (`mhhwAt`, a local NOAA station's where one stands on the same
 * water); by default the gauges'.
 */
export function projectedMhhw(selection: GaugeSelection, scenario: ScenarioId, percentile: Percentile, year: number, mhhw = weightedMhhwNavd88(selection)): number {
  return mhhw + epochRise(selection) + riseSince2000(selection, scenario, percentile, year);
}

/** The square window an answer reports on: `radiusKm` each way from the point. */
export function windowAround(point: LatLon, radiusKm: number): BBox {
  const dLat = radiusKm / 111.32;
  const dLon = radiusKm / (111.32 * Math.cos((point.lat * Math.PI) / 180));
  return [point.lon - dLon, point.lat - dLat, point.lon + dLon, point.lat + dLat];
}

/**
 * Sea level rise at a point: the gauges' projection, projected MHHW (NAVD88), and where the DEM
 * covers the point, the water depth there, the inundated land connected to open water within the
 * radius and the caller's assets in it. Outside elevation coverage the same answer comes without
 * area and depth, with a note.
 */
export async function assessSlrImpact(request: SlrImpactRequest, deps: { elevation: ElevationSource; assets: readonly AssetPoint[] }) {
  const selection = request.selection ?? selectGauges(request.point);
  const rises = Object.fromEntries(PERCENTILES.map((p) => [p, localSeaLevelRise(selection, request.scenario, p, request.planningHorizon)])) as Record<Percentile, number>;
  const rise = rises[request.percentile];
  const mhhw = mhhwAt(request.point, selection);
  const mslNavd88 = weightedMslNavd88(selection);
  const epoch = epochRise(selection);
  // MHHW is the 1983–2001 epoch's (centre 1992); the scenarios start in 2000.
  const level = projectedMhhw(selection, request.scenario, request.percentile, request.planningHorizon, mhhw);

  const common = {
    location: { lat: request.point.lat, lon: request.point.lon },
    scenario: request.scenario,
    scenario_name: SCENARIO_LABELS[request.scenario],
    planning_horizon: request.planningHorizon,
    percentile: Number(request.percentile),
    gauge_selection: describeGaugeSelection(selection),
    elevation_change: {
      ...length(rise),
      percentiles: Object.fromEntries(PERCENTILES.map((p) => [`p${p}`, length(rises[p])])),
      baseline_year: 2000,
    },
    mhhw_navd88: length(mhhw),
    mhhw_source: mhhwSource(request.point, selection),
    local_datum_check: pointDatumCheck(request.point, weightedMhhwNavd88(selection)),
    datum_epoch: datumEpoch(epoch),
    projected_mhhw_navd88: length(level),
    projected_mhhw_basis: 'MHHW (NAVD88, 1983–2001 epoch) + rise 1992→2000 + projected rise since 2000, at the selected gauges.',
    vertical_datum: 'NAVD88',
    baseline: BASELINE_NOTE,
  };

  const box = windowAround(request.point, request.radiusKm);
  const options = { allowSurfaceModel: request.allowSurfaceModel === true };
  const window = keptWindow(deps.elevation, box, mslNavd88, options);
  const ground = await window.ground;
  const point = ground && await window.points.getOrCreate(`${request.point.lat},${request.point.lon}`, () => groundAtPoint(deps.elevation, request.point, mslNavd88, options));
  const connection = ground && point ? await connectionAround(deps.elevation, request.point, box, mslNavd88, options) : undefined;
  const flooded = ground && point ? await windowFloodModel(window, ground, mslNavd88, connection) : undefined;
  const model = flooded?.model;
  // Open water anywhere in the model(s) around the point, not only within the radius.
  const tidalWater = (connection?.model ?? model)?.water.includes(1) === true;
  const withheld = !point && !options.allowSurfaceModel ? await withheldSurfaceModelAt(deps.elevation, request.point) : undefined;
  const withoutGround = withheld
    ? { ...noBareEarth(withheld), note: `${noBareEarth(withheld).note} Sea level rise and projected MHHW above are still valid.` }
    : { status: 'not_covered', source: sourceInfoFor(deps.elevation, box), note: 'No elevation data covers this point: ground elevation, water depth, inundation area and affected assets are not computed. Sea level rise and projected MHHW above are still valid.' };
  const inlandCounty = inlandCountyAt(request.point);
  // In a county without coast the tide applies only where the model connects the point to the sea.
  const reached = model && point && (point.open_water || siteDepth(model, cellIndexAt(model.grid, request.point.lat, request.point.lon), point.ground_navd88_m, level).connected);
  if (inlandCounty && (!tidalWater || !reached)) {
    const used: SourceId[] = ground && usesSrtm(ground) ? ['noaa_tr2022', 'noaa_datums', 'srtm'] : ['noaa_tr2022', 'noaa_datums'];
    return inlandAnswer(common, ground && model ? { status: 'covered', ...windowSummary(window, ground).described } : withoutGround,
      `${inlandCounty.name} County reaches no coast (its Census boundary has no shoreline arcs) and no NOAA tide station lies within ${DATUM_CHECK_RADIUS_KM} km`, epoch, used);
  }
  if (!ground || !point || !model) {
    return {
      ...common,
      elevation: withoutGround,
      ground_elevation_navd88: null,
      water_depth: null,
      inundation_area: null,
      existing_water: null,
      affected_assets: null,
      location_setting: { setting: 'unknown', note: 'Without elevation data the tidal connection of this point is not known: the projected MHHW is the water level at the coast near the gauges, not a depth here.' },
      screening_level: SCREENING_NOTICE,
      sources: sourcesOf(['noaa_tr2022', 'noaa_datums']),
      provenance: provenance(['noaa_tr2022', 'noaa_datums'], epoch),
    };
  }

  const { described, coverage } = windowSummary(window, ground);
  const used: SourceId[] = usesSrtm(ground) ? ['noaa_tr2022', 'noaa_datums', 'srtm'] : ['noaa_tr2022', 'noaa_datums'];
  if (!tidalWater) {
    return inlandAnswer(common, { status: 'covered', ...described, connection: describeConnection(connection, flooded?.cacheUse), note: 'No open water (sea or bay) lies in the elevation model around the point.' }, 'No tidal water lies in the elevation model around the point', epoch, used);
  }
  const currentYear = request.currentYear ?? 2000;
  const today = projectedMhhw(selection, request.scenario, request.percentile, currentYear, mhhw);
  const pointCell = cellIndexAt(model.grid, request.point.lat, request.point.lon);
  const pointDepth = siteDepth(model, pointCell, point.ground_navd88_m, level);
  const pointExisting = point.open_water || siteDepth(model, pointCell, point.ground_navd88_m, today).depth_m > 0;
  const inundation = inundationWithinRadius(model, request.point, request.radiusKm, level, today);

  const affected = [];
  let existingAssets = 0;
  for (const asset of deps.assets) {
    if (haversineKm(request.point, asset) > request.radiusKm) continue;
    const site = await siteGround(deps.elevation, asset, mslNavd88, options);
    if (!site) continue;
    const own = request.selection ?? selectGauges(asset);
    const ownMhhw = mhhwAt(asset, own);
    const assetLevel = projectedMhhw(own, request.scenario, request.percentile, request.planningHorizon, ownMhhw);
    const cell = cellIndexAt(model.grid, asset.lat, asset.lon);
    const depth = siteDepth(model, cell, site.ground_navd88_m, assetLevel);
    if (depth.depth_m <= 0) continue;
    if (site.open_water || siteDepth(model, cell, site.ground_navd88_m, projectedMhhw(own, request.scenario, request.percentile, currentYear, ownMhhw)).depth_m > 0) {
      existingAssets++;
      continue;
    }
    affected.push({
      asset_id: asset.asset_id, name: asset.name, category: asset.category, lat: asset.lat, lon: asset.lon,
      ground_elevation_navd88: length(site.ground_navd88_m),
      ground_basis: site.basis,
      ground_source: site.ground_source,
      ...(site.column ? { ground_column: site.column } : {}),
      ...(site.surface_flag ? { surface_model_flag: true } : {}),
      water_level_navd88: length(assetLevel),
      depth: length(depth.depth_m),
    });
  }
  affected.sort((a, b) => b.depth.m - a.depth.m);

  return {
    ...common,
    elevation: {
      status: coverage >= 0.999 ? 'covered' : 'partial',
      ...described,
      point_source_id: modelIdOf(point.source),
      connection: describeConnection(connection, flooded?.cacheUse),
      ...(point.surface_flag ? { point_surface_model_flag: true } : {}),
      coverage_fraction: roundTo(coverage, 4),
      cell_size_m: cellSizeMetres(ground.grid),
      vertical_datum_correction: ground.layers[0]!.correction,
      ground_method: GROUND_METHOD,
      ...(coverage < 0.999 ? { note: 'Part of the radius has no elevation data; the area counts covered cells only.' } : {}),
    },
    ground_elevation_navd88: length(point.ground_navd88_m),
    water_depth: {
      ...length(pointDepth.depth_m),
      inundated: pointDepth.depth_m > 0 && !point.open_water,
      existing_water: pointExisting,
      ...(point.open_water ? { note: 'The point is open water (sea or bay surface in the elevation model), not land: no ground elevation or depth applies.' } : {}),
      ...(!point.open_water && pointExisting ? { note: "The point already lies below today's MHHW and is reached by the tide: existing water (tidal wetland or flat), not newly exposed land." } : {}),
      ...(!pointDepth.connected && point.ground_navd88_m < level ? { note: 'The ground is below the projected level but not connected to open water anywhere in the elevation model around it.' } : {}),
    },
    inundation_area: {
      ...area(inundation.area_m2),
      radius_km: request.radiusKm,
      method: "Land cells within the radius connected (8-neighbour) to open water through cells below the projected MHHW (traced over the whole elevation model, see elevation.connection), less those already below today's MHHW (reported as existing_water). Open water is never counted: SRTM sea and bay cells (0 or below in the raw model) are marked as water before the datum shift; for DEMs without a water flag, cells at or below local mean sea level.",
      ...(request.includeGeoJson ? { geojson: inundationFeature(model.grid, inundation.mask, level, inundation) } : {}),
    },
    existing_water: {
      today_mhhw_navd88: length(today),
      year: currentYear,
      open_water: area(inundation.existing.open_water_m2),
      land_below_mhhw: area(inundation.existing.land_m2),
      assets: existingAssets,
      note: "Open water and land already reached by today's MHHW (same scenario, this year) within the radius; not counted in inundation_area or affected_assets.",
    },
    affected_assets: { count: affected.length, assets: affected },
    location_setting: { setting: 'coastal', note: 'Open water lies in the elevation model around the point: the tidal level applies where low ground connects to it.' },
    screening_level: SCREENING_NOTICE,
    sources: sourcesOf(used),
    provenance: provenance(used, epoch),
  };
}

/**
 * A window's ground, the ground at its point, its flood model and what the answer says of its
 * ground, kept for the next answer around the same point: none of them depends on the scenario,
 * horizon or percentile asked, and a ready model never changes. About 4 MB each at the window's
 * 400,000 cells.
 */
interface KeptWindow {
  layers: ElevationSource[];
  ground: Promise<GroundGrid | undefined>;
  points: LruCache<string, Promise<PointGround | undefined>>;
  flood?: { traced: FloodModel | undefined; cache: Connection['cache']; flooded: Promise<{ model: FloodModel; cacheUse?: CacheUse }> };
  summary?: { described: ReturnType<typeof describeGround>; coverage: number };
}

/** Points kept per window: the window is drawn around its point, so one but for rounding. */
const POINTS_PER_WINDOW = 2;

const CACHED_WINDOWS = 8;
const windows = new LruCache<string, KeptWindow>(CACHED_WINDOWS);

function keptWindow(source: ElevationSource, box: BBox, mslNavd88: number, options: GroundOptions): KeptWindow {
  const layers = groundLayers(source, box, options);
  const key = `${layers.map((layer) => modelIdOf(layer.info())).join('|')}|${box.join(',')}|${Math.fround(mslNavd88)}|${options.allowSurfaceModel === true}`;
  const kept = windows.get(key);
  if (kept && sameLayers(kept.layers, layers)) return kept;
  const fresh: KeptWindow = { layers, ground: readGround(source, box, MAX_IMPACT_CELLS, mslNavd88, options), points: new LruCache(POINTS_PER_WINDOW) };
  windows.set(key, fresh);
  fresh.ground.catch(() => windows.get(key) === fresh && windows.delete(key));
  return fresh;
}

/** The window's flood model over the connection around it (kept while the same traced connection and cache are). */
function windowFloodModel(window: KeptWindow, ground: GroundGrid, mslNavd88: number, connection: Connection | undefined): Promise<{ model: FloodModel; cacheUse?: CacheUse }> {
  const kept = window.flood;
  if (kept && kept.traced === connection?.model && kept.cache === connection?.cache) return kept.flooded;
  const flooded = connectedFloodModel(ground.grid, mslNavd88, connection);
  window.flood = { traced: connection?.model, cache: connection?.cache, flooded };
  flooded.catch(() => window.flood?.flooded === flooded && delete window.flood);
  return flooded;
}

function windowSummary(window: KeptWindow, ground: GroundGrid): NonNullable<KeptWindow['summary']> {
  return (window.summary ??= { described: describeGround(ground), coverage: coveredFraction(ground.grid) });
}

/**
 * No tidal water reaches the point (none within the radius in the elevation model, or a county
 * without coast and no tide station near): no coastal water level is presented as a depth at it.
 * What applies inland is said instead.
 */
function inlandAnswer<T extends object, E extends object>(common: T, elevation: E, why: string, epoch: number, used: SourceId[]) {
  return {
    ...common,
    elevation,
    ground_elevation_navd88: null,
    water_depth: null,
    inundation_area: null,
    existing_water: null,
    affected_assets: null,
    location_setting: {
      setting: 'inland',
      note: `Inland: ${why}, so sea level rise does not reach this point through a tidal connection and the projected MHHW above (the level at the coast near the gauges) is not a water level here. What applies is rainfall-induced flooding (100- and 500-year storms, s. 380.093(3)(d)) and, near the coast, higher groundwater and tailwater as sea level rises; use POST /hazards/flood-analysis with rainfall layers.`,
    },
    screening_level: SCREENING_NOTICE,
    sources: sourcesOf(used),
    provenance: provenance(used, epoch),
  };
}

function inundationFeature(grid: FloodModel['grid'], mask: Uint8Array, level: number, inundation: RadiusInundation) {
  const all = inundation.area_m2 + inundation.existing.land_m2;
  return { type: 'Feature', properties: { water_level_navd88_m: roundTo(level, 4), ...area(all) }, geometry: maskToMultiPolygon(grid, mask) };
}
