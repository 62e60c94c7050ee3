import type { MultiPolygon, Polygon, Position } from 'geojson';
import booleanIntersects from '@turf/boolean-intersects';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { floridaCountyBoundaries } from '../../shared/domain/hazards/florida-counties';

/** Each limit and each branch of boundary validation at its edge. */
const ring = (west: number, south: number, size: number): Position[] => [[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]];
const polygon = (...rings: Position[][]): Polygon => ({ type: 'Polygon', coordinates: rings });
const keyWest = ring(-81.81, 24.54, 0.03);

function errorOf(geometry: Polygon | MultiPolygon) {
  const result = validateBoundary(geometry);
  if (result.ok) throw new Error('expected a validation error');
  expect(result.errors).toHaveLength(1);
  return result.errors[0]!;
}
function boundaryOf(geometry: Polygon | MultiPolygon) {
  const result = validateBoundary(geometry);
  if (!result.ok) throw new Error(result.errors[0]!.message);
  return result.boundary;
}
const notAPair = /is not a \[longitude, latitude\] pair in WGS 84 degrees/;

describe('positions', () => {
  it.each([
    ['a longitude past 180', [181, 24.55]],
    ['a longitude past -180', [-180.5, 24.55]],
    ['a latitude past 90', [-81.8, 90.5]],
    ['a latitude past -90', [-81.8, -91]],
    ['a NaN longitude', [Number.NaN, 24.55]],
    ['an infinite latitude', [-81.8, Number.POSITIVE_INFINITY]],
  ])('refuses %s in the ring it names', (_label, position) => {
    const bad = [keyWest[0]!, position as Position, ...keyWest.slice(2)];
    const error = errorOf(polygon(bad));
    expect(error).toMatchObject({ field: 'boundary_geojson.coordinates.0', in: 'body' });
    expect(error.message).toMatch(notAPair);
  });

  it('takes 180° and 90° as degrees (then finds no Florida county there)', () => {
    expect(errorOf(polygon([[179, 89], [180, 89], [180, 90], [179, 90], [179, 89]])).message).toMatch(/does not overlap any Florida county/);
  });

  it('names the polygon and ring of a MultiPolygon, and a hole of a Polygon', () => {
    const open = ring(-81.75, 24.55, 0.01).slice(0, 4);
    expect(errorOf({ type: 'MultiPolygon', coordinates: [[keyWest], [open]] }).field).toBe('boundary_geojson.coordinates.1.0');
    expect(errorOf(polygon(keyWest, [[-81.8, 24.55], [-81.79, 24.55], [-81.8, 24.55]])).field).toBe('boundary_geojson.coordinates.1');
  });

  it('refuses a polygon without rings', () => {
    expect(errorOf({ type: 'MultiPolygon', coordinates: [[keyWest], []] })).toMatchObject({ field: 'boundary_geojson.coordinates', message: 'A polygon needs at least an exterior ring.' });
  });

  it('a ring is closed only when the last position repeats both coordinates of the first', () => {
    const lastLatDiffers = [...keyWest.slice(0, 4), [keyWest[0]![0]!, keyWest[0]![1]! + 0.001]];
    expect(errorOf(polygon(lastLatDiffers)).message).toMatch(/^Ring is not closed: repeat the first position \[-81\.81, 24\.54\] as the last one\.$/);
    const lastLonDiffers = [...keyWest.slice(0, 4), [keyWest[0]![0]! + 0.001, keyWest[0]![1]!]];
    expect(errorOf(polygon(lastLonDiffers)).message).toMatch(/not closed/);
  });
});

describe('winding', () => {
  const hole = ring(-81.8, 24.55, 0.01);

  it('keeps a counter-clockwise exterior and a clockwise hole as they are, without a warning', () => {
    const boundary = boundaryOf(polygon(keyWest, [...hole].reverse()));
    expect(boundary.warnings).toEqual([]);
    expect(boundary.geometry.coordinates).toEqual([keyWest, [...hole].reverse()]);
  });

  it('rewinds a counter-clockwise hole and says so', () => {
    const boundary = boundaryOf(polygon(keyWest, hole));
    expect(boundary.warnings).toEqual(['boundary_geojson.coordinates.1: hole was counter-clockwise; rewound to the RFC 7946 right-hand rule.']);
    expect(boundary.geometry.coordinates[1]).toEqual([...hole].reverse());
  });

  it('keeps a MultiPolygon a MultiPolygon, every part rewound on its own', () => {
    const second = ring(-81.75, 24.56, 0.01);
    const boundary = boundaryOf({ type: 'MultiPolygon', coordinates: [[keyWest], [[...second].reverse()]] });
    expect(boundary.geometry).toEqual({ type: 'MultiPolygon', coordinates: [[keyWest], [second]] });
    expect(boundary.warnings).toEqual(['boundary_geojson.coordinates.1.0: exterior ring was clockwise; rewound to the RFC 7946 right-hand rule.']);
    expect(boundary.vertex_count).toBe(10);
  });
});

describe('self-intersection', () => {
  it('counts the crossings, in the singular for one', () => {
    const bowTie = polygon([[-81.81, 24.54], [-81.78, 24.57], [-81.78, 24.54], [-81.81, 24.57], [-81.81, 24.54]]);
    expect(errorOf(bowTie).message).toMatch(/ \(1 intersection\); fix the ring/);
    // A ring crossing itself twice (a figure eight with three lobes).
    const twice = polygon([[-81.81, 24.54], [-81.78, 24.57], [-81.78, 24.54], [-81.81, 24.57], [-81.84, 24.54], [-81.84, 24.57], [-81.81, 24.54]]);
    expect(errorOf(twice).message).toMatch(/ \([2-9] intersections\); fix the ring/);
  });
});

describe('area', () => {
  const noArea = /^Ring encloses no area: its positions repeat one point or lie on one line\.$/;

  it('refuses a ring that repeats one point', () => {
    const point = [-81.8, 24.55];
    expect(errorOf(polygon([point, point, point, point]))).toMatchObject({ field: 'boundary_geojson.coordinates.0', message: expect.stringMatching(noArea) });
  });

  it('refuses a ring whose positions lie on one line, and names the ring (a hole of the second polygon)', () => {
    const line = [[-81.8, 24.55], [-81.79, 24.56], [-81.78, 24.57], [-81.8, 24.55]];
    expect(errorOf(polygon(line)).message).toMatch(noArea);
    const multi: MultiPolygon = { type: 'MultiPolygon', coordinates: [[keyWest], [ring(-81.75, 24.55, 0.01), [[-81.745, 24.555], [-81.744, 24.555], [-81.743, 24.555], [-81.745, 24.555]]]] };
    expect(errorOf(multi)).toMatchObject({ field: 'boundary_geojson.coordinates.1.1', message: expect.stringMatching(noArea) });
  });

  it('keeps a small real ring (about 1 m across) and tells a bow tie, whose halves cancel out, as a crossing', () => {
    expect(boundaryOf(polygon(ring(-81.8, 24.55, 0.00001))).area_km2).toBeGreaterThan(0);
    const bowTie = polygon([[-81.81, 24.54], [-81.78, 24.57], [-81.78, 24.54], [-81.81, 24.57], [-81.81, 24.54]]);
    expect(errorOf(bowTie).message).toMatch(/intersects itself/);
  });
});

describe('counties', () => {
  it('names only the counties the boundary overlaps, not those whose box merely contains it', () => {
    // Hillsborough's Oldsmar shore lies inside Pinellas County's bounding box.
    const shore = polygon(ring(-82.6, 28.0, 0.02));
    const overlapping = floridaCountyBoundaries().filter((c) => booleanIntersects(shore, c.geometry)).map((c) => c.name);
    const boxOnly = floridaCountyBoundaries().filter((c) => c.bbox[0] <= -82.58 && c.bbox[2] >= -82.6 && c.bbox[1] <= 28.02 && c.bbox[3] >= 28.0 && !overlapping.includes(c.name));
    expect(boxOnly.map((c) => c.name)).toEqual(['Pinellas']);
    expect(boundaryOf(shore).counties.map((c) => c.name)).toEqual(overlapping);
  });

  it('refuses open Gulf water inside Florida\'s box, printing the boundary\'s own box', () => {
    expect(errorOf(polygon(ring(-84.5, 27, 0.1))).message).toBe('The boundary (bbox -84.5000, 27.0000, -84.4000, 27.1000) does not overlap any Florida county; send WGS 84 longitude/latitude (EPSG:4326), longitude first.');
  });
});
