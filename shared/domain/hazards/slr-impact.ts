import { cellIndexAt, cellSizeMetres, coveredFraction, type ElevationSource } from './elevation';
import { epochRise, selectGauges, type GaugeSelection } from './gauges';
import { haversineKm, type BBox, type LatLon } from './geo';
import { depthAtPoint, floodModel, inundationWithinRadius, isInundated, maskToMultiPolygon, type FloodModel } from './inundation';
import { localSeaLevelRise } from './local-slr';
import { BASELINE_NOTE, datumEpoch, provenance, SCREENING_NOTICE, sourcesOf } from './provenance';
import { describeGaugeSelection } from './responses';
import { PERCENTILES, SCENARIO_LABELS, type Percentile, type ScenarioId } from './scenarios';
import type { AssetPoint } from './spatial-index';
import { weightedMhhwNavd88, weightedMslNavd88 } from './tidal';
import { area, length, roundTo } from './units';
import { toNavd88 } from './vertical-datum';

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
}

function windowAround(point: LatLon, radiusKm: number): BBox {
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
  const mhhw = weightedMhhwNavd88(selection);
  const mslNavd88 = weightedMslNavd88(selection);
  const epoch = epochRise(selection);
  // MHHW is the 1983–2001 epoch's (centre 1992); the scenarios start in 2000.
  const level = mhhw + epoch + rise;

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
    datum_epoch: datumEpoch(epoch),
    projected_mhhw_navd88: length(level),
    projected_mhhw_basis: 'MHHW (NAVD88, 1983–2001 epoch) + rise 1992→2000 + projected rise since 2000, at the selected gauges.',
    vertical_datum: 'NAVD88',
    baseline: BASELINE_NOTE,
  };

  const raw = await deps.elevation.grid(windowAround(request.point, request.radiusKm), MAX_IMPACT_CELLS);
  const pointCovered = raw !== undefined && (() => {
    const cell = cellIndexAt(raw, request.point.lat, request.point.lon);
    return cell !== undefined && !Number.isNaN(raw.values[cell]!);
  })();
  if (!raw || !pointCovered) {
    return {
      ...common,
      elevation: { status: 'not_covered', source: deps.elevation.info(), note: 'No elevation data covers this point: ground elevation, water depth, inundation area and affected assets are not computed. Sea level rise and projected MHHW above are still valid.' },
      ground_elevation_navd88: null,
      water_depth: null,
      inundation_area: null,
      affected_assets: null,
      location_setting: { setting: 'unknown', note: 'Without elevation data the tidal connection of this point is not known: the projected MHHW is the water level at the coast near the gauges, not a depth here.' },
      screening_level: SCREENING_NOTICE,
      sources: sourcesOf(['noaa_tr2022', 'noaa_datums']),
      provenance: provenance(['noaa_tr2022', 'noaa_datums'], epoch),
    };
  }

  const { grid, correction } = toNavd88(raw, mslNavd88);
  const model = floodModel(grid, mslNavd88);
  if (!model.water.includes(1)) return inlandAnswer(common, deps.elevation.info(), request.radiusKm, epoch);
  const depth = depthAtPoint(model, request.point, level)!;
  const inundation = inundationWithinRadius(model, request.point, request.radiusKm, level);
  const affected = deps.assets
    .filter((a) => haversineKm(request.point, a) <= request.radiusKm)
    .flatMap((asset) => {
      const cell = cellIndexAt(grid, asset.lat, asset.lon);
      if (cell === undefined || !isInundated(model, cell, level)) return [];
      const ground = grid.values[cell]!;
      return [{ asset_id: asset.asset_id, name: asset.name, category: asset.category, lat: asset.lat, lon: asset.lon, ground_elevation_navd88: length(ground), depth: length(level - ground) }];
    })
    .sort((a, b) => b.depth.m - a.depth.m);
  const coverage = coveredFraction(grid);

  return {
    ...common,
    elevation: {
      status: coverage >= 0.999 ? 'covered' : 'partial',
      source: deps.elevation.info(),
      coverage_fraction: roundTo(coverage, 4),
      cell_size_m: cellSizeMetres(grid),
      vertical_datum_correction: correction,
      ...(coverage < 0.999 ? { note: 'Part of the radius has no elevation data; the area counts covered cells only.' } : {}),
    },
    ground_elevation_navd88: length(depth.ground_navd88_m),
    water_depth: {
      ...length(depth.depth_m),
      inundated: depth.depth_m > 0,
      ...(depth.open_water ? { note: 'The point is open water (sea or bay surface in the elevation model), not land: no ground elevation or depth applies.' } : {}),
      ...(depth.isolated_low_ground ? { note: 'The ground is below the projected level but not connected to open water within the radius.' } : {}),
    },
    inundation_area: {
      ...area(inundation.area_m2),
      radius_km: request.radiusKm,
      method: 'Land cells within the radius connected (8-neighbour) to open water through cells below the projected MHHW. Open water is never counted: SRTM sea and bay cells (0 or below in the raw model) are marked as water before the datum shift; for DEMs without a water flag, cells at or below local mean sea level.',
      ...(request.includeGeoJson ? { geojson: inundationFeature(grid, inundation.mask, level) } : {}),
    },
    affected_assets: { count: affected.length, assets: affected },
    location_setting: { setting: 'coastal', note: 'Open water lies within the radius: the tidal level applies where low ground connects to it.' },
    screening_level: SCREENING_NOTICE,
    sources: sourcesOf(['noaa_tr2022', 'noaa_datums', 'srtm']),
    provenance: provenance(['noaa_tr2022', 'noaa_datums', 'srtm'], epoch),
  };
}

/**
 * No open water within the radius: the point has no tidal connection there, so no coastal water
 * level is presented as a depth at it. What applies inland is said instead.
 */
function inlandAnswer<T extends object>(common: T, source: ReturnType<ElevationSource['info']>, radiusKm: number, epoch: number) {
  return {
    ...common,
    elevation: { status: 'covered', source, note: `No open water (sea or bay) lies within ${radiusKm} km in the elevation model.` },
    ground_elevation_navd88: null,
    water_depth: null,
    inundation_area: null,
    affected_assets: null,
    location_setting: {
      setting: 'inland',
      note: `Inland: no tidal water within ${radiusKm} km, so sea level rise does not reach this point through a tidal connection and the projected MHHW above (the level at the coast near the gauges) is not a water level here. What applies is rainfall-induced flooding (100- and 500-year storms, s. 380.093(3)(d)) and, near the coast, higher groundwater and tailwater as sea level rises; use POST /hazards/flood-analysis with rainfall layers.`,
    },
    screening_level: SCREENING_NOTICE,
    sources: sourcesOf(['noaa_tr2022', 'noaa_datums', 'srtm']),
    provenance: provenance(['noaa_tr2022', 'noaa_datums', 'srtm'], epoch),
  };
}

function inundationFeature(grid: FloodModel['grid'], mask: Uint8Array, level: number) {
  const { geometry, truncated } = maskToMultiPolygon(grid, mask);
  return { type: 'Feature', properties: { water_level_navd88_m: roundTo(level, 4), truncated }, geometry };
}
