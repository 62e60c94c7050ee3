import type { Polygon } from 'geojson';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { countyBoundaryByFips } from '../../shared/domain/hazards/florida-counties';
import { validateBoundary } from '../../shared/domain/hazards/boundary';

// A thin corridor (a road or canal study area) across a whole county: its vertices lie beyond the
// county on both sides and no county vertex falls inside it, so only an edge test finds the overlap.
describe('boundary-to-county overlap', () => {
  it('finds a county that a corridor crosses with no vertex inside it', () => {
    const polk = countyBoundaryByFips('12105')!;
    const [west, south, east, north] = polk.bbox;
    const half = 0.0005;
    const countyVertices = polk.geometry.type === 'Polygon' ? polk.geometry.coordinates.flat() : polk.geometry.coordinates.flat(2);
    const corridorAt = (lat: number): Polygon => ({
      type: 'Polygon',
      coordinates: [[[west - 0.05, lat - half], [east + 0.05, lat - half], [east + 0.05, lat + half], [west - 0.05, lat + half], [west - 0.05, lat - half]]],
    });
    // The detailed boundary has vertices everywhere along its edges: the first latitude north of the middle whose corridor holds none.
    const lat = Array.from({ length: 200 }, (_, k) => (south + north) / 2 + k * 0.0013).find((y) => !countyVertices.some((p) => booleanPointInPolygon(p, corridorAt(y))))!;
    const corridor = corridorAt(lat);
    // The premise, checked against the raw boundary: the midline enters the county, no vertex of
    // either shape lies inside the other.
    const midline = Array.from({ length: 100 }, (_, i) => [west + ((east - west) * (i + 0.5)) / 100, lat]);
    expect(midline.some((p) => booleanPointInPolygon(p, polk.geometry))).toBe(true);
    expect(corridor.coordinates[0]!.some((p) => booleanPointInPolygon(p, polk.geometry))).toBe(false);
    expect(countyVertices.some((p) => booleanPointInPolygon(p, corridor))).toBe(false);

    const result = validateBoundary(corridor);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.boundary.counties.map((c) => c.fips)).toContain('12105');
  });
});
