import type { Polygon } from 'geojson';
import { LayerSurface, parseLayerGeoJson, type HazardLayer } from '../../shared/domain/hazards/hazard-layers';
import { gevReturnLevel } from '../../shared/domain/hazards/surge';
import { JOB_RETENTION_SECONDS } from '../../shared/domain/hazards/jobs';

/** Operator-loaded flood layers: what a GeoJSON file must hold, and the level a point reads from overlapping polygons. */
const square = (west: number, south: number, size: number): Polygon => ({ type: 'Polygon', coordinates: [[[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]]] });
const feature = (geometry: unknown, properties: Record<string, unknown> | null) => ({ type: 'Feature', geometry, properties });

describe('a layer file', () => {
  it('keeps polygons and multipolygons with a level in metres or feet (international feet), and the box of what it kept', () => {
    const parsed = parseLayerGeoJson({
      type: 'FeatureCollection',
      features: [
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: 2.1 }),
        feature({ type: 'MultiPolygon', coordinates: [square(-82.4, 27.8, 0.02).coordinates] }, { wse_navd88_ft: 10 }),
      ],
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.features.map((f) => [f.geometry.type, f.wse_navd88_m])).toEqual([['Polygon', 2.1], ['MultiPolygon', 3.048]]);
    [-82.5, 27.8, -82.38, 27.91].forEach((edge, i) => expect(parsed.bbox[i]).toBeCloseTo(edge, 9));
  });

  it('names each feature it cannot use and why, and keeps the rest', () => {
    const parsed = parseLayerGeoJson({
      type: 'FeatureCollection',
      features: [
        feature({ type: 'Point', coordinates: [-82.5, 27.9] }, { wse_navd88_m: 1 }),
        feature(null, { wse_navd88_m: 1 }),
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: '2.1' }),
        feature(square(-82.5, 27.9, 0.01), null),
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: 30.5 }),
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: -31 }),
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_ft: Number.POSITIVE_INFINITY }),
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: 30 }),
        feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: -30 }),
      ],
    });
    const level = 'needs a numeric wse_navd88_m or wse_navd88_ft property (within ±30 m).';
    expect(parsed.errors).toEqual([
      'features[0]: geometry must be Polygon or MultiPolygon, not Point.',
      'features[1]: geometry must be Polygon or MultiPolygon, not missing.',
      `features[2]: ${level}`, `features[3]: ${level}`, `features[4]: ${level}`, `features[5]: ${level}`, `features[6]: ${level}`,
    ]);
    expect(parsed.features.map((f) => f.wse_navd88_m)).toEqual([30, -30]);
  });

  it('names a feature that is not an object as one without geometry', () => {
    const parsed = parseLayerGeoJson({ type: 'FeatureCollection', features: [null, 7, feature(square(-82.5, 27.9, 0.01), { wse_navd88_m: 1 })] });
    expect(parsed.errors).toEqual(['features[0]: geometry must be Polygon or MultiPolygon, not missing.', 'features[1]: geometry must be Polygon or MultiPolygon, not missing.']);
    expect(parsed.features).toHaveLength(1);
  });

  it('is a FeatureCollection, or nothing is kept', () => {
    for (const input of [null, {}, { type: 'Feature' }, { type: 'FeatureCollection', features: {} }]) {
      expect(parseLayerGeoJson(input)).toEqual({ features: [], bbox: [0, 0, 0, 0], errors: ['Expected a GeoJSON FeatureCollection.'] });
    }
    expect(parseLayerGeoJson({ type: 'FeatureCollection', features: [] })).toEqual({ features: [], bbox: [0, 0, 0, 0], errors: [] });
  });
});

describe('the level a point reads from loaded layers', () => {
  const layer = (features: HazardLayer['features']): HazardLayer => ({ layer_id: 'l', component: 'surge', return_period_years: 100, name: 'n', source: 's', loaded_at: '2026-01-01T00:00:00Z', bbox: [-83, 27, -82, 28], features });

  it('is the highest polygon containing it, whatever the order of the polygons', () => {
    const low = { geometry: square(-82.5, 27.9, 0.1), wse_navd88_m: 1.5 };
    const high = { geometry: square(-82.45, 27.95, 0.02), wse_navd88_m: 2.5 };
    // Its box holds the point, its polygon (a thin sliver) does not.
    const sliver = { geometry: { type: 'Polygon', coordinates: [[[-82.5, 27.9], [-82.3, 27.9], [-82.5, 27.91], [-82.5, 27.9]]] } as Polygon, wse_navd88_m: 9 };
    for (const order of [[low, high, sliver], [sliver, high, low], [high, sliver, low]]) {
      const surface = new LayerSurface([layer(order)]);
      expect(surface.wseAt(-82.44, 27.96)).toBe(2.5);
      expect(surface.wseAt(-82.49, 27.99)).toBe(1.5);
      // Inside the sliver's box but above its long edge; then inside the sliver itself.
      expect(surface.wseAt(-82.42, 27.909)).toBe(1.5);
      expect(surface.wseAt(-82.42, 27.902)).toBe(9);
      expect(surface.wseAt(-81, 27.95)).toBeUndefined();
    }
  });

  it('is undefined everywhere when the layers hold no polygon', () => {
    const surface = new LayerSurface([layer([])]);
    expect(surface.wseAt(-82.44, 27.96)).toBeUndefined();
    expect(surface.allFeatures).toEqual([]);
  });
});

describe('GEV return levels', () => {
  it('take the Gumbel form when ξ is zero: μ − σ·ln(−ln(1 − 1/T))', () => {
    const mu = 0.78;
    const sigma = 0.13;
    for (const T of [10, 100, 500]) {
      const gumbel = mu - sigma * Math.log(-Math.log(1 - 1 / T));
      expect(gevReturnLevel(mu, sigma, 0, T)).toBeCloseTo(gumbel, 12);
      expect(gevReturnLevel(mu, sigma, 1e-12, T)).toBeCloseTo(gumbel, 12);
      // The general form approaches it as ξ → 0.
      expect(gevReturnLevel(mu, sigma, 1e-6, T)).toBeCloseTo(gumbel, 5);
    }
  });
});

describe('hazard jobs', () => {
  it('are kept a week', () => {
    expect(JOB_RETENTION_SECONDS).toBe(604_800);
  });
});
