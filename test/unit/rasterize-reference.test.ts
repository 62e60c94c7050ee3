import type { MultiPolygon, Polygon, Position } from 'geojson';
import { forEachCellInPolygon, rasterizePolygon } from '../../shared/domain/hazards/rasterize';

/**
 * The cells a polygon covers, against a reference written here: a cell is inside when a ray from its
 * centre crosses the polygon's rings an odd number of times (holes excluded). Vertices sit off the
 * cell centres so no centre lies on an edge.
 */
// Cells wider than tall and neither a degree, so a scale applied the wrong way shows.
const grid = { width: 30, height: 20, west: 10, north: 50, cellLon: 0.5, cellLat: 0.25 };

function crossesOdd(rings: Position[][], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0; i < ring.length - 1; i++) {
      const [ax, ay] = ring[i]!;
      const [bx, by] = ring[i + 1]!;
      if ((ay! > y) === (by! > y)) continue;
      const xAt = ax! + ((y - ay!) * (bx! - ax!)) / (by! - ay!);
      if (xAt > x) inside = !inside;
    }
  }
  return inside;
}
function reference(geometry: Polygon | MultiPolygon): number[] {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const cells: number[] = [];
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) {
      const x = grid.west + col * grid.cellLon;
      const y = grid.north - row * grid.cellLat;
      if (polygons.some((rings) => crossesOdd(rings, x, y))) cells.push(row * grid.width + col);
    }
  }
  return cells;
}
const visited = (geometry: Polygon | MultiPolygon) => {
  const cells: number[] = [];
  forEachCellInPolygon(geometry, grid, (i) => cells.push(i));
  return cells.sort((a, b) => a - b);
};
/** Rings drawn in cell units (x: column + 10, y: 50 − row), moved off the centres and scaled to the grid's degrees. */
const shift = (ring: number[][]): Position[] => ring.map(([x, y]) => [grid.west + (x! + 0.37 - 10) * grid.cellLon, grid.north + (y! + 0.21 - 50) * grid.cellLat]);

const cases: [string, Polygon | MultiPolygon][] = [
  ['a triangle with sloping edges', { type: 'Polygon', coordinates: [shift([[12, 32], [35, 35], [20, 48], [12, 32]])] }],
  ['a concave U', { type: 'Polygon', coordinates: [shift([[14, 34], [30, 34], [30, 46], [26, 46], [26, 38], [18, 38], [18, 46], [14, 46], [14, 34]])] }],
  ['a square with a hole', { type: 'Polygon', coordinates: [shift([[13, 33], [33, 33], [33, 47], [13, 47], [13, 33]]), shift([[18, 37], [18, 42], [25, 42], [25, 37], [18, 37]])] }],
  ['two parts', { type: 'MultiPolygon', coordinates: [[shift([[11, 31], [16, 31], [16, 36], [11, 36], [11, 31]])], [[...shift([[30, 40], [37, 40], [37, 45], [30, 45], [30, 40]])]]] }],
  ['a polygon reaching past every edge of the grid', { type: 'Polygon', coordinates: [shift([[5, 25], [45, 27], [44, 60], [6, 58], [5, 25]])] }],
  ['a polygon past the west and north edges only', { type: 'Polygon', coordinates: [shift([[2, 40], [20, 41], [19, 56], [3, 55], [2, 40]])] }],
  ['a polygon past the east and south edges only', { type: 'Polygon', coordinates: [shift([[30, 20], [50, 21], [49, 35], [31, 36], [30, 20]])] }],
];

describe('cells inside a polygon', () => {
  it.each(cases)('%s: every cell whose centre is inside, once, and no other', (_label, geometry) => {
    const expected = reference(geometry);
    expect(expected.length).toBeGreaterThan(5);
    expect(visited(geometry)).toEqual(expected);
    const mask = rasterizePolygon(geometry, grid);
    expect([...mask.keys()].filter((i) => mask[i] === 1)).toEqual(expected);
  });

  it('visits nothing for a polygon wholly off the grid', () => {
    expect(visited({ type: 'Polygon', coordinates: [shift([[60, 10], [70, 10], [70, 20], [60, 20], [60, 10]])] })).toEqual([]);
  });
});
