import stationData from '../../data/hazards/datum-stations.json';
import { haversineKm, type BBox, type LatLon } from './geo';
import { length, roundTo } from './units';

/**
 * The local datum check: MHHW in every tidal answer is that of the sea level gauges (weighted as
 * their rise is), not a local tidal datum. Up a river or in a lagoon the local MHHW can differ by
 * half a metre (downtown Jacksonville, the Indian River Lagoon), so each answer compares the MHHW it
 * used with that of the NOAA reference stations nearby, on their own datums of the same epoch, and
 * says when they disagree. Figures are not changed: a station's datum holds at the station, and
 * which station stands for a site (the same water, not across a barrier island) is the engineer's call.
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
const BASIS = `MHHW − NAVD88 of the NOAA reference stations (own harmonic constants and datums, ${EPOCH} epoch, as the MHHW used here) from the NOAA CO-OPS station data; subordinate stations are left out, as their datums are often their reference station's. A difference beyond ${DATUM_CHECK_TOLERANCE_M} m is reported, never applied.`;
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

/** At a point: the stations within the radius, nearest first; the nearest decides the status. */
export function pointDatumCheck(point: LatLon, usedMhhwNavd88: number, stations: readonly DatumStation[] = DATUM_STATIONS) {
  const near = stationsNear(point, stations).slice(0, MAX_LISTED);
  const common = { radius_km: DATUM_CHECK_RADIUS_KM, tolerance_m: DATUM_CHECK_TOLERANCE_M, used_mhhw_navd88: length(usedMhhwNavd88) };
  if (near.length === 0) {
    return { status: 'no_station_nearby' as const, ...common, stations: [], basis: BASIS,
      note: `No NOAA reference station with its own datums within ${DATUM_CHECK_RADIUS_KM} km: the MHHW used is that of the sea level gauges. ${CONFIRM}` };
  }
  const { station, distance } = near[0]!;
  return {
    status: differs(station, usedMhhwNavd88) ? 'differs' as const : 'agrees' as const,
    ...common,
    stations: near.map((s) => stationEntry(s.station, usedMhhwNavd88, s.distance)),
    basis: BASIS,
    note: compared(station, `${roundTo(distance, 1)} km away`, usedMhhwNavd88, 'here'),
  };
}

export interface AssetDatumCheck {
  status: 'agrees' | 'differs' | 'no_station_nearby';
  /** The MHHW (NAVD88, m) the tidal levels at the asset stand on: its own gauges'. */
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
