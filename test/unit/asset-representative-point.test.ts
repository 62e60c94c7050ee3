import type { Geometry, Position } from 'geojson';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { representativePoint } from '../../shared/domain/assets/geometry';

/** Mean of the outer-ring vertices (closing vertex excluded), computed here independently. */
function vertexMean(ring: Position[]): [number, number] {
  const open = ring.slice(0, -1);
  return [open.reduce((s, p) => s + p[0]!, 0) / open.length, open.reduce((s, p) => s + p[1]!, 0) / open.length];
}

describe('an asset\'s representative point', () => {
  it('lies inside a concave (U-shaped) area whose vertex mean falls in the notch', () => {
    const ring = [[0, 0], [3, 0], [3, 3], [2, 3], [2, 0.5], [1, 0.5], [1, 3], [0, 3], [0, 0]];
    const polygon: Geometry = { type: 'Polygon', coordinates: [ring] };
    // The premise: the vertex mean is outside the shape.
    expect(booleanPointInPolygon(vertexMean(ring), polygon)).toBe(false);
    expect(booleanPointInPolygon(representativePoint(polygon)!, polygon)).toBe(true);
  });

  it('lies on one of the parts of a multi-part area, not in the gap between them', () => {
    const west = [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]];
    const east = [[5, 0], [6, 0], [6, 1], [5, 1], [5, 0]];
    const multi: Geometry = { type: 'MultiPolygon', coordinates: [[west], [east]] };
    expect(booleanPointInPolygon(representativePoint(multi)!, multi)).toBe(true);
  });

  it('is the point itself for a point, and nothing for an empty geometry', () => {
    expect(representativePoint({ type: 'Point', coordinates: [-82.1, 27.5] })).toEqual([-82.1, 27.5]);
    expect(representativePoint({ type: 'MultiPolygon', coordinates: [] })).toBeUndefined();
  });
});
