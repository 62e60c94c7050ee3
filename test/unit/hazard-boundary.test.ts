import type { Polygon } from 'geojson';
import { validateBoundary, MAX_BOUNDARY_VERTICES } from '../../shared/domain/hazards/boundary';
import { countyBoundaryByFips, floridaCountyBoundaries } from '../../shared/domain/hazards/florida-counties';
import { FloodAnalysisBody } from '../../shared/schemas/hazards';

const square = (west: number, south: number, size: number): Polygon => ({
  type: 'Polygon',
  coordinates: [[[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]]],
});
const keyWest = square(-81.81, 24.54, 0.03);

function errorOf(geometry: Polygon) {
  const result = validateBoundary(geometry);
  if (result.ok) throw new Error('expected a validation error');
  return result.errors[0]!;
}

describe('flood analysis boundary', () => {
  it('accepts a small polygon on Key West and names its county', () => {
    const result = validateBoundary(keyWest);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.boundary.counties.map((c) => c.name)).toEqual(['Monroe']);
  });

  it('has the 67 Florida counties of us-atlas and accepts Monroe County', () => {
    expect(floridaCountyBoundaries()).toHaveLength(67);
    expect(validateBoundary(countyBoundaryByFips('12087')!.geometry).ok).toBe(true);
  });

  it('rejects an open ring, saying which position to repeat', () => {
    const open = { ...keyWest, coordinates: [keyWest.coordinates[0]!.slice(0, 4)] };
    const error = errorOf(open);
    expect(error.field).toBe('boundary_geojson.coordinates.0');
    expect(error.message).toMatch(/not closed/);
  });

  it('rejects a ring with fewer than four positions', () => {
    expect(errorOf({ type: 'Polygon', coordinates: [[[-81.8, 24.55], [-81.79, 24.55], [-81.8, 24.55]]] }).message).toMatch(/at least 4/);
  });

  it('rejects a self-intersecting (bow-tie) ring with the crossing point', () => {
    const bowTie: Polygon = { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.78, 24.57], [-81.78, 24.54], [-81.81, 24.57], [-81.81, 24.54]]] };
    const error = errorOf(bowTie);
    expect(error.message).toMatch(/intersects itself at \[-81\.795, 24\.555\]/);
  });

  it('rejects a boundary outside Florida, and lat/lon given in the wrong order', () => {
    expect(errorOf(square(-90.2, 29.9, 0.1)).message).toMatch(/does not overlap any Florida county/);
    expect(errorOf(square(24.54, -81.81, 0.03)).message).toMatch(/not a \[longitude, latitude\] pair|does not overlap/);
  });

  it('accepts 10,000 vertices and refuses 10,001', () => {
    // A circle of `positions` positions, the last repeating the first: each one a vertex of the count.
    const circle = (positions: number): Polygon => {
      const ring = Array.from({ length: positions - 1 }, (_, i) => {
        const a = (2 * Math.PI * i) / (positions - 1);
        return [-80.35 + 0.02 * Math.cos(a), 25.8 + 0.02 * Math.sin(a)];
      });
      return { type: 'Polygon', coordinates: [[...ring, ring[0]!]] };
    };
    const atLimit = validateBoundary(circle(10_000));
    expect(atLimit.ok && atLimit.boundary.vertex_count).toBe(10_000);
    expect(errorOf(circle(10_001)).message).toMatch(/The boundary has 10001 vertices; at most 10000 are accepted/);
  });

  it('rejects too many vertices and too large an area', () => {
    const ring = Array.from({ length: MAX_BOUNDARY_VERTICES + 10 }, (_, i) => {
      const a = (2 * Math.PI * i) / (MAX_BOUNDARY_VERTICES + 10);
      return [-81.5 + 0.1 * Math.cos(a), 25.5 + 0.1 * Math.sin(a)];
    });
    ring.push(ring[0]!);
    expect(errorOf({ type: 'Polygon', coordinates: [ring] }).message).toMatch(/at most 10000 are accepted/);
    expect(errorOf(square(-84, 27, 2)).message).toMatch(/at most 25000 km²/);
  });

  it('accepts a clockwise exterior ring, rewinds it and warns', () => {
    const clockwise: Polygon = { type: 'Polygon', coordinates: [[...keyWest.coordinates[0]!].reverse()] };
    const result = validateBoundary(clockwise);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.boundary.warnings[0]).toMatch(/clockwise; rewound/);
    expect(result.boundary.geometry.coordinates[0]).toEqual(keyWest.coordinates[0]);
  });

  it('rejects a wrong geometry type at the schema, naming boundary_geojson', () => {
    const parsed = FloodAnalysisBody().safeParse({ boundary_geojson: { type: 'Point', coordinates: [-81.8, 24.55] } });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    expect(issue.path).toEqual(['boundary_geojson', 'type']);
    expect(issue.message).toMatch(/Polygon or MultiPolygon/);
  });

  it('reads a legacy crs member: WGS 84 passes under any of its names, another system is refused by name', () => {
    const body = (name: string) => ({ boundary_geojson: { ...keyWest, crs: { type: 'name', properties: { name } } }, components: ['tidal'], scenarios: ['intermediate'], planning_horizons: [2050] });
    for (const name of ['urn:ogc:def:crs:OGC:1.3:CRS84', 'EPSG:4326', 'urn:ogc:def:crs:EPSG::4326']) {
      expect(FloodAnalysisBody().safeParse(body(name)).success).toBe(true);
    }
    for (const name of ['urn:ogc:def:crs:EPSG::2236', 'EPSG:3087', 'NAD83 / Florida East (ftUS)']) {
      const parsed = FloodAnalysisBody().safeParse(body(name));
      expect(parsed.success).toBe(false);
      const issue = parsed.error!.issues[0]!;
      expect(issue.path).toEqual(['boundary_geojson', 'crs']);
      expect(issue.message).toBe(`The boundary states the coordinate system "${name}"; send it in WGS 84 longitude/latitude (EPSG:4326 or CRS84, as RFC 7946 requires): reproject it first.`);
    }
  });
});
