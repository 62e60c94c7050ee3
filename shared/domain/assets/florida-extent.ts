/**
 * Florida's extent as a longitude/latitude box, generous enough for the Dry Tortugas, the Keys and
 * the western Panhandle (Perdido Key), in WGS84 degrees: lon −87.7…−79.8, lat 24.3…31.1. Screening
 * only: a point in the Gulf or in southern Georgia inside the box passes.
 */
export const FLORIDA_BBOX = { west: -87.7, south: 24.3, east: -79.8, north: 31.1 } as const;

export function inFlorida(lon: number, lat: number): boolean {
  return lon >= FLORIDA_BBOX.west && lon <= FLORIDA_BBOX.east && lat >= FLORIDA_BBOX.south && lat <= FLORIDA_BBOX.north;
}

export type CoordinateVerdict = 'ok' | 'swapped' | 'outside_florida' | 'out_of_range';

/** `swapped` when the pair is outside Florida as given but inside it once latitude and longitude trade places. */
export function checkCoordinates(lon: number, lat: number): CoordinateVerdict {
  if (inFlorida(lon, lat)) return 'ok';
  if (inFlorida(lat, lon)) return 'swapped';
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return 'out_of_range';
  return 'outside_florida';
}

/** A longitude written without its minus sign: in Florida once negated (so east of Greenwich as given). */
export function westSignLost(lon: number, lat: number): boolean {
  return inFlorida(-lon, lat);
}
