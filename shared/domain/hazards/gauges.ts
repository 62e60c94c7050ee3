import gaugeData from '../../data/hazards/gauges.json';
import tideStationData from '../../data/hazards/tide-stations.json';
import gevData from '../../data/hazards/gev-return-levels.json';
import { haversineKm, KM_PER_MILE, type LatLon } from './geo';
import type { RegionId } from './scenarios';

export interface TideConstituent {
  name: string;
  amplitude: number;
  phase: number;
}

/** NOAA tidal datums in metres above the station datum (STND), 1983–2001 epoch. */
export interface StationDatums {
  MHHW: number;
  MHW: number;
  MSL: number;
  MLW: number;
  MLLW: number;
  NAVD88: number;
  GT: number;
}

export interface GevFit {
  site: string;
  first_year: number;
  last_year: number;
  n_annual_maxima: number;
  record_max_m: number;
  record_max_year: number;
  /** Return period in years → metres above that year's mean sea level. */
  return_levels_m_above_annual_msl: Record<'2' | '10' | '50' | '100' | '500', number>;
  reliable: boolean;
  reliability: string;
}

export interface Gauge extends LatLon {
  noaa_id: string;
  name: string;
  region: RegionId;
  tr2022_obs_years: number;
  tr2022_trajectory_geq30yrs: boolean;
  htf_m_above_mhhw: { minor: number; moderate: number; major: number };
  datums: StationDatums;
  datum_epoch: { start: string; end: string };
  constituents: TideConstituent[];
  gev: GevFit | undefined;
}

/** Atlantic-coast gauges (incl. Biscayne Bay) use the Southeast region; the Keys and the Gulf coast the Eastern Gulf. */
const SOUTHEAST_GAUGES = new Set(['8720030', '8720218', '8721604', '8723214']);

const stations = new Map(tideStationData.map((s) => [s.noaa_id, s]));
const gevFits = new Map((gevData as (GevFit & { noaa_id: string })[]).map((g) => [g.noaa_id, g]));

export const GAUGES: readonly Gauge[] = gaugeData.map((g) => {
  const station = stations.get(g.noaa_id)!;
  return {
    noaa_id: g.noaa_id,
    name: g.name,
    lat: g.lat,
    lon: g.lon,
    region: SOUTHEAST_GAUGES.has(g.noaa_id) ? 'SE' : 'EGOM',
    tr2022_obs_years: g.tr2022_obs_years,
    tr2022_trajectory_geq30yrs: g.tr2022_trajectory_geq30yrs,
    htf_m_above_mhhw: { minor: g.htf_minor_m_above_mhhw, moderate: g.htf_moderate_m_above_mhhw, major: g.htf_major_m_above_mhhw },
    datums: station.datums_m_above_station_datum,
    datum_epoch: station.epoch as { start: string; end: string },
    constituents: station.constituents,
    gev: gevFits.get(g.noaa_id),
  };
});

const byId = new Map(GAUGES.map((g) => [g.noaa_id, g]));

export function gaugeById(id: string): Gauge | undefined {
  return byId.get(id);
}

/** Statute rule (s. 380.093(3)(d)): interpolate between the two closest gauges unless they are over 100 miles apart. */
export const GAUGE_SEPARATION_LIMIT_MILES = 100;
/** Beyond this from every Florida gauge a location takes the regional series instead. */
export const GAUGE_REACH_MILES = 100;

export interface WeightedGauge {
  gauge: Gauge;
  distance_km: number;
  weight: number;
}

export type GaugeSelection =
  | { method: 'single_gauge'; gauges: WeightedGauge[]; reason: string }
  | { method: 'inverse_distance_two_gauges'; gauges: WeightedGauge[]; separation_miles: number; reason: string }
  | { method: 'regional_fallback'; region: RegionId; gauges: WeightedGauge[]; reason: string };

export function gaugesByDistance(point: LatLon, candidates: readonly Gauge[] = GAUGES): { gauge: Gauge; distance_km: number }[] {
  return candidates.map((gauge) => ({ gauge, distance_km: haversineKm(point, gauge) })).sort((a, b) => a.distance_km - b.distance_km);
}

/**
 * The statute's gauge rule: the two closest gauges weighted by inverse distance, or the closest
 * alone when the two are more than 100 miles apart; a location farther than 100 miles from every
 * gauge takes the regional series of its nearest gauge's coast.
 */
export function selectGauges(point: LatLon): GaugeSelection {
  const [first, second] = gaugesByDistance(point);
  const nearest = first!;
  const firstMiles = nearest.distance_km / KM_PER_MILE;
  if (firstMiles > GAUGE_REACH_MILES) {
    return {
      method: 'regional_fallback',
      region: nearest.gauge.region,
      gauges: [{ ...nearest, weight: 0 }],
      reason: `The nearest Florida gauge (${nearest.gauge.name}) is ${firstMiles.toFixed(1)} miles away, beyond ${GAUGE_REACH_MILES} miles: the NOAA 2022 regional series is used.`,
    };
  }
  if (nearest.distance_km === 0) {
    return { method: 'single_gauge', gauges: [{ ...nearest, weight: 1 }], reason: 'The location is at the gauge.' };
  }
  const separationMiles = haversineKm(nearest.gauge, second!.gauge) / KM_PER_MILE;
  if (separationMiles > GAUGE_SEPARATION_LIMIT_MILES) {
    return {
      method: 'single_gauge',
      gauges: [{ ...nearest, weight: 1 }],
      reason: `The two closest gauges are ${separationMiles.toFixed(1)} miles apart (over ${GAUGE_SEPARATION_LIMIT_MILES}): the closest gauge alone is used.`,
    };
  }
  const inverse = [1 / nearest.distance_km, 1 / second!.distance_km];
  const total = inverse[0]! + inverse[1]!;
  return {
    method: 'inverse_distance_two_gauges',
    gauges: [{ ...nearest, weight: inverse[0]! / total }, { ...second!, weight: inverse[1]! / total }],
    separation_miles: separationMiles,
    reason: `Interpolated between the two closest gauges (${separationMiles.toFixed(1)} miles apart) by inverse distance.`,
  };
}

/** A datum-derived quantity combined over the selected gauges with their weights. */
export function weightedByGauges(selection: GaugeSelection, value: (gauge: Gauge) => number): number {
  if (selection.method === 'regional_fallback') return value(selection.gauges[0]!.gauge);
  return selection.gauges.reduce((sum, g) => sum + g.weight * value(g.gauge), 0);
}
