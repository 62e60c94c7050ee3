import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jurisdictionArea } from '../../shared/domain/assets/jurisdiction-area';
import { floridaMunicipalities } from '../../shared/domain/jurisdictions';

const municipalityIdOf = (geoid: string) => `municipality:${floridaMunicipalities().find((m) => m.census_place?.geoid === geoid)!.cid}`;

/**
 * Where a jurisdiction's assets may lie, checked against the county and place boundaries decoded
 * here from the TopoJSON files themselves (quantised, delta-encoded, packed arcs) with this file's own point-in-polygon
 * and point-to-edge distance. The 500 m tolerance is the one documented for imports.
 */
const TOLERANCE_M = 500;
/** Distances this close to the tolerance are not asserted: the two plane approximations may differ by a metre. */
const UNDECIDED_M = 20;
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

type Point = [number, number];
interface County { fips: string; name: string; rings: Point[][] }

/** The arcs of the packed string: per arc its point count, then zigzag-varint delta pairs, base64. */
function unpack(packed: string): [number, number][][] {
  const bytes = Buffer.from(packed, 'base64');
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      const byte = bytes[at++]!;
      value += (byte & 127) * shift;
      if (byte < 128) return value;
    }
  };
  const zigzag = () => {
    const v = varint();
    return v % 2 ? -(v + 1) / 2 : v / 2;
  };
  const arcs: [number, number][][] = [];
  while (at < bytes.length) {
    const n = varint();
    arcs.push(Array.from({ length: n }, (): [number, number] => [zigzag(), zigzag()]));
  }
  return arcs;
}

function readBoundaries(file: string, object: string): County[] {
  const topology = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/jurisdictions', file), 'utf8')) as {
    transform: { scale: [number, number]; translate: [number, number] };
    packed_arcs: string;
    objects: Record<string, { geometries: { id: string | number; type: 'Polygon' | 'MultiPolygon'; properties: { name: string }; arcs: number[][] | number[][][] }[] }>;
  };
  const { scale, translate } = topology.transform;
  const arcs = unpack(topology.packed_arcs).map((deltas) => {
    let x = 0;
    let y = 0;
    return deltas.map(([dx, dy]): Point => {
      x += dx;
      y += dy;
      return [x * scale[0] + translate[0], y * scale[1] + translate[1]];
    });
  });
  const ring = (indices: number[]): Point[] => indices.flatMap((index, n) => {
    const arc = index >= 0 ? arcs[index]! : [...arcs[~index]!].reverse();
    return n === 0 ? arc : arc.slice(1);
  });
  return topology.objects[object]!.geometries.map((g) => ({
    fips: String(g.id),
    name: g.properties.name,
    rings: g.type === 'Polygon' ? (g.arcs as number[][]).map(ring) : (g.arcs as number[][][]).flatMap((polygon) => polygon.map(ring)),
  }));
}

/** Even-odd rule over every ring: holes and separate parts come out right together. */
function inside(county: County, [lon, lat]: Point): boolean {
  let result = false;
  for (const r of county.rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i]!;
      const [xj, yj] = r[j]!;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) result = !result;
    }
  }
  return result;
}

function distanceM(county: County, [lon, lat]: Point): number {
  const kx = Math.cos((lat * Math.PI) / 180) * METRES_PER_DEGREE;
  let best = Infinity;
  for (const r of county.rings) {
    for (let i = 1; i < r.length; i++) {
      const a: Point = [(r[i - 1]![0] - lon) * kx, (r[i - 1]![1] - lat) * METRES_PER_DEGREE];
      const b: Point = [(r[i]![0] - lon) * kx, (r[i]![1] - lat) * METRES_PER_DEGREE];
      const d: Point = [b[0] - a[0], b[1] - a[1]];
      const len2 = d[0] * d[0] + d[1] * d[1];
      const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, -(a[0] * d[0] + a[1] * d[1]) / len2));
      best = Math.min(best, Math.hypot(a[0] + t * d[0], a[1] + t * d[1]));
    }
  }
  return best;
}

/** A point `metres` from `from` towards east (dx) and north (dy). */
function offset([lon, lat]: Point, dxM: number, dyM: number): Point {
  return [lon + dxM / (Math.cos((lat * Math.PI) / 180) * METRES_PER_DEGREE), lat + dyM / METRES_PER_DEGREE];
}

const COUNTIES = readBoundaries('fl-county-boundaries.topo.json', 'counties');
const PLACES = readBoundaries('fl-place-boundaries.topo.json', 'places');
const placeOf = (geoid: string) => PLACES.find((p) => p.fips === geoid)!;
const byFips = (fips: string) => COUNTIES.find((c) => c.fips === fips)!;
const expected = (county: County, p: Point) => inside(county, p) || distanceM(county, p) <= TOLERANCE_M;
const decided = (county: County, p: Point) => inside(county, p) || Math.abs(distanceM(county, p) - TOLERANCE_M) > UNDECIDED_M;

/** A point well inside the county (2 km from any edge), from a grid over its extent. */
const interiorPoints = new Map<County, Point>();
function interiorPoint(county: County): Point {
  if (!interiorPoints.has(county)) interiorPoints.set(county, interiorPointOf(county, 2_000));
  return interiorPoints.get(county)!;
}

function interiorPointOf(county: County, marginM: number): Point {
  const all = county.rings.flat();
  const [west, east] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  const [south, north] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
  for (let i = 1; i < 40; i++) {
    for (let j = 1; j < 40; j++) {
      const p: Point = [west + ((east - west) * i) / 40, south + ((north - south) * j) / 40];
      if (inside(county, p) && distanceM(county, p) > marginM) return p;
    }
  }
  throw new Error(`no interior point found in ${county.name}`);
}

describe('jurisdiction areas against the county boundaries read from the TopoJSON file', () => {
  it('holds every one of the 67 counties', () => {
    expect(COUNTIES).toHaveLength(67);
  });

  it.each(COUNTIES.map((c) => [c.name, c] as const))('%s County: named, contains a point 2 km inside, not the other counties\' interiors', (_name, county) => {
    const area = jurisdictionArea(`county:${county.fips}`)!;
    expect(area.description).toBe(`${county.name} County`);
    expect(area.contains(...interiorPoint(county))).toBe(true);
    for (const other of COUNTIES) {
      if (other === county) continue;
      const p = interiorPoint(other);
      if (!decided(county, p)) continue;
      expect([other.name, area.contains(...p)]).toEqual([other.name, expected(county, p)]);
    }
  });

  it.each(COUNTIES.map((c) => [c.name, c] as const))('%s County: points across its longest edges, 460 m and 560 m out, follow the 500 m tolerance', (_name, county) => {
    const area = jurisdictionArea(`county:${county.fips}`)!;
    const edges = county.rings.flatMap((r) => r.slice(1).map((b, i) => [r[i]!, b] as const));
    const longest = edges
      .map(([a, b]) => ({ a, b, length: Math.hypot((b[0] - a[0]) * Math.cos((a[1] * Math.PI) / 180), b[1] - a[1]) }))
      .sort((x, y) => y.length - x.length)
      .slice(0, 6);
    const answers: boolean[] = [];
    for (const { a, b } of longest) {
      const mid: Point = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const kx = Math.cos((mid[1] * Math.PI) / 180);
      const [ex, ey] = [(b[0] - a[0]) * kx, b[1] - a[1]];
      const norm = Math.hypot(ex, ey);
      for (const side of [1, -1]) {
        for (const metres of [460, 560]) {
          const p = offset(mid, (side * -ey * metres) / norm, (side * ex * metres) / norm);
          if (!decided(county, p)) continue;
          expect([metres, side, area.contains(...p)]).toEqual([metres, side, expected(county, p)]);
          answers.push(expected(county, p));
        }
      }
    }
    // Both answers occur: some points out past the tolerance, some inside it.
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((answer) => !answer).length).toBeGreaterThan(0);
  });

  it.each(COUNTIES.map((c) => [c.name, c] as const))('%s County: 460 m beyond its westernmost, easternmost, southernmost and northernmost points is inside the tolerance, 560 m is not', (_name, county) => {
    const area = jurisdictionArea(`county:${county.fips}`)!;
    const all = county.rings.flat();
    const extremes: [Point, number, number][] = [
      [all.reduce((m, p) => (p[0] < m[0] ? p : m)), -1, 0],
      [all.reduce((m, p) => (p[0] > m[0] ? p : m)), 1, 0],
      [all.reduce((m, p) => (p[1] < m[1] ? p : m)), 0, -1],
      [all.reduce((m, p) => (p[1] > m[1] ? p : m)), 0, 1],
    ];
    for (const [vertex, dx, dy] of extremes) {
      // Outside the county's bounding box, so the answer also tests the box's margin.
      const near = offset(vertex, dx * 460, dy * 460);
      expect(area.contains(...near)).toBe(true);
      const far = offset(vertex, dx * 560, dy * 560);
      expect(distanceM(county, far)).toBeGreaterThan(TOLERANCE_M + UNDECIDED_M);
      expect(area.contains(...far)).toBe(false);
    }
  });

  it('a municipality is checked against its own place, not its county', () => {
    // Flagler Beach (NFIP 120087, Census place 1222550) lies in Flagler and Volusia Counties.
    const area = jurisdictionArea('municipality:120087')!;
    const place = placeOf('1222550');
    expect(place.name).toBe('Flagler Beach');
    expect(area.description).toBe('City of Flagler Beach');
    expect(area.contains(...interiorPointOf(place, 100))).toBe(true);
    // Bunnell, its county's seat, is in Flagler County but not in Flagler Beach.
    expect(area.contains(...interiorPointOf(placeOf('1209550'), 100))).toBe(false);
    expect(area.contains(...interiorPoint(byFips('12035')))).toBe(expected(place, interiorPoint(byFips('12035'))));
  });

  it.each(PLACES.filter((_, i) => i % 25 === 0).map((p) => [p.name, p] as const))('%s: a point inside is in, points 460 m and 560 m beyond its extremes follow the tolerance', (_name, place) => {
    const id = municipalityIdOf(place.fips);
    const area = jurisdictionArea(id)!;
    expect(area.contains(...interiorPointOf(place, 20))).toBe(true);
    const all = place.rings.flat();
    const west = all.reduce((m, p) => (p[0] < m[0] ? p : m));
    const east = all.reduce((m, p) => (p[0] > m[0] ? p : m));
    for (const [vertex, dx] of [[west, -1], [east, 1]] as const) {
      const near = offset(vertex, dx * 460, 0);
      if (decided(place, near)) expect(area.contains(...near)).toBe(expected(place, near));
      const far = offset(vertex, dx * 560, 0);
      expect(distanceM(place, far)).toBeGreaterThan(TOLERANCE_M + UNDECIDED_M);
      expect(area.contains(...far)).toBe(false);
    }
  });

  it('the Weedon Island power plant, on Tampa Bay\'s shore, is in Pinellas County', () => {
    // Duke Energy's Bartow plant at Weedon Island, St. Petersburg, about 27.865° N 82.607° W.
    const plant: Point = [-82.607, 27.865];
    expect(expected(byFips('12103'), plant)).toBe(true);
    expect(jurisdictionArea('county:12103')!.contains(...plant)).toBe(true);
    expect(jurisdictionArea('county:12057')!.contains(...plant)).toBe(false);
  });

  it.each(['county:99999', 'county:', 'county', 'municipality:000000', 'municipality:', 'state:12', 'city:120003', '12001', ''])('%j has no area', (id) => {
    expect(jurisdictionArea(id)).toBeUndefined();
  });
});
