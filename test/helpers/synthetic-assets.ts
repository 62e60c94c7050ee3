import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { CountyBoundary } from '../../shared/domain/hazards/florida-counties';
import type { AssetPoint } from '../../shared/domain/hazards/spatial-index';

/** Deterministic pseudo-random numbers (mulberry32) so runs are repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * SYNTHETIC assets for tests and benchmarks: a county drawn at random, then a point drawn uniformly
 * inside its real boundary (rejection sampling in the county's box). `category` holds the county FIPS; they are not
 * real facilities.
 */
export function syntheticAssets(count: number, counties: readonly CountyBoundary[], seed: number, idPrefix = 'synthetic'): AssetPoint[] {
  const random = seededRandom(seed);
  const assets: AssetPoint[] = [];
  while (assets.length < count) {
    const county = counties[Math.floor(random() * counties.length)]!;
    const [w, s, e, n] = county.bbox;
    for (;;) {
      const lon = w + random() * (e - w);
      const lat = s + random() * (n - s);
      if (!booleanPointInPolygon([lon, lat], county.geometry)) continue;
      assets.push({ asset_id: `${idPrefix}-${assets.length}`, name: `Synthetic asset ${assets.length}`, category: county.fips, lat, lon });
      break;
    }
  }
  return assets;
}
