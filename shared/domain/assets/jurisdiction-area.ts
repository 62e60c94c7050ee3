import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { distanceToBoundaryKm, KM_PER_DEGREE } from '../hazards/geo';
import { heldBoundary, type HeldBoundary, type OfficialBoundary } from '../jurisdiction-boundaries';

/**
 * Where a jurisdiction's assets may lie: inside its boundary (the account's official one, else the
 * Census county or place), or up to `BOUNDARY_TOLERANCE_M` outside it, for sites on piers,
 * bridges, causeways and seawalls past the shoreline and for the boundary's simplification.
 */
export const BOUNDARY_TOLERANCE_M = 500;

export interface JurisdictionArea {
  /** What the rows are checked against, for messages ("Monroe County", "City of Key West"). */
  description: string;
  contains(lon: number, lat: number): boolean;
}

function withinTolerance(boundary: HeldBoundary, lon: number, lat: number): boolean {
  const [west, south, east, north] = boundary.bbox;
  const margin = BOUNDARY_TOLERANCE_M / 1000 / KM_PER_DEGREE / Math.max(0.5, Math.cos((lat * Math.PI) / 180));
  if (lon < west - margin || lon > east + margin || lat < south - margin || lat > north + margin) return false;
  return booleanPointInPolygon([lon, lat], boundary.geometry) || distanceToBoundaryKm({ lon, lat }, boundary.geometry) * 1000 <= BOUNDARY_TOLERANCE_M;
}

/** The area of a jurisdiction id (`county:12087`, `municipality:120168`); undefined for an unknown id. */
export function jurisdictionArea(jurisdictionId: string, official?: OfficialBoundary): JurisdictionArea | undefined {
  const boundary = heldBoundary(jurisdictionId, official);
  return boundary && { description: boundary.description, contains: (lon, lat) => withinTolerance(boundary, lon, lat) };
}
