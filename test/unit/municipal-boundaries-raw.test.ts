import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jurisdictionArea } from '../../shared/domain/assets/jurisdiction-area';
import { floridaMunicipalities } from '../../shared/domain/jurisdictions';

/**
 * The municipal areas against the Census Bureau's own polygons: five places copied unchanged from
 * the 2018 1:500,000 place file (`test/fixtures/boundaries/census-places-sample.geojson`: Key West,
 * Bell, Flagler Beach, St. Petersburg, Cape Coral), read here with an even-odd point-in-polygon
 * and a plane distance of this file's own. A point well inside a raw polygon is in; a point
 * more than the 500 m tolerance (plus the 30 m simplification and a margin) outside is out.
 */
type Point = [number, number];
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
const SIMPLIFICATION_MARGIN_M = 80;

const raw = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/boundaries/census-places-sample.geojson'), 'utf8')) as {
  features: Array<{ properties: { GEOID: string; NAME: string }; geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] } }>;
};

const ringsOf = (g: (typeof raw.features)[number]['geometry']): Point[][] =>
  (g.type === 'Polygon' ? (g.coordinates as number[][][]) : (g.coordinates as number[][][][]).flat()) as Point[][];

function inside(rings: Point[][], [lon, lat]: Point): boolean {
  let result = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i]!;
      const [xj, yj] = r[j]!;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) result = !result;
    }
  }
  return result;
}

function distanceM(rings: Point[][], [lon, lat]: Point): number {
  const kx = Math.cos((lat * Math.PI) / 180) * METRES_PER_DEGREE;
  let best = Infinity;
  for (const r of rings) {
    for (let i = 1; i < r.length; i++) {
      const ax = (r[i - 1]![0] - lon) * kx, ay = (r[i - 1]![1] - lat) * METRES_PER_DEGREE;
      const dx = (r[i]![0] - r[i - 1]![0]) * kx, dy = (r[i]![1] - r[i - 1]![1]) * METRES_PER_DEGREE;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2));
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
    }
  }
  return best;
}

describe('municipal areas against the raw Census place polygons', () => {
  it('holds the five sample places', () => {
    expect(raw.features.map((f) => f.properties.NAME).sort()).toEqual(['Bell', 'Cape Coral', 'Flagler Beach', 'Key West', 'St. Petersburg']);
  });

  it.each(raw.features.map((f) => [f.properties.NAME, f] as const))('%s: grid points inside are in, points beyond the tolerance are out', (_name, feature) => {
    const municipality = floridaMunicipalities().find((m) => m.census_place?.geoid === feature.properties.GEOID)!;
    const area = jurisdictionArea(`municipality:${municipality.cid}`)!;
    const rings = ringsOf(feature.geometry);
    const all = rings.flat();
    const pad = 0.02;
    const [west, east] = [Math.min(...all.map((p) => p[0])) - pad, Math.max(...all.map((p) => p[0])) + pad];
    const [south, north] = [Math.min(...all.map((p) => p[1])) - pad, Math.max(...all.map((p) => p[1])) + pad];
    const counts = { in: 0, out: 0 };
    for (let i = 0; i <= 30; i++) {
      for (let j = 0; j <= 30; j++) {
        const p: Point = [west + ((east - west) * i) / 30, south + ((north - south) * j) / 30];
        const d = distanceM(rings, p);
        if (inside(rings, p) && d > SIMPLIFICATION_MARGIN_M) {
          expect([p, area.contains(...p)]).toEqual([p, true]);
          counts.in++;
        } else if (!inside(rings, p) && d > 500 + SIMPLIFICATION_MARGIN_M) {
          expect([p, area.contains(...p)]).toEqual([p, false]);
          counts.out++;
        }
      }
    }
    expect(counts.in).toBeGreaterThan(0);
    expect(counts.out).toBeGreaterThan(0);
  });
});
