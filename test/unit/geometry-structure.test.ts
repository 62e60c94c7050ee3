import type { Geometry, Position } from 'geojson';
import {
  forEachPosition, MAX_KINK_CHECK_VERTICES, MAX_STORED_VERTICES, representativePoint, reprojectGeometry, selfIntersection, storedGeometry, structuralProblems, toWkt, vertexCount,
} from '../../shared/domain/assets/geometry';

/** RFC 7946 §3.1 structure, self-crossing, storage caps and the stored point, on geometries built here. */
const EMPTY_HINT = 'Give every feature a location, or remove it from the layer.';
const REPAIR_HINT = 'Repair the geometry in your GIS (e.g. "Repair Geometry" in ArcGIS Pro, "Fix geometries" in QGIS) and export again.';
const invalid = (message: string) => ({ code: 'invalid_geometry', message, hint: REPAIR_HINT });
const SQUARE: Position[] = [[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]];

describe('structural problems', () => {
  it.each([
    ['null', null, [{ code: 'empty_geometry', message: 'The feature has no geometry.', hint: EMPTY_HINT }]],
    ['undefined', undefined, [{ code: 'empty_geometry', message: 'The feature has no geometry.', hint: EMPTY_HINT }]],
    ['an unknown type', { type: 'Circle', coordinates: [0, 0] }, [invalid('Unknown geometry type "Circle".')]],
    ['a type that is not text', { type: 5 }, [invalid('Unknown geometry type 5.')]],
    ['no type', { coordinates: [0, 0] }, [invalid('Unknown geometry type undefined.')]],
    ['a Feature instead of a geometry', { type: 'Feature', geometry: null }, [invalid('Unknown geometry type "Feature".')]],
    ['a collection without geometries', { type: 'GeometryCollection' }, [invalid('GeometryCollection without a "geometries" array.')]],
    ['an empty collection', { type: 'GeometryCollection', geometries: [] }, [{ code: 'empty_geometry', message: 'Empty GeometryCollection.', hint: EMPTY_HINT }]],
    ['no coordinates', { type: 'Point' }, [invalid('Point without a "coordinates" array.')]],
    ['coordinates that are not an array', { type: 'Polygon', coordinates: 'none' }, [invalid('Polygon without a "coordinates" array.')]],
    ['empty coordinates', { type: 'MultiPolygon', coordinates: [] }, [{ code: 'empty_geometry', message: 'Empty MultiPolygon.', hint: EMPTY_HINT }]],
    ['a one-number position', { type: 'Point', coordinates: [1] }, [invalid('Point has a position that is not [longitude, latitude] numbers.')]],
    ['a four-number position', { type: 'Point', coordinates: [1, 2, 3, 4] }, [invalid('Point has a position that is not [longitude, latitude] numbers.')]],
    ['a text coordinate', { type: 'MultiPoint', coordinates: [[1, '2']] }, [invalid('MultiPoint has a position that is not [longitude, latitude] numbers.')]],
    ['a NaN coordinate', { type: 'LineString', coordinates: [[0, 0], [1, Number.NaN]] }, [invalid('LineString has a position that is not [longitude, latitude] numbers.')]],
    ['an infinite coordinate', { type: 'LineString', coordinates: [[0, 0], [Number.POSITIVE_INFINITY, 1]] }, [invalid('LineString has a position that is not [longitude, latitude] numbers.')]],
    ['a flat position where a line is due', { type: 'LineString', coordinates: [1, 2] }, [invalid('LineString has a position that is not [longitude, latitude] numbers.')]],
    ['a number where a ring is due', { type: 'Polygon', coordinates: [5] }, [invalid('Polygon coordinates are not nested arrays.')]],
    ['a line of one position', { type: 'LineString', coordinates: [[0, 0]] }, [invalid('A line has fewer than two positions.')]],
    ['a ring of three positions', { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [0, 0]]] }, [invalid('A polygon ring has fewer than four positions.')]],
    ['a ring whose last longitude differs', { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [0.5, 0]]] }, [{ code: 'unclosed_ring', message: 'A polygon ring does not end where it starts.', hint: 'Close each ring: its last position must repeat the first.' }]],
    ['a ring whose last latitude differs', { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [0, 0.5]]] }, [{ code: 'unclosed_ring', message: 'A polygon ring does not end where it starts.', hint: 'Close each ring: its last position must repeat the first.' }]],
    ['a line repeating one point', { type: 'LineString', coordinates: [[-81.8, 24.55], [-81.8, 24.55], [-81.8, 24.55]] }, [invalid('A line has no length: its positions repeat one point.')]],
    ['a ring repeating one point', { type: 'Polygon', coordinates: [[[-81.8, 24.55], [-81.8, 24.55], [-81.8, 24.55], [-81.8, 24.55]]] }, [invalid('A polygon ring encloses no area: its positions repeat one point or lie on one line.')]],
    ['a ring on one line', { type: 'Polygon', coordinates: [[[-81.8, 24.55], [-81.79, 24.56], [-81.77, 24.58], [-81.8, 24.55]]] }, [invalid('A polygon ring encloses no area: its positions repeat one point or lie on one line.')]],
    ['a hole on one line (State Plane feet)', { type: 'Polygon', coordinates: [SQUARE.map(([x, y]) => [x! * 1000 + 800_000, y! * 1000 + 500_000]), [[800_100, 500_100], [800_200, 500_200], [800_300, 500_300], [800_100, 500_100]]] }, [invalid('A polygon ring encloses no area: its positions repeat one point or lie on one line.')]],
  ])('%s', (_what, geometry, problems) => {
    expect(structuralProblems(geometry)).toEqual(problems);
  });

  it.each([
    ['a 2D point', { type: 'Point', coordinates: [-81.8, 24.55] }],
    ['a 3D point', { type: 'Point', coordinates: [-81.8, 24.55, 1.2] }],
    ['a line of two positions', { type: 'LineString', coordinates: [[0, 0], [1, 1]] }],
    ['a line that returns to its start', { type: 'LineString', coordinates: [[-81.8, 24.55], [-81.79, 24.55], [-81.8, 24.55]] }],
    ['a line along one meridian', { type: 'LineString', coordinates: [[-81.8, 24.55], [-81.8, 24.56]] }],
    ['a line along one parallel', { type: 'LineString', coordinates: [[-81.8, 24.55], [-81.79, 24.55]] }],
    ['a bow tie (its halves cancel out in a signed area; a crossing, told apart)', { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.78, 24.57], [-81.78, 24.54], [-81.81, 24.57], [-81.81, 24.54]]] }],
    ['a thin sliver, 1 cm wide over 100 m', { type: 'Polygon', coordinates: [[[-81.8, 24.55], [-81.799, 24.55], [-81.799, 24.5500001], [-81.8, 24.55]]] }],
    ['a closed ring of four positions', { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [0, 0]]] }],
    ['a multipolygon with a hole', { type: 'MultiPolygon', coordinates: [[SQUARE, [[0.2, 0.2], [0.4, 0.2], [0.4, 0.4], [0.2, 0.2]]]] }],
    ['a collection of valid parts', { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [0, 0] }, { type: 'LineString', coordinates: [[0, 0], [1, 1]] }] }],
  ])('%s has no problem', (_what, geometry) => {
    expect(structuralProblems(geometry)).toEqual([]);
  });

  it('lists every bad line and ring of a multi-part geometry, and every bad part of a collection', () => {
    expect(structuralProblems({ type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[0, 0]], [[2, 2]]] })).toEqual([invalid('A line has fewer than two positions.'), invalid('A line has fewer than two positions.')]);
    expect(structuralProblems({ type: 'MultiPolygon', coordinates: [[SQUARE], [[[0, 0], [0, 1], [0, 0]]], [[[0, 0], [0, 1], [1, 1], [1, 0]]]] }).map((p) => p.code)).toEqual(['invalid_geometry', 'unclosed_ring']);
    expect(structuralProblems({ type: 'GeometryCollection', geometries: [null, { type: 'Point', coordinates: [0, 0] }, { type: 'LineString', coordinates: [[0, 0]] }] }).map((p) => p.message))
      .toEqual(['The feature has no geometry.', 'A line has fewer than two positions.']);
  });
});

describe('self-intersection', () => {
  const zigzag = (n: number): Geometry => ({ type: 'LineString', coordinates: Array.from({ length: n }, (_, i) => [-81 + i * 1e-4, 25 + (i % 2) * 1e-4]) });

  it('finds where a bow-tie ring crosses itself', () => {
    const found = selfIntersection({ type: 'Polygon', coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] });
    expect(found).not.toBe('skipped');
    expect((found as { at: Position }).at.map((n) => Number(n.toFixed(9)))).toEqual([0.5, 0.5]);
  });

  it('a simple ring, points and multipoints do not cross', () => {
    expect(selfIntersection({ type: 'Polygon', coordinates: [SQUARE] })).toBeUndefined();
    expect(selfIntersection({ type: 'MultiPoint', coordinates: [[0, 0], [0, 0]] })).toBeUndefined();
    expect(selfIntersection({ type: 'Point', coordinates: [0, 0] })).toBeUndefined();
  });

  it(`tests up to ${MAX_KINK_CHECK_VERTICES} vertices and skips more`, () => {
    expect(selfIntersection(zigzag(MAX_KINK_CHECK_VERTICES))).toBeUndefined();
    expect(selfIntersection(zigzag(MAX_KINK_CHECK_VERTICES + 1))).toBe('skipped');
    expect(MAX_KINK_CHECK_VERTICES).toBe(5000);
  });
});

describe('positions', () => {
  const collection: Geometry = {
    type: 'GeometryCollection',
    geometries: [
      { type: 'Point', coordinates: [1, 2] },
      { type: 'MultiPoint', coordinates: [[3, 4], [5, 6]] },
      { type: 'LineString', coordinates: [[7, 8], [9, 10]] },
      { type: 'MultiLineString', coordinates: [[[11, 12], [13, 14]], [[15, 16], [17, 18]]] },
      { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [0, 0]]] },
      { type: 'MultiPolygon', coordinates: [[[[2, 2], [2, 3], [3, 3], [2, 2]]], [[[4, 4], [4, 5], [5, 5], [4, 4]]]] },
    ],
  };

  it('visits every position of every type, in order', () => {
    const seen: Position[] = [];
    forEachPosition(collection, (p) => seen.push(p));
    expect(seen).toHaveLength(1 + 2 + 2 + 4 + 4 + 8);
    expect(seen.slice(0, 9)).toEqual([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14], [15, 16], [17, 18]]);
    expect(vertexCount(collection)).toBe(21);
  });

  it('reprojects every position of every type and keeps the structure', () => {
    const shifted = reprojectGeometry(collection, (x, y) => [x + 100, y * -1]);
    const expected = JSON.parse(JSON.stringify(collection), (_key, value) => (Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === 'number') ? [value[0] + 100, -value[1]] : value)) as Geometry;
    expect(shifted).toEqual(expected);
  });
});

/** Elevations whose JSON text is 1 to 19 characters long, to make a geometry's JSON any length. */
const zOfLength = (n: number): number => (n <= 16 ? Number('1'.repeat(n)) : n === 17 ? -Number('1'.repeat(16)) : n === 18 ? 0.1111111111111111 : -0.1111111111111111);

/** A LineString under the vertex cap whose JSON is exactly `length` characters. */
function lineOfJsonLength(length: number): Geometry {
  const vertex = (z: number): Position => [-81.12345678901234, 24.123456789012344, z];
  // A vertex's text with its comma: from `shortest` to `shortest + 18` characters as z grows.
  const shortest = JSON.stringify(vertex(zOfLength(1))).length + 1;
  const longest = JSON.stringify(vertex(zOfLength(19))).length + 1;
  const room = length - JSON.stringify({ type: 'LineString', coordinates: [] }).length + 1; // no comma before the first
  // As few vertices as fit, sharing the room as evenly as whole characters allow.
  const count = Math.ceil(room / longest);
  const coordinates = Array.from({ length: count }, (_, i) => {
    const size = Math.floor(room / count) + (i < room % count ? 1 : 0);
    return vertex(zOfLength(size - shortest + 1));
  });
  const geometry: Geometry = { type: 'LineString', coordinates };
  expect(JSON.stringify(geometry).length).toBe(length);
  expect(coordinates.length).toBeLessThanOrEqual(MAX_STORED_VERTICES);
  return geometry;
}

describe('what an asset stores', () => {
  const line = (n: number, position: (i: number) => Position = (i) => [-81 + i * 1e-5, 25]): Geometry => ({ type: 'LineString', coordinates: Array.from({ length: n }, (_, i) => position(i)) });

  it('a point stores no geometry of its own; a line or area stores itself', () => {
    expect(storedGeometry({ type: 'Point', coordinates: [0, 0] })).toBeNull();
    const area: Geometry = { type: 'Polygon', coordinates: [SQUARE] };
    expect(storedGeometry(area)).toBe(area);
  });

  it(`stores up to ${MAX_STORED_VERTICES} vertices and refuses more`, () => {
    expect(storedGeometry(line(MAX_STORED_VERTICES))).not.toBe('too_large');
    expect(storedGeometry(line(MAX_STORED_VERTICES + 1))).toBe('too_large');
  });

  it('refuses a geometry past 250,000 bytes of JSON even under the vertex cap', () => {
    // About 60 characters a vertex: 4,500 vertices are some 270,000 bytes.
    const long = line(4_500, (i) => [-81.123456789012345 + i * 1e-9, 24.123456789012345, 1234.5678901234567]);
    expect(JSON.stringify(long).length).toBeGreaterThan(250_000);
    expect(storedGeometry(long)).toBe('too_large');
    const short = line(4_000, (i) => [-81.123456789012345 + i * 1e-9, 24.123456789012345, 1234.5678901234567]);
    expect(JSON.stringify(short).length).toBeLessThan(250_000);
    expect(storedGeometry(short)).toBe(short);
  });

  it('refuses a geometry one byte past 250,000 bytes of JSON, not at exactly 250,000', () => {
    expect(storedGeometry(lineOfJsonLength(250_000))).not.toBe('too_large');
    expect(storedGeometry(lineOfJsonLength(250_001))).toBe('too_large');
  });

  it('the stored point lies on the asset: a point is itself, a U-shaped area\'s point is inside the U, not in its gap', () => {
    expect(representativePoint({ type: 'Point', coordinates: [-81.8, 24.55] })).toEqual([-81.8, 24.55]);
    const u: Geometry = { type: 'Polygon', coordinates: [[[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3], [0, 0]]] };
    const [x, y] = representativePoint(u)!;
    const inGap = x > 1 && x < 2 && y > 1;
    const inShape = x >= 0 && x <= 3 && y >= 0 && y <= 3 && !inGap;
    expect(inShape).toBe(true);
  });

  it('a geometry without positions has no stored point', () => {
    expect(representativePoint({ type: 'MultiPoint', coordinates: [] })).toBeUndefined();
    expect(representativePoint({ type: 'GeometryCollection', geometries: [] })).toBeUndefined();
  });
});

describe('Well-Known Text of each geometry type', () => {
  it.each<[string, Geometry, string]>([
    ['Point', { type: 'Point', coordinates: [-81.5, 24.5] }, 'POINT (-81.5 24.5)'],
    ['MultiPoint', { type: 'MultiPoint', coordinates: [[-81.5, 24.5], [-81.4, 24.6]] }, 'MULTIPOINT (-81.5 24.5, -81.4 24.6)'],
    ['LineString', { type: 'LineString', coordinates: [[0, 0, 5], [1, 1, 6]] }, 'LINESTRING (0 0, 1 1)'],
    ['MultiLineString', { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[2, 2], [3, 3]]] }, 'MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))'],
    ['Polygon', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, 'POLYGON ((0 0, 1 0, 1 1, 0 0))'],
    ['MultiPolygon', { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]]]] }, 'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))'],
    ['GeometryCollection', { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }, { type: 'LineString', coordinates: [[0, 0], [1, 1]] }] }, 'GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))'],
  ])('%s', (_type, geometry, wkt) => {
    // The third coordinate, if any, is left out: the table exports are two-dimensional.
    expect(toWkt(geometry)).toBe(wkt);
  });
});
