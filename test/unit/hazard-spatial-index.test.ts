import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { AssetIndex, assetsWithinNaive, type AssetPoint } from '../../shared/domain/hazards/spatial-index';
import { floridaCountyBoundaries } from '../../shared/domain/hazards/florida-counties';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { syntheticAssets } from '../helpers/synthetic-assets';

describe('asset spatial index', () => {
  // SYNTHETIC assets: random points inside real county boundaries (not real facilities).
  const assets: AssetPoint[] = syntheticAssets(20_000, floridaCountyBoundaries(), 42);

  it('generates points inside their county', () => {
    const counties = new Map(floridaCountyBoundaries().map((c) => [c.fips, c]));
    for (const a of assets.slice(0, 500)) {
      expect(booleanPointInPolygon([a.lon, a.lat], counties.get(a.category!)!.geometry)).toBe(true);
    }
  });

  it('finds the same assets as the naive loop for a county boundary', () => {
    for (const fips of ['12087', '12086', '12033']) {
      const county = floridaCountyBoundaries().find((c) => c.fips === fips)!;
      const validation = validateBoundary(county.geometry);
      if (!validation.ok) throw new Error(fips);
      const indexed = new AssetIndex(assets).within(validation.boundary.geometry, validation.boundary.bbox).map((a) => a.asset_id).sort();
      const naive = assetsWithinNaive(assets, validation.boundary.geometry).map((a) => a.asset_id).sort();
      expect(indexed).toEqual(naive);
      expect(indexed.length).toBeGreaterThan(0);
    }
  });

  it('handles an account without assets', () => {
    expect(new AssetIndex([]).within({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, [0, 0, 1, 1])).toEqual([]);
  });
});
