import stationData from '../../data/hazards/datum-stations.json';
import { haversineKm, type BBox, type LatLon } from './geo';
import type { GaugeSelection } from './gauges';
import { weightedMhhwNavd88 } from './tidal';
import { length, roundTo } from './units';

/**
 * Local tidal datums: the gauges' MHHW (weighted as their rise is) is not a local tidal datum. Up a
 * river or in a lagoon the local MHHW can differ by half a metre (downtown Jacksonville, the Indian
 * River Lagoon), so where a NOAA reference station with its own datums stands on the same water
 * within 10 km (`localDatumStation`) its MHHW is used and named; elsewhere the gauges' is, and each
 * answer compares the gauges' MHHW with the stations nearby and says when they disagree.
 */
export const DATUM_CHECK_RADIUS_KM = 10;
/** A tenth of a metre (4 in): the order of a tidal datum's own uncertainty away from its station. */
export const DATUM_CHECK_TOLERANCE_M = 0.1;
const MAX_LISTED = 5;

export interface DatumStation {
  noaa_id: string;
  name: string;
  lat: number;
  lon: number;
  /** MHHW above NAVD88, metres (1983–2001 epoch). */
  mhhw_navd88_m: number;
}

export const DATUM_STATIONS: readonly DatumStation[] = stationData.stations.map((s) => ({
  noaa_id: s.noaa_id, name: s.name, lat: s.lat, lon: s.lon,
  mhhw_navd88_m: s.datums_m_above_station_datum.MHHW - s.datums_m_above_station_datum.NAVD88,
}));

const EPOCH = `${stationData.epoch.start.slice(0, 4)}–${stationData.epoch.end.slice(0, 4)}`;
const BASIS = `MHHW − NAVD88 of the NOAA reference stations (own harmonic constants and datums, ${EPOCH} epoch, as the gauges' MHHW) from the NOAA CO-OPS station data; subordinate stations are left out, as their datums are often their reference station's. Compared with the MHHW of the sea level gauges; where a station stands on the same water within ${DATUM_CHECK_RADIUS_KM} km its MHHW is the one used (mhhw_source).`;
const CONFIRM = 'Confirm the local MHHW (NOAA VDatum, or the datums of a station on the same water) before signing a tidal figure here.';

function stationEntry(station: DatumStation, used: number, distanceKm?: number) {
  return {
    noaa_id: station.noaa_id,
    name: station.name,
    lat: station.lat,
    lon: station.lon,
    ...(distanceKm === undefined ? {} : { distance_km: roundTo(distanceKm, 2) }),
    mhhw_navd88: length(station.mhhw_navd88_m),
    difference: length(station.mhhw_navd88_m - used),
  };
}

/** Compared at the answers' 0.1 mm, so a difference of exactly the tolerance is within it. */
const differs = (station: DatumStation, used: number) => Math.round(Math.abs(station.mhhw_navd88_m - used) * 10_000) > DATUM_CHECK_TOLERANCE_M * 10_000;
const metres = (value: number) => `${roundTo(value, 3)} m`;

/** One station against the MHHW used, in words: by how much and which way the figures err. */
function compared(station: DatumStation, where: string, used: number, place: string): string {
  const gap = station.mhhw_navd88_m - used;
  const has = `NOAA station ${station.name} (${station.noaa_id}), ${where}, has MHHW ${metres(station.mhhw_navd88_m)} NAVD88`;
  return differs(station, used)
    ? `${has}, ${metres(Math.abs(gap))} ${gap < 0 ? 'below' : 'above'} the ${metres(used)} taken from the sea level gauges: the tidal water levels ${place} may be ${gap < 0 ? 'too high' : 'too low'} by about that much. ${CONFIRM}`
    : `${has}, within ${DATUM_CHECK_TOLERANCE_M} m of the ${metres(used)} taken from the sea level gauges.`;
}

/** The stations within the radius of a point, nearest first. */
function stationsNear(point: LatLon, stations: readonly DatumStation[]): { station: DatumStation; distance: number }[] {
  return stations
    .map((station) => ({ station, distance: haversineKm(point, station) }))
    .filter((s) => s.distance <= DATUM_CHECK_RADIUS_KM)
    .sort((a, b) => a.distance - b.distance);
}

/**
 * The NOAA station whose MHHW stands for a point, if any. Same-water rule: the nearest reference
 * station within 10 km, provided every other station within twice its distance (and within 10 km)
 * agrees with it within the tolerance. Stations that disagree at comparable distances stand on
 * different waters (the ocean and the lagoon behind a barrier island, a river mouth and its bay), and
 * which one the point drains to is not known from the stations alone: there the gauges' MHHW is kept
 * and the check reports the stations.
 */
export function localDatumStation(point: LatLon, stations: readonly DatumStation[] = DATUM_STATIONS): { station: DatumStation; distance: number } | undefined {
  const [nearest, ...others] = stationsNear(point, stations);
  if (!nearest) return undefined;
  const comparable = others.filter((s) => s.distance <= 2 * nearest.distance);
  return comparable.every((s) => !differs(s.station, nearest.station.mhhw_navd88_m)) ? nearest : undefined;
}

/** The MHHW (NAVD88, m) a point's tidal levels stand on: its local station's, else the gauges'. */
export function mhhwAt(point: LatLon, selection: GaugeSelection): number {
  return localDatumStation(point)?.station.mhhw_navd88_m ?? weightedMhhwNavd88(selection);
}

/** Which MHHW a point's answer uses, named: the local station (id, name, distance, epoch) or the gauges. */
export function mhhwSource(point: LatLon, selection: GaugeSelection) {
  const local = localDatumStation(point);
  if (!local) {
    return { kind: 'sea_level_gauges' as const, mhhw_navd88: length(weightedMhhwNavd88(selection)),
      note: `No NOAA reference station with its own datums stands on the same water within ${DATUM_CHECK_RADIUS_KM} km (nearest within the radius, every other within twice its distance agreeing to ${DATUM_CHECK_TOLERANCE_M} m): the MHHW is that of the sea level gauges, weighted as their rise is.` };
  }
  const { station, distance } = local;
  return {
    kind: 'noaa_station' as const,
    mhhw_navd88: length(station.mhhw_navd88_m),
    station: { noaa_id: station.noaa_id, name: station.name, lat: station.lat, lon: station.lon, distance_km: roundTo(distance, 2), epoch: EPOCH },
    note: `MHHW of NOAA station ${station.name} (${station.noaa_id}), ${roundTo(distance, 1)} km away, ${EPOCH} epoch: the nearest reference station with its own datums within ${DATUM_CHECK_RADIUS_KM} km, and no station within twice its distance disagrees with it by more than ${DATUM_CHECK_TOLERANCE_M} m.`,
  };
}

/** At a point: the stations within the radius, nearest first; the nearest decides the status. */
export function pointDatumCheck(point: LatLon, usedMhhwNavd88: number, stations: readonly DatumStation[] = DATUM_STATIONS) {
  const near = stationsNear(point, stations).slice(0, MAX_LISTED);
  const common = { radius_km: DATUM_CHECK_RADIUS_KM, tolerance_m: DATUM_CHECK_TOLERANCE_M, used_mhhw_navd88: length(usedMhhwNavd88) };
  if (near.length === 0) {
    return { status: 'no_station_nearby' as const, ...common, stations: [], basis: BASIS,
      note: `No NOAA reference station with its own datums within ${DATUM_CHECK_RADIUS_KM} km: the MHHW used is that of the sea level gauges. ${CONFIRM}` };
  }
  const { station, distance } = near[0]!;
  const applied = localDatumStation(point, stations) !== undefined;
  const where = `${roundTo(distance, 1)} km away`;
  return {
    status: differs(station, usedMhhwNavd88) ? 'differs' as const : 'agrees' as const,
    ...common,
    stations: near.map((s) => stationEntry(s.station, usedMhhwNavd88, s.distance)),
    basis: BASIS,
    note: applied
      ? `NOAA station ${station.name} (${station.noaa_id}), ${where}, has MHHW ${metres(station.mhhw_navd88_m)} NAVD88 (${metres(station.mhhw_navd88_m - usedMhhwNavd88)} from the ${metres(usedMhhwNavd88)} of the sea level gauges): the station's MHHW is used here (mhhw_source).`
      : compared(station, where, usedMhhwNavd88, 'here'),
  };
}

export interface AssetDatumCheck {
  status: 'agrees' | 'differs' | 'no_station_nearby';
  /** The MHHW (NAVD88, m) the tidal levels at the asset stand on: its local station's, else its own gauges' (`mhhwAt`). */
  mhhw_used_navd88_m: number;
  /** The nearest NOAA reference station within the radius, null when none. */
  station: { noaa_id: string; name: string; distance_km: number; mhhw_navd88_m: number } | null;
  /** The station's MHHW minus the MHHW used (m): negative, the tidal depths at the asset may be too deep by that much. */
  difference_m: number | null;
}

/** The point check's verdict for one asset, short enough to store on it and carry into its exports. */
export function assetDatumCheck(point: LatLon, usedMhhwNavd88: number, stations: readonly DatumStation[] = DATUM_STATIONS): AssetDatumCheck {
  const nearest = stationsNear(point, stations)[0];
  const used = roundTo(usedMhhwNavd88, 4);
  if (!nearest) return { status: 'no_station_nearby', mhhw_used_navd88_m: used, station: null, difference_m: null };
  const { station, distance } = nearest;
  return {
    status: differs(station, usedMhhwNavd88) ? 'differs' : 'agrees',
    mhhw_used_navd88_m: used,
    station: { noaa_id: station.noaa_id, name: station.name, distance_km: roundTo(distance, 2), mhhw_navd88_m: roundTo(station.mhhw_navd88_m, 4) },
    difference_m: roundTo(station.mhhw_navd88_m - usedMhhwNavd88, 4),
  };
}

/** Over an area: every station in its bounding box, those that differ most first. */
export function areaDatumCheck(bbox: BBox, usedMhhwNavd88: number, stations: readonly DatumStation[] = DATUM_STATIONS) {
  const [west, south, east, north] = bbox;
  const inside = stations.filter((s) => s.lon >= west && s.lon <= east && s.lat >= south && s.lat <= north);
  const common = { tolerance_m: DATUM_CHECK_TOLERANCE_M, used_mhhw_navd88: length(usedMhhwNavd88), stations_in_bbox: inside.length };
  if (inside.length === 0) {
    return { status: 'no_station_nearby' as const, ...common, range: null, differing: 0, stations: [], basis: BASIS,
      note: `No NOAA reference station with its own datums in the boundary's bounding box: the MHHW used is that of the sea level gauges. ${CONFIRM}` };
  }
  const heights = inside.map((s) => s.mhhw_navd88_m);
  const differing = inside.filter((s) => differs(s, usedMhhwNavd88));
  const listed = [...inside]
    .sort((a, b) => Math.abs(b.mhhw_navd88_m - usedMhhwNavd88) - Math.abs(a.mhhw_navd88_m - usedMhhwNavd88) || a.noaa_id.localeCompare(b.noaa_id))
    .slice(0, MAX_LISTED);
  const range = { min: length(Math.min(...heights)), max: length(Math.max(...heights)) };
  let note: string;
  if (inside.length === 1) note = compared(inside[0]!, "the only one in the boundary's bounding box", usedMhhwNavd88, 'near it');
  else if (differing.length > 0) {
    note = `${differing.length} of the ${inside.length} NOAA stations in the boundary's bounding box ${differing.length === 1 ? 'has' : 'have'} an MHHW more than ${DATUM_CHECK_TOLERANCE_M} m from the ${metres(usedMhhwNavd88)} NAVD88 taken from the sea level gauges (the stations range from ${metres(range.min.m)} to ${metres(range.max.m)}): the tidal water levels near them may be off by as much. ${CONFIRM}`;
  } else note = `All ${inside.length} NOAA stations in the boundary's bounding box are within ${DATUM_CHECK_TOLERANCE_M} m of the ${metres(usedMhhwNavd88)} NAVD88 taken from the sea level gauges.`;
  return {
    status: differing.length > 0 ? 'differs' as const : 'agrees' as const,
    ...common,
    range,
    differing: differing.length,
    stations: listed.map((s) => stationEntry(s, usedMhhwNavd88)),
    basis: BASIS,
    note,
  };
}
