import { isCoastalCounty } from '../compliance/setting';
import { countyAtPoint } from '../risk/county-at-point';
import { DATUM_CHECK_RADIUS_KM, DATUM_STATIONS } from './datum-check';
import { grownBBox, haversineKm, type BBox, type LatLon } from './geo';

/**
 * Inland is decided from data, not from an elevation window: a place is inland when none of its
 * counties reaches the open coast (the coastal counties are those whose Census boundary has arcs on
 * the shoreline, `isCoastalCounty`) and no NOAA tide station, that is tidal water, lies within
 * 10 km of it. A tidal river through an inland county (the St. Johns at Palatka) keeps its stations,
 * so places on it are not called inland.
 */
export function inlandCountyAt(point: LatLon): { fips: string; name: string } | undefined {
  const county = countyAtPoint(point)?.county;
  if (!county || isCoastalCounty(county.fips)) return undefined;
  return DATUM_STATIONS.some((s) => haversineKm(point, s) <= DATUM_CHECK_RADIUS_KM) ? undefined : { fips: county.fips, name: county.name };
}

/** The same for a boundary: all its counties inland, and no tide station within 10 km of its bounding box. */
export function inlandBoundary(counties: readonly { fips: string }[], bbox: BBox): boolean {
  if (counties.length === 0 || counties.some((c) => isCoastalCounty(c.fips))) return false;
  const [west, south, east, north] = grownBBox(bbox, DATUM_CHECK_RADIUS_KM);
  return !DATUM_STATIONS.some((s) => s.lon >= west && s.lon <= east && s.lat >= south && s.lat <= north);
}
