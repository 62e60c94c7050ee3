import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { LatLon } from '../hazards/geo';
import { distanceToBBoxKm } from '../hazards/geo';
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

const KM_PER_DEGREE = 111.195;

/** Distance from a point to a segment in a local equirectangular frame (km); exact enough within a few km. */
function segmentDistanceKm(p: LatLon, a: number[], b: number[]): number {
  const kx = KM_PER_DEGREE * Math.cos((p.lat * Math.PI) / 180);
  const ax = (a[0]! - p.lon) * kx; const ay = (a[1]! - p.lat) * KM_PER_DEGREE;
  const bx = (b[0]! - p.lon) * kx; const by = (b[1]! - p.lat) * KM_PER_DEGREE;
  const dx = bx - ax; const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / lengthSquared));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

function boundaryDistanceKm(point: LatLon, county: CountyBoundary): number {
  const rings = county.geometry.type === 'Polygon' ? county.geometry.coordinates : county.geometry.coordinates.flat();
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) best = Math.min(best, segmentDistanceKm(point, ring[i - 1]!, ring[i]!));
  }
  return best;
}

/** The Florida county containing the point, the nearest one within the shoreline tolerance, or undefined. */
export function countyAtPoint(point: LatLon): CountyMatch {
  const counties = floridaCountyBoundaries();
  const inside = counties.find((c) => point.lon >= c.bbox[0] && point.lon <= c.bbox[2] && point.lat >= c.bbox[1] && point.lat <= c.bbox[3]
    && booleanPointInPolygon([point.lon, point.lat], c.geometry));
  if (inside) return { county: inside, method: 'inside_boundary', distance_km: 0 };
  let nearest: { county: CountyBoundary; distance: number } | undefined;
  for (const county of counties) {
    if (distanceToBBoxKm(point, county.bbox) > SHORELINE_TOLERANCE_KM) continue;
    const distance = boundaryDistanceKm(point, county);
    if (distance <= SHORELINE_TOLERANCE_KM && (!nearest || distance < nearest.distance)) nearest = { county, distance };
  }
  return nearest ? { county: nearest.county, method: 'nearest_boundary', distance_km: Math.round(nearest.distance * 100) / 100 } : undefined;
}
