import kinks from '@turf/kinks';
import pointOnFeature from '@turf/point-on-feature';
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import type { Reprojector } from './crs';
import { positionsOnOneLine } from '../hazards/geo';

/** Geometry checks shared by the importer and the GIS validator (RFC 7946 structure, simplicity). */

export interface GeometryProblem {
  code: 'empty_geometry' | 'invalid_geometry' | 'unclosed_ring' | 'self_intersection';
  message: string;
  hint: string;
}

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

/** Above this many vertices the O(n²) self-intersection test is skipped (and reported as skipped). */
export const MAX_KINK_CHECK_VERTICES = 5000;

function isPosition(value: unknown): value is Position {
  return Array.isArray(value) && value.length >= 2 && value.length <= 3 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
}

const invalid = (message: string): GeometryProblem => ({
  code: 'invalid_geometry',
  message,
  hint: 'Repair the geometry in your GIS (e.g. "Repair Geometry" in ArcGIS Pro, "Fix geometries" in QGIS) and export again.',
});

function checkPositions(value: unknown, depth: number, type: string): GeometryProblem | undefined {
  if (depth === 0) return isPosition(value) ? undefined : invalid(`${type} has a position that is not [longitude, latitude] numbers.`);
  if (!Array.isArray(value)) return invalid(`${type} coordinates are not nested arrays.`);
  for (const item of value) {
    const problem = checkPositions(item, depth - 1, type);
    if (problem) return problem;
  }
  return undefined;
}

const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

/**
 * Structural validity of a GeoJSON geometry object (RFC 7946 §3.1): known type, positions of two or
 * three finite numbers, lines of two or more positions that are not all one point, closed rings of
 * four or more that enclose some area. `null` and empty coordinate arrays are `empty_geometry`.
 */
export function structuralProblems(geometry: unknown): GeometryProblem[] {
  if (geometry === null || geometry === undefined) {
    return [{ code: 'empty_geometry', message: 'The feature has no geometry.', hint: 'Give every feature a location, or remove it from the layer.' }];
  }
  const g = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (typeof g.type !== 'string' || !GEOMETRY_TYPES.has(g.type)) return [invalid(`Unknown geometry type ${JSON.stringify(g.type)}.`)];
  if (g.type === 'GeometryCollection') {
    if (!Array.isArray(g.geometries)) return [invalid('GeometryCollection without a "geometries" array.')];
    if (g.geometries.length === 0) return [{ code: 'empty_geometry', message: 'Empty GeometryCollection.', hint: 'Give every feature a location, or remove it from the layer.' }];
    return g.geometries.flatMap((inner) => structuralProblems(inner));
  }
  if (!Array.isArray(g.coordinates)) return [invalid(`${g.type} without a "coordinates" array.`)];
  if (g.coordinates.length === 0) {
    return [{ code: 'empty_geometry', message: `Empty ${g.type}.`, hint: 'Give every feature a location, or remove it from the layer.' }];
  }
  const positional = checkPositions(g.coordinates, DEPTH[g.type]!, g.type);
  if (positional) return [positional];
  const problems: GeometryProblem[] = [];
  const lines = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : [];
  for (const line of lines as Position[][]) {
    if (line.length < 2) problems.push(invalid('A line has fewer than two positions.'));
    else if (line.every(([x, y]) => x === line[0]![0] && y === line[0]![1])) problems.push(invalid('A line has no length: its positions repeat one point.'));
  }
  const rings = g.type === 'Polygon' ? g.coordinates : g.type === 'MultiPolygon' ? (g.coordinates as Position[][][]).flat() : [];
  for (const ring of rings as Position[][]) {
    if (ring.length < 4) {
      problems.push(invalid('A polygon ring has fewer than four positions.'));
    } else {
      const first = ring[0]!;
      const last = ring[ring.length - 1]!;
      if (first[0] !== last[0] || first[1] !== last[1]) {
        problems.push({ code: 'unclosed_ring', message: 'A polygon ring does not end where it starts.', hint: 'Close each ring: its last position must repeat the first.' });
      } else if (positionsOnOneLine(ring)) {
        problems.push(invalid('A polygon ring encloses no area: its positions repeat one point or lie on one line.'));
      }
    }
  }
  return problems;
}

export function vertexCount(geometry: Geometry): number {
  let count = 0;
  forEachPosition(geometry, () => count++);
  return count;
}

/**
 * Self-intersections of lines and polygon rings (via @turf/kinks). Returns the first crossing
 * point, or `skipped` for geometries too large to test here.
 */
export function selfIntersection(geometry: Geometry): { at: Position } | 'skipped' | undefined {
  if (!['LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'].includes(geometry.type)) return undefined;
  if (vertexCount(geometry) > MAX_KINK_CHECK_VERTICES) return 'skipped';
  const found = kinks({ type: 'Feature', properties: {}, geometry: geometry as never });
  const first = found.features[0];
  return first ? { at: first.geometry.coordinates } : undefined;
}

/** Polygons are held to simplicity (a crossing is an error); lines only warned about. */
export function isPolygonal(geometry: Geometry): geometry is Polygon | MultiPolygon {
  return geometry.type === 'Polygon' || geometry.type === 'MultiPolygon';
}

export const POLYGON_REPAIR_HINT = 'Repair the polygon (ArcGIS "Repair Geometry", QGIS "Fix geometries"); a bow-tie ring must be split or its vertices reordered.';

/** "The Polygon crosses itself near (x, y)", the position to the micro-unit. */
export function crossingMessage(type: Geometry['type'], at: Position): string {
  return `The ${type} crosses itself near (${at.map((n) => Number(n.toFixed(6))).join(', ')})`;
}

export function forEachPosition(geometry: Geometry, visit: (position: Position) => void): void {
  switch (geometry.type) {
    case 'Point': visit(geometry.coordinates); break;
    case 'MultiPoint': case 'LineString': geometry.coordinates.forEach(visit); break;
    case 'MultiLineString': case 'Polygon': geometry.coordinates.forEach((line) => line.forEach(visit)); break;
    case 'MultiPolygon': geometry.coordinates.forEach((polygon) => polygon.forEach((ring) => ring.forEach(visit))); break;
    case 'GeometryCollection': geometry.geometries.forEach((inner) => forEachPosition(inner, visit)); break;
  }
}

/** The same geometry with every position passed through `project` (to WGS84). */
export function reprojectGeometry(geometry: Geometry, project: Reprojector): Geometry {
  const map = (p: Position): Position => project(p[0]!, p[1]!);
  switch (geometry.type) {
    case 'Point': return { type: 'Point', coordinates: map(geometry.coordinates) };
    case 'MultiPoint': return { type: 'MultiPoint', coordinates: geometry.coordinates.map(map) };
    case 'LineString': return { type: 'LineString', coordinates: geometry.coordinates.map(map) };
    case 'MultiLineString': return { type: 'MultiLineString', coordinates: geometry.coordinates.map((l) => l.map(map)) };
    case 'Polygon': return { type: 'Polygon', coordinates: geometry.coordinates.map((r) => r.map(map)) };
    case 'MultiPolygon': return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map((r) => r.map(map))) };
    case 'GeometryCollection': return { type: 'GeometryCollection', geometries: geometry.geometries.map((g) => reprojectGeometry(g, project)) };
  }
}

/**
 * The point an asset is stored at: a point on the asset itself (Turf point-on-feature: the centre
 * of its extent when that lies on the shape, else its nearest vertex), so a concave or multi-part
 * area is never placed outside itself. The original geometry type is kept with the asset.
 */
export function representativePoint(geometry: Geometry): [number, number] | undefined {
  let positions = 0;
  forEachPosition(geometry, () => { positions += 1; });
  if (positions === 0) return undefined;
  const [lon, lat] = pointOnFeature(geometry).geometry.coordinates;
  return [lon!, lat!];
}

/**
 * Lines and areas are stored whole beside their representative point. Beyond this many vertices an
 * asset is refused (`geometry_too_large`): with its attributes it must fit one DynamoDB item (400 KB),
 * and an asset outline finer than this belongs simplified (a parcel or a plant needs far fewer).
 */
export const MAX_STORED_VERTICES = 5000;
/** The geometry as JSON text; about 40 bytes a vertex at full precision, so the vertex cap meets it first. */
export const MAX_STORED_GEOMETRY_BYTES = 250_000;

/**
 * What an asset keeps of its geometry: null for a point (its lon/lat say it all), else the whole
 * geometry; `too_large` past the caps above.
 */
export function storedGeometry(geometry: Geometry): Geometry | null | 'too_large' {
  if (geometry.type === 'Point') return null;
  if (vertexCount(geometry) > MAX_STORED_VERTICES) return 'too_large';
  if (JSON.stringify(geometry).length > MAX_STORED_GEOMETRY_BYTES) return 'too_large';
  return geometry;
}

function wktPositions(positions: Position[]): string {
  return `(${positions.map((p) => `${p[0]} ${p[1]}`).join(', ')})`;
}

/** OGC Well-Known Text of a GeoJSON geometry (two dimensions, as the table exports carry it). */
export function toWkt(geometry: Geometry): string {
  switch (geometry.type) {
    case 'Point': return `POINT (${geometry.coordinates[0]} ${geometry.coordinates[1]})`;
    case 'MultiPoint': return `MULTIPOINT ${wktPositions(geometry.coordinates)}`;
    case 'LineString': return `LINESTRING ${wktPositions(geometry.coordinates)}`;
    case 'MultiLineString': return `MULTILINESTRING (${geometry.coordinates.map(wktPositions).join(', ')})`;
    case 'Polygon': return `POLYGON (${geometry.coordinates.map(wktPositions).join(', ')})`;
    case 'MultiPolygon': return `MULTIPOLYGON (${geometry.coordinates.map((p) => `(${p.map(wktPositions).join(', ')})`).join(', ')})`;
    case 'GeometryCollection': return `GEOMETRYCOLLECTION (${geometry.geometries.map(toWkt).join(', ')})`;
  }
}
