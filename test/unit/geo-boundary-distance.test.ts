import type { MultiPolygon, Polygon } from 'geojson';
import { distanceToBoundaryKm, haversineKm, KM_PER_DEGREE } from '../../shared/domain/hazards/geo';

/** A one-degree square, lon −82…−81, lat 27…28, with a repeated vertex (exports have them). */
const SQUARE: Polygon = { type: 'Polygon', coordinates: [[[-82, 27], [-81, 27], [-81, 28], [-82, 28], [-82, 28], [-82, 27]]] };
const FAR_SQUARE: Polygon['coordinates'] = [[[-80, 25], [-79.9, 25], [-79.9, 25.1], [-80, 25.1], [-80, 25]]];

/** Within 0.2 % of a great-circle distance: the plane frame is local, the sphere is not. */
const near = (actual: number, expected: number) => expect(Math.abs(actual - expected) / expected).toBeLessThan(0.002);

describe('distance from a point to a boundary', () => {
  it('uses the mean Earth sphere: a degree of latitude is 111.195 km', () => {
    expect(KM_PER_DEGREE).toBeCloseTo(111.195, 3);
    near(KM_PER_DEGREE, haversineKm({ lat: 27, lon: -82 }, { lat: 28, lon: -82 }));
  });

  it('outside, beside an edge: the distance across to that edge', () => {
    near(distanceToBoundaryKm({ lon: -82.5, lat: 27.5 }, SQUARE), haversineKm({ lon: -82.5, lat: 27.5 }, { lon: -82, lat: 27.5 }));
    near(distanceToBoundaryKm({ lon: -81.5, lat: 26.8 }, SQUARE), haversineKm({ lon: -81.5, lat: 26.8 }, { lon: -81.5, lat: 27 }));
  });

  it('inside: the distance to the nearest edge', () => {
    // 0.5° of longitude at 27.5° N (49.3 km) is nearer than 0.5° of latitude (55.6 km).
    near(distanceToBoundaryKm({ lon: -81.5, lat: 27.5 }, SQUARE), haversineKm({ lon: -81.5, lat: 27.5 }, { lon: -81, lat: 27.5 }));
    near(distanceToBoundaryKm({ lon: -81.5, lat: 27.9 }, SQUARE), haversineKm({ lon: -81.5, lat: 27.9 }, { lon: -81.5, lat: 28 }));
  });

  it('beyond a corner: the distance to the corner, not to an edge\'s line', () => {
    near(distanceToBoundaryKm({ lon: -80.9, lat: 28.1 }, SQUARE), haversineKm({ lon: -80.9, lat: 28.1 }, { lon: -81, lat: 28 }));
    near(distanceToBoundaryKm({ lon: -82.2, lat: 26.7 }, SQUARE), haversineKm({ lon: -82.2, lat: 26.7 }, { lon: -82, lat: 27 }));
  });

  it('on the boundary: zero', () => {
    expect(distanceToBoundaryKm({ lon: -81.25, lat: 27 }, SQUARE)).toBeCloseTo(0, 12);
    expect(distanceToBoundaryKm({ lon: -82, lat: 28 }, SQUARE)).toBe(0);
  });

  it('a multipolygon: the nearest of its parts', () => {
    const both: MultiPolygon = { type: 'MultiPolygon', coordinates: [SQUARE.coordinates, FAR_SQUARE] };
    const point = { lon: -79.95, lat: 25.2 };
    near(distanceToBoundaryKm(point, both), haversineKm(point, { lon: -79.95, lat: 25.1 }));
    near(distanceToBoundaryKm({ lon: -82.5, lat: 27.5 }, both), haversineKm({ lon: -82.5, lat: 27.5 }, { lon: -82, lat: 27.5 }));
  });
});
