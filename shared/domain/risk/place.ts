import { countyByFipsCode, countyByName } from '../jurisdictions';
import type { LatLon } from '../hazards/geo';
import { countyAtPoint, SHORELINE_TOLERANCE_KM } from './county-at-point';
import { isCoastalCounty } from '../compliance/setting';

/** Where a risk question is asked: a county, and the point its coastal figures are computed for. */
export interface RiskPlace {
  county_fips: string;
  county_name: string;
  /** The caller's point, or the county's centroid when the county was named. */
  point: LatLon;
  point_basis: 'requested_point' | 'county_centroid';
  matched_by: 'county_fips' | 'county_name' | 'point_in_boundary' | 'nearest_boundary';
  distance_to_boundary_km?: number;
  coastal: boolean;
}

export type PlaceQuery = { county_fips: string } | { county: string } | { lat: number; lon: number };

export type PlaceResult =
  | { ok: true; place: RiskPlace }
  | { ok: false; reason: 'outside_florida' | 'unknown_county'; message: string };

function fromCounty(fips: string, matchedBy: RiskPlace['matched_by']): RiskPlace {
  const county = countyByFipsCode(fips)!;
  return {
    county_fips: county.fips,
    county_name: county.name,
    point: { lat: county.lat, lon: county.lon },
    point_basis: 'county_centroid',
    matched_by: matchedBy,
    coastal: isCoastalCounty(county.fips),
  };
}

export function resolvePlace(query: PlaceQuery): PlaceResult {
  if ('county_fips' in query) {
    if (!query.county_fips.startsWith('12')) return { ok: false, reason: 'outside_florida', message: `FIPS ${query.county_fips} is not a Florida county (Florida codes start with 12).` };
    if (!countyByFipsCode(query.county_fips)) return { ok: false, reason: 'unknown_county', message: `No Florida county has FIPS code ${query.county_fips}.` };
    return { ok: true, place: fromCounty(query.county_fips, 'county_fips') };
  }
  if ('county' in query) {
    const county = countyByName(query.county);
    if (county) return { ok: true, place: fromCounty(county.fips, 'county_name') };
    return { ok: false, reason: 'unknown_county', message: `"${query.county}" is not the name of a Florida county.` };
  }
  const match = countyAtPoint(query);
  if (!match) {
    return { ok: false, reason: 'outside_florida', message: `${query.lat},${query.lon} is not in a Florida county (nor within ${SHORELINE_TOLERANCE_KM} km of one's shoreline).` };
  }
  return {
    ok: true,
    place: {
      county_fips: match.county.fips,
      county_name: match.county.name,
      point: { lat: query.lat, lon: query.lon },
      point_basis: 'requested_point',
      matched_by: match.method === 'inside_boundary' ? 'point_in_boundary' : 'nearest_boundary',
      ...(match.method === 'nearest_boundary' ? { distance_to_boundary_km: match.distance_km } : {}),
      coastal: isCoastalCounty(match.county.fips),
    },
  };
}
