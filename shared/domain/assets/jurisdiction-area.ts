import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { countyBoundaryByFips, type CountyBoundary } from '../hazards/florida-counties';
import { distanceToBoundaryKm, KM_PER_DEGREE } from '../hazards/geo';
import { FLORIDA_MUNICIPALITIES } from '../jurisdictions';

/**
 * Where a jurisdiction's assets may lie. Counties use their Census boundary (us-atlas, 1:10M);
 * a point up to `BOUNDARY_TOLERANCE_M` outside it still counts, since that generalised line can
 * cut off shore and border sites. Municipalities have no boundary here, only a point, so their
 * assets are checked against the county or counties they lie in (an approximation: a city's file
 * that holds sites elsewhere in its county passes).
 */
export const BOUNDARY_TOLERANCE_M = 500;

export interface JurisdictionArea {
  /** What the rows are checked against, for messages ("Monroe County", "Broward County (the municipality's county)"). */
  description: string;
  contains(lon: number, lat: number): boolean;
}

function countyContains(county: CountyBoundary, lon: number, lat: number): boolean {
  const [west, south, east, north] = county.bbox;
  const margin = BOUNDARY_TOLERANCE_M / 1000 / KM_PER_DEGREE / Math.max(0.5, Math.cos((lat * Math.PI) / 180));
  if (lon < west - margin || lon > east + margin || lat < south - margin || lat > north + margin) return false;
  return booleanPointInPolygon([lon, lat], county.geometry) || distanceToBoundaryKm({ lon, lat }, county.geometry) * 1000 <= BOUNDARY_TOLERANCE_M;
}

/** The area of a jurisdiction id (`county:12087`, `municipality:120168`); undefined for an unknown id. */
export function jurisdictionArea(jurisdictionId: string): JurisdictionArea | undefined {
  const [type, code = ''] = jurisdictionId.split(':');
  const fips = type === 'county' ? [code] : type === 'municipality' ? FLORIDA_MUNICIPALITIES.find((m) => m.cid === code)?.county_fips_all ?? [] : [];
  const counties = fips.map(countyBoundaryByFips).filter((c): c is CountyBoundary => c !== undefined);
  if (counties.length === 0) return undefined;
  const names = counties.map((c) => `${c.name} County`).join(' or ');
  return {
    description: type === 'county' ? names : `${names} (the municipality's ${counties.length > 1 ? 'counties' : 'county'}: municipal boundaries are not available)`,
    contains: (lon, lat) => counties.some((county) => countyContains(county, lon, lat)),
  };
}
