import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { LatLon } from '../hazards/geo';
import { distanceToBBoxKm, distanceToBoundaryKm } from '../hazards/geo';
import { floridaCountyBoundaries, type CountyBoundary } from '../hazards/florida-counties';

/**
 * The bundled boundaries are Census cartographic boundaries simplified at 1:10 million and clipped
 * to the shoreline, so a waterfront address can fall just outside its county's polygon. A point
 * outside every polygon but this close to one is placed in the nearest county, and says so.
 */
export const SHORELINE_TOLERANCE_KM = 5;

export type CountyMatch =
  | { county: CountyBoundary; method: 'inside_boundary'; distance_km: 0 }
  | { county: CountyBoundary; method: 'nearest_boundary'; distance_km: number }
  | undefined;

/** The Florida county containing the point, the nearest one within the shoreline tolerance, or undefined. */
export function countyAtPoint(point: LatLon): CountyMatch {
  const counties = floridaCountyBoundaries();
  const inside = counties.find((c) => point.lon >= c.bbox[0] && point.lon <= c.bbox[2] && point.lat >= c.bbox[1] && point.lat <= c.bbox[3]
    && booleanPointInPolygon([point.lon, point.lat], c.geometry));
  if (inside) return { county: inside, method: 'inside_boundary', distance_km: 0 };
  let nearest: { county: CountyBoundary; distance: number } | undefined;
  for (const county of counties) {
    if (distanceToBBoxKm(point, county.bbox) > SHORELINE_TOLERANCE_KM) continue;
    const distance = distanceToBoundaryKm(point, county.geometry);
    if (distance <= SHORELINE_TOLERANCE_KM && (!nearest || distance < nearest.distance)) nearest = { county, distance };
  }
  return nearest ? { county: nearest.county, method: 'nearest_boundary', distance_km: Math.round(nearest.distance * 100) / 100 } : undefined;
}
