import { describeJurisdiction, resolveJurisdiction } from '../jurisdictions';
import { floridaBBox } from './florida-counties';
import type { LatLon } from './geo';

export type ResolvedLocation =
  | { ok: true; point: LatLon; label: string; jurisdiction: { type: 'county' | 'municipality'; name: string; county_fips: string } | null }
  | { ok: false; message: string };

const LAT_LON = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
/** Florida's waters and the neighbouring coast: farther than this from the state is not a Florida location. */
const MARGIN_DEGREES = 1;

export function isNearFlorida(point: LatLon): boolean {
  const [w, s, e, n] = floridaBBox();
  return point.lon >= w - MARGIN_DEGREES && point.lon <= e + MARGIN_DEGREES && point.lat >= s - MARGIN_DEGREES && point.lat <= n + MARGIN_DEGREES;
}

/** `"lat,lon"` or a Florida county or municipality name (the place's coordinates are used). */
export function resolveLocation(text: string): ResolvedLocation {
  const match = LAT_LON.exec(text);
  if (match) {
    const point = { lat: Number(match[1]), lon: Number(match[2]) };
    if (Math.abs(point.lat) > 90 || Math.abs(point.lon) > 180) return { ok: false, message: 'Latitude must be within ±90 and longitude within ±180.' };
    if (!isNearFlorida(point)) return { ok: false, message: `${point.lat},${point.lon} is not in or near Florida; send "lat,lon" (latitude first) of a Florida location.` };
    return { ok: true, point, label: text.trim(), jurisdiction: null };
  }
  const lookup = resolveJurisdiction(text);
  if (lookup.status === 'not_found') return { ok: false, message: `"${text}" is neither "lat,lon" nor a Florida county or municipality name.` };
  if (lookup.status === 'ambiguous') {
    return { ok: false, message: `"${text}" is ambiguous: ${lookup.candidates.map((c) => describeJurisdiction(c)).join('; ')}. Add "County" or "City of".` };
  }
  const j = lookup.jurisdiction;
  const place = j.type === 'municipality' ? j.municipality : j.county;
  return {
    ok: true,
    point: { lat: place.lat, lon: place.lon },
    label: j.display_name,
    jurisdiction: { type: j.type, name: j.display_name, county_fips: j.county.fips },
  };
}
