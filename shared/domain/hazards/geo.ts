import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon, Position } from 'geojson';

export const KM_PER_MILE = 1.609344;
const EARTH_RADIUS_KM = 6371.0088;
/** One degree of latitude (and of longitude at the equator) on the mean Earth sphere. */
export const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

export interface LatLon {
  lat: number;
  lon: number;
}

/** Great-circle distance on the mean Earth sphere (IUGG mean radius). */
export function haversineKm(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export type BBox = [minLon: number, minLat: number, maxLon: number, maxLat: number];

/**
 * Whether positions repeat one point or lie on one line: a ring of them encloses no area (GEOS and
 * the GIS packages call it invalid). Told by direction, not by signed area, which is also zero for a
 * bow tie whose halves cancel out. Directions are taken from the first position, so Florida's large
 * coordinates cancel before the products; a sine below 1e-9 counts as the same line.
 */
export function positionsOnOneLine(positions: Position[]): boolean {
  const [x0, y0] = positions[0]!;
  let dx = 0;
  let dy = 0;
  for (const [x, y] of positions) {
    const ex = x! - x0!;
    const ey = y! - y0!;
    if (dx === 0 && dy === 0) {
      [dx, dy] = [ex, ey];
    } else if (Math.abs(dx * ey - dy * ex) > 1e-9 * Math.hypot(dx, dy) * Math.hypot(ex, ey)) {
      return false;
    }
  }
  return true;
}

/** A lon/lat box grown by at least `km` on every side. */
export function grownBBox([west, south, east, north]: BBox, km: number): BBox {
  const dLat = km / KM_PER_DEGREE;
  const dLon = km / (KM_PER_DEGREE * Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180));
  return [west - dLon, south - dLat, east + dLon, north + dLat];
}

export function bboxesIntersect(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Whether segment a→b crosses or touches the box (Liang–Barsky clipping of the segment's parameter). */
function segmentTouchesBBox(a: Position, b: Position, [west, south, east, north]: BBox): boolean {
  const dx = b[0]! - a[0]!, dy = b[1]! - a[1]!;
  let enter = 0, leave = 1;
  for (const [p, q] of [[-dx, a[0]! - west], [dx, east - a[0]!], [-dy, a[1]! - south], [dy, north - a[1]!]] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    if (enter > leave) return false;
  }
  return true;
}

/**
 * Whether a polygon and a lon/lat box share any point: an edge of the polygon crosses the box, or
 * the box lies wholly inside the polygon (its centre inside an outer ring and outside the holes).
 */
export function polygonIntersectsBBox(geometry: Polygon | MultiPolygon, box: BBox): boolean {
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
  for (const ring of rings) for (let i = 1; i < ring.length; i++) if (segmentTouchesBBox(ring[i - 1]!, ring[i]!, box)) return true;
  return booleanPointInPolygon([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], geometry);
}

/** Distance from a point to the nearest point of a lon/lat box (0 inside). */
export function distanceToBBoxKm(point: LatLon, box: BBox): number {
  const lon = Math.min(Math.max(point.lon, box[0]), box[2]);
  const lat = Math.min(Math.max(point.lat, box[1]), box[3]);
  return haversineKm(point, { lat, lon });
}

export function bboxOfPositions(positions: Iterable<number[]>): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of positions) {
    if (lon! < box[0]) box[0] = lon!;
    if (lat! < box[1]) box[1] = lat!;
    if (lon! > box[2]) box[2] = lon!;
    if (lat! > box[3]) box[3] = lat!;
  }
  return box;
}

/**
 * Distance in km from a point to the nearest edge of a polygon's rings (outside or inside it), in
 * a local equirectangular frame centred on the point: exact enough within a few tens of km.
 */
export function distanceToBoundaryKm(point: LatLon, geometry: Polygon | MultiPolygon): number {
  const kx = KM_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180);
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const ax = (ring[i - 1]![0]! - point.lon) * kx;
      const ay = (ring[i - 1]![1]! - point.lat) * KM_PER_DEGREE;
      const dx = (ring[i]![0]! - point.lon) * kx - ax;
      const dy = (ring[i]![1]! - point.lat) * KM_PER_DEGREE - ay;
      const lengthSquared = dx * dx + dy * dy;
      const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / lengthSquared));
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
    }
  }
  return best;
}
