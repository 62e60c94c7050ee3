import type { MultiPolygon, Polygon, Position } from 'geojson';
import booleanClockwise from '@turf/boolean-clockwise';
import booleanIntersects from '@turf/boolean-intersects';
import kinks from '@turf/kinks';
import turfArea from '@turf/area';
import { bboxesIntersect, bboxOfPositions, positionsOnOneLine, type BBox } from './geo';
import { floridaBBox, floridaCountyBoundaries, positionsOf, type CountyBoundary } from './florida-counties';

export const MAX_BOUNDARY_VERTICES = 10_000;
/** Larger than the largest county (Monroe with its waters ~ 10,000 km²); regional studies split by county. */
export const MAX_BOUNDARY_AREA_KM2 = 25_000;
const FIELD = 'boundary_geojson';

export interface ValidBoundary {
  geometry: Polygon | MultiPolygon;
  bbox: BBox;
  area_km2: number;
  vertex_count: number;
  counties: { fips: string; name: string }[];
  warnings: string[];
}

/** Field-level reasons, in the shape of the API's `errors` entries. */
export interface BoundaryError {
  field: string;
  in: 'body';
  message: string;
}

export type BoundaryValidation = { ok: true; boundary: ValidBoundary } | { ok: false; errors: BoundaryError[] };

const fail = (field: string, message: string): BoundaryValidation => ({ ok: false, errors: [{ field, in: 'body', message }] });

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/**
 * Checks a boundary the way GIS users need to hear about it: each failure names the ring and how
 * to fix it. Rings against the RFC 7946 right-hand rule are accepted and rewound (RFC 7946 §3.1.6:
 * parsers should not reject them) with a warning; every other defect is a 400.
 */
export function validateBoundary(geometry: Polygon | MultiPolygon): BoundaryValidation {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const path = (p: number, r: number) => (geometry.type === 'Polygon' ? `${FIELD}.coordinates.${r}` : `${FIELD}.coordinates.${p}.${r}`);
  let vertices = 0;
  for (const [p, rings] of polygons.entries()) {
    if (rings.length === 0) return fail(`${FIELD}.coordinates`, 'A polygon needs at least an exterior ring.');
    for (const [r, ring] of rings.entries()) {
      if (ring.length < 4) return fail(path(p, r), `Ring has ${ring.length} positions; a closed ring needs at least 4 (the last repeating the first).`);
      for (const position of ring) {
        const [lon, lat] = position;
        if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon!) > 180 || Math.abs(lat!) > 90) {
          return fail(path(p, r), `Position [${position.join(', ')}] is not a [longitude, latitude] pair in WGS 84 degrees.`);
        }
      }
      if (!samePosition(ring[0]!, ring[ring.length - 1]!)) {
        return fail(path(p, r), `Ring is not closed: repeat the first position [${ring[0]!.join(', ')}] as the last one.`);
      }
      if (positionsOnOneLine(ring)) return fail(path(p, r), 'Ring encloses no area: its positions repeat one point or lie on one line.');
      vertices += ring.length;
    }
  }
  if (vertices > MAX_BOUNDARY_VERTICES) {
    return fail(`${FIELD}.coordinates`, `The boundary has ${vertices} vertices; at most ${MAX_BOUNDARY_VERTICES} are accepted. Simplify it (e.g. 10 m tolerance) first.`);
  }

  const warnings: string[] = [];
  const rewound = polygons.map((rings, p) => rings.map((ring, r) => {
    const exterior = r === 0;
    if (booleanClockwise(ring) !== exterior) return ring;
    warnings.push(`${path(p, r)}: ${exterior ? 'exterior ring was clockwise' : 'hole was counter-clockwise'}; rewound to the RFC 7946 right-hand rule.`);
    return [...ring].reverse();
  }));
  const normalised: Polygon | MultiPolygon = geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: rewound[0]! }
    : { type: 'MultiPolygon', coordinates: rewound };

  const intersections = kinks(normalised).features;
  if (intersections.length > 0) {
    const at = intersections[0]!.geometry.coordinates.map((c) => Math.round(c * 1e6) / 1e6);
    return fail(`${FIELD}.coordinates`, `The boundary intersects itself at [${at.join(', ')}] (${intersections.length} intersection${intersections.length > 1 ? 's' : ''}); fix the ring so its edges only meet at vertices in order.`);
  }

  const bbox = bboxOfPositions(positionsOf(normalised));
  const counties = floridaCountyBoundaries().filter((c) => bboxesIntersect(c.bbox, bbox) && overlapsCounty(normalised, c));
  if (!bboxesIntersect(bbox, floridaBBox()) || counties.length === 0) {
    return fail(FIELD, `The boundary (bbox ${bbox.map((v) => v.toFixed(4)).join(', ')}) does not overlap any Florida county; send WGS 84 longitude/latitude (EPSG:4326), longitude first.`);
  }

  const areaKm2 = turfArea(normalised) / 1e6;
  if (areaKm2 > MAX_BOUNDARY_AREA_KM2) {
    return fail(FIELD, `The boundary covers ${Math.round(areaKm2)} km²; at most ${MAX_BOUNDARY_AREA_KM2} km² per analysis. Split it by county.`);
  }
  return {
    ok: true,
    boundary: {
      geometry: normalised,
      bbox,
      area_km2: areaKm2,
      vertex_count: vertices,
      counties: counties.map((c) => ({ fips: c.fips, name: c.name })),
      warnings,
    },
  };
}

/** Shared area or crossing edges: a corridor across a county counts even with no vertex inside it. */
function overlapsCounty(geometry: Polygon | MultiPolygon, county: CountyBoundary): boolean {
  return booleanIntersects(geometry, county.geometry);
}
