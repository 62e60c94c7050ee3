/**
 * Writes the jurisdiction boundaries and the municipal figures from the Census files of the
 * reference data collection (its `boundaries/` and `population/` folders):
 *   npx tsx scripts/derive-florida-boundaries.ts <collection data folder>
 * - `fl-county-boundaries.topo.json`: the 67 counties, dissolved from the 4,212 census tracts of
 *   CDC/ATSDR SVI 2018 (Census 2010 tract geography, clipped to the shoreline): a tract edge used
 *   twice inside one county is interior and dropped, the edges left are chained into rings.
 * - `fl-place-boundaries.topo.json`: the 413 incorporated places (LSAD ≠ 57) of the Census 2018
 *   1:500,000 cartographic boundary file, by 7-digit place GEOID.
 * - `fl-places.json`: per place its GEOID, name, kind, NFIP community id where the NFIP list has the
 *   place, counties, a point inside it (for the places NFIP does not list), Vintage 2019 population (July 1, 2019) and the tract-weighted per-capita income,
 *   and Florida's per-capita income in the same measure (tract income × population ÷ population).
 * Both topologies are simplified with Douglas–Peucker at `SIMPLIFY_TOLERANCE_DEG` on arcs cut at the
 * junctions between neighbours, so shared borders stay shared (no gaps or overlaps), and quantized
 * to `QUANTIZATION` steps over Florida's extent. Exterior rings run clockwise (the d3 convention of
 * the earlier us-atlas file); the arcs are stored packed (`shared/data/packed-arcs.ts`). NAD83 coordinates are used as WGS84 (they differ by about a metre).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pointOnFeature from '@turf/point-on-feature';
import { unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import * as shapefile from 'shapefile';
import countyData from '../shared/data/jurisdictions/fl-counties.json';
import municipalityData from '../shared/data/jurisdictions/fl-municipalities.json';
import { packArcs } from '../shared/data/packed-arcs';
import { recordsOf } from '../shared/data/record-table';
import { normalizePlaceName, type Municipality } from '../shared/domain/jurisdictions';

/**
 * Douglas–Peucker tolerance, 0.0003° (about 30 m at Florida's latitudes): well inside the 500 m
 * an import check allows.
 */
const SIMPLIFY_TOLERANCE_DEG = { counties: 0.0003, places: 0.0003 };
/** Steps over Florida's 7.6° × 6.4° extent: about 4 m. */
const QUANTIZATION = 200_000;
const OUT = path.join(__dirname, '../shared/data/jurisdictions');

type Ring = number[][];
interface Shape { id: string; properties: Record<string, unknown>; rings: Ring[] }

async function readShapes(shp: ArrayBuffer | Uint8Array, dbf: ArrayBuffer | Uint8Array, idOf: (p: Record<string, unknown>) => string): Promise<Shape[]> {
  const source = await shapefile.open(shp as ArrayBuffer, dbf as ArrayBuffer);
  const shapes: Shape[] = [];
  for (let r = await source.read(); !r.done; r = await source.read()) {
    const g = r.value.geometry as GeoJSON.Polygon | GeoJSON.MultiPolygon;
    const rings = g.type === 'Polygon' ? g.coordinates : g.coordinates.flat();
    shapes.push({ id: idOf(r.value.properties as Record<string, unknown>), properties: r.value.properties as Record<string, unknown>, rings });
  }
  return shapes;
}

const key = (p: number[]) => `${p[0]},${p[1]}`;
function signedArea(ring: Ring): number {
  let a = 0;
  for (let i = 0; i < ring.length - 1; i++) a += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!;
  return a / 2;
}

/** The outline of a union of tiles that share their edges vertex for vertex: edges used twice are interior. */
function dissolve(tiles: Ring[]): Ring[] {
  const edges = new Map<string, [number[], number[]]>();
  for (const ring of tiles) {
    // Shapefile rings: exteriors clockwise, holes counter-clockwise, so an interior edge appears once each way.
    for (let i = 0; i < ring.length - 1; i++) {
      const a = ring[i]!, b = ring[i + 1]!;
      if (key(a) === key(b)) continue;
      const reverse = `${key(b)}>${key(a)}`;
      if (edges.has(reverse)) edges.delete(reverse);
      else edges.set(`${key(a)}>${key(b)}`, [a, b]);
    }
  }
  const outgoing = new Map<string, number[][]>();
  for (const [a, b] of edges.values()) outgoing.set(key(a), [...(outgoing.get(key(a)) ?? []), b]);
  const rings: Ring[] = [];
  for (const [start, nexts] of outgoing) {
    while (nexts.length) {
      const first = start.split(',').map(Number);
      const ring: Ring = [first];
      let at = nexts.pop()!;
      while (key(at) !== start) {
        ring.push(at);
        const onward = outgoing.get(key(at));
        if (!onward?.length) throw new Error(`open ring at ${key(at)}: the tiles do not share their edges`);
        at = onward.pop()!;
      }
      ring.push(first);
      rings.push(ring);
    }
  }
  return rings;
}

function pointInRing(p: number[], ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!, [xj, yj] = ring[j]!;
    if (yi! > p[1]! !== yj! > p[1]! && p[0]! < ((xj! - xi!) * (p[1]! - yi!)) / (yj! - yi!) + xi!) inside = !inside;
  }
  return inside;
}

/** Rings → polygons: exteriors clockwise, each hole (counter-clockwise) in the smallest exterior around it. */
function polygonsOf(rings: Ring[]): Ring[][] {
  const exteriors = rings.filter((r) => signedArea(r) < 0).sort((a, b) => signedArea(b) - signedArea(a));
  const polygons = exteriors.map((r) => [r]);
  for (const hole of rings.filter((r) => signedArea(r) > 0)) {
    const owner = polygons.find((p) => pointInRing(hole[0]!, p[0]!)) ?? polygons.find((p) => hole.some((v) => pointInRing(v, p[0]!)));
    if (owner) owner.push(hole);
  }
  return polygons;
}

function simplify(line: Ring, tolerance: number): Ring {
  if (line.length <= 2) return line;
  const keep = new Uint8Array(line.length);
  keep[0] = keep[line.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, line.length - 1]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    const [ax, ay] = line[from]!, [bx, by] = line[to]!;
    const dx = bx! - ax!, dy = by! - ay!, length = Math.hypot(dx, dy);
    let farthest = -1, distance = tolerance;
    for (let i = from + 1; i < to; i++) {
      const [px, py] = line[i]!;
      const d = length === 0 ? Math.hypot(px! - ax!, py! - ay!) : Math.abs(dy * (px! - ax!) - dx * (py! - ay!)) / length;
      if (d > distance) { distance = d; farthest = i; }
    }
    if (farthest >= 0) { keep[farthest] = 1; stack.push([from, farthest], [farthest, to]); }
  }
  return line.filter((_, i) => keep[i]);
}

/**
 * A TopoJSON topology of the features: rings cut into arcs at every vertex where the set of
 * features using the next edge changes, each arc simplified once (in one direction) and shared.
 */
function topology(features: Array<{ id: string; properties: Record<string, unknown>; polygons: Ring[][] }>, objectName: keyof typeof SIMPLIFY_TOLERANCE_DEG) {
  const users = new Map<string, Set<string>>();
  const edgeKey = (a: number[], b: number[]) => (key(a) < key(b) ? `${key(a)}|${key(b)}` : `${key(b)}|${key(a)}`);
  for (const f of features) for (const ring of f.polygons.flat()) for (let i = 0; i < ring.length - 1; i++) {
    const k = edgeKey(ring[i]!, ring[i + 1]!);
    users.set(k, (users.get(k) ?? new Set()).add(f.id));
  }
  const usersOf = (a: number[], b: number[]) => [...users.get(edgeKey(a, b))!].sort().join(' ');
  const xs = features.flatMap((f) => f.polygons.flat(2).map((p) => p[0]!)), ys = features.flatMap((f) => f.polygons.flat(2).map((p) => p[1]!));
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const scale = [(Math.max(...xs) - x0) / (QUANTIZATION - 1), (Math.max(...ys) - y0) / (QUANTIZATION - 1)] as const;
  const arcs: number[][][] = [];
  const arcIndex = new Map<string, number>();
  const encode = (line: Ring) => {
    let px = 0, py = 0;
    const out: number[][] = [];
    for (const [x, y] of line) {
      const qx = Math.round((x! - x0) / scale[0]), qy = Math.round((y! - y0) / scale[1]);
      if (out.length && qx === px && qy === py) continue;
      out.push(out.length ? [qx - px, qy - py] : [qx, qy]);
      [px, py] = [qx, qy];
    }
    return out;
  };
  const arcOf = (line: Ring): number => {
    const forward = line.map(key).join(';'), backward = [...line].reverse().map(key).join(';');
    const known = arcIndex.get(forward) ?? (arcIndex.has(backward) ? ~arcIndex.get(backward)! : undefined);
    if (known !== undefined) return known;
    arcIndex.set(forward, arcs.length);
    arcs.push(encode(simplify(line, SIMPLIFY_TOLERANCE_DEG[objectName])));
    return arcs.length - 1;
  };
  const ringArcs = (ring: Ring): number[] => {
    const n = ring.length - 1;
    const cuts = [...Array(n).keys()].filter((i) => usersOf(ring[(i - 1 + n) % n]!, ring[i]!) !== usersOf(ring[i]!, ring[i + 1]!));
    if (cuts.length === 0) {
      // A ring no neighbour touches: two arcs, cut at the first vertex and the one farthest from it, so it keeps an area.
      const far = ring.reduce((best, p, i) => (Math.hypot(p[0]! - ring[0]![0]!, p[1]! - ring[0]![1]!) > Math.hypot(ring[best]![0]! - ring[0]![0]!, ring[best]![1]! - ring[0]![1]!) ? i : best), 0);
      cuts.push(0, far);
    }
    const arcsOfRing: number[] = [];
    for (let c = 0; c < cuts.length; c++) {
      const from = cuts[c]!, to = cuts[(c + 1) % cuts.length]!;
      const line = to > from ? ring.slice(from, to + 1) : [...ring.slice(from, n), ...ring.slice(0, to + 1)];
      arcsOfRing.push(arcOf(line));
    }
    return arcsOfRing;
  };
  const geometries = features.map((f) => {
    const polygons = f.polygons.map((p) => p.map(ringArcs));
    return polygons.length === 1
      ? { type: 'Polygon', id: f.id, properties: f.properties, arcs: polygons[0] }
      : { type: 'MultiPolygon', id: f.id, properties: f.properties, arcs: polygons };
  });
  return { type: 'Topology', transform: { scale, translate: [x0, y0] }, objects: { [objectName]: { type: 'GeometryCollection', geometries } }, arcs };
}

/** The topology as stored: its arcs packed (`shared/data/packed-arcs.ts`). */
function stored(topo: ReturnType<typeof topology>): string {
  const { arcs, ...rest } = topo;
  return `${JSON.stringify({ ...rest, packed_arcs: packArcs(arcs) })}\n`;
}

/** Census 2018 names that the NFIP list spells otherwise. */
const NAME_CHANGES: Record<string, string> = {
  'lake worth': 'lake worth beach', // renamed by referendum in 2019
  'islamorada village of islands': 'islamorada',
  everglades: 'everglades city',
};

/** A name as both lists can be compared: "Mt. Dora" = "Mount Dora", "Sewall's Point" = "Sewalls Point", "Harbour" = "Harbor". */
function matchKey(name: string): string {
  const key = normalizePlaceName(name.replace(/'/g, '')).replace(/\bmt\b/g, 'mount').replace(/\bharbour\b/g, 'harbor');
  return NAME_CHANGES[key] ?? key;
}

function csv(file: string): Array<Record<string, string>> {
  return parse(readFileSync(file), { columns: true, skip_empty_lines: true });
}

async function main(dataDir: string): Promise<void> {
  // Counties from tracts.
  const zip = unzipSync(readFileSync(path.join(dataDir, 'boundaries/census_tracts/SVI2018_FLORIDA_tract.zip')));
  const member = (ext: string) => zip[Object.keys(zip).find((n) => n.endsWith(ext))!]!;
  const tracts = await readShapes(member('.shp'), member('.dbf'), (p) => String(p.FIPS));
  const countyNames = new Map((countyData.counties as Array<{ fips: string; name: string }>).map((c) => [c.fips, c.name]));
  const counties = [...countyNames].map(([fips, name]) => ({
    id: fips,
    properties: { name },
    polygons: polygonsOf(dissolve(tracts.filter((t) => t.id.startsWith(fips)).flatMap((t) => t.rings))),
  }));
  const countyTopology = topology(counties, 'counties');
  writeFileSync(path.join(OUT, 'fl-county-boundaries.topo.json'), stored(countyTopology));

  // Incorporated places.
  const placeDir = path.join(dataDir, 'boundaries/census_places');
  const places = (await readShapes(readFileSync(path.join(placeDir, 'cb_2018_12_place_500k.shp')), readFileSync(path.join(placeDir, 'cb_2018_12_place_500k.dbf')), (p) => String(p.GEOID)))
    .filter((p) => p.properties.LSAD !== '57')
    .sort((a, b) => a.id.localeCompare(b.id));
  const placeTopology = topology(places.map((p) => ({ id: p.id, properties: { name: String(p.properties.NAME) }, polygons: polygonsOf(p.rings) })), 'places');
  writeFileSync(path.join(OUT, 'fl-place-boundaries.topo.json'), stored(placeTopology));

  // Each place's counties: those of the tracts whose interior sample point lies in the place.
  const countyPolygons = counties.map((c) => ({ fips: c.id, polygons: c.polygons }));
  const inPolygons = (p: number[], polygons: Ring[][]) => polygons.some((poly) => pointInRing(p, poly[0]!) && !poly.slice(1).some((h) => pointInRing(p, h)));
  const countiesOfPlace = (rings: Ring[]): string[] => {
    const polygons = polygonsOf(rings);
    const found = new Set<string>();
    for (const ring of polygons.map((p) => p[0]!)) {
      const step = Math.max(1, Math.floor(ring.length / 50));
      for (let i = 0; i < ring.length - 1; i += step) {
        // A point a hair inside the ring, beside the vertex: the ring's own interior.
        const [a, b] = [ring[i]!, ring[i + 1]!];
        const inward = [(a[0]! + b[0]!) / 2 + (b[1]! - a[1]!) * 1e-3, (a[1]! + b[1]!) / 2 - (b[0]! - a[0]!) * 1e-3];
        const county = countyPolygons.find((c) => inPolygons(inward, c.polygons));
        if (county && inPolygons(inward, polygons)) found.add(county.fips);
      }
    }
    return [...found].sort();
  };

  const population = new Map(csv(path.join(dataDir, 'population/fl_incorporated_places_pop_pep2019.csv')).map((r) => [r.geoid!, r]));
  const income = new Map(csv(path.join(dataDir, 'population/fl_incorporated_places_pci_tract_weighted_svi2018.csv')).map((r) => [r.geoid!, r]));
  const nfip = recordsOf<Municipality>(municipalityData.municipalities);
  const KIND: Record<string, string> = { 25: 'city', 43: 'town', 47: 'village' };
  const rows = places.map((p) => {
    const fips = countiesOfPlace(p.rings);
    const name = String(p.properties.NAME);
    const kind = KIND[String(p.properties.LSAD)]!;
    const key = matchKey(name);
    const exact = nfip.filter((m) => matchKey(m.name) === key);
    // NFIP names some villages with their kind ("Bal Harbour Village"); the Census does not.
    const sameName = exact.length > 0 ? exact : nfip.filter((m) => matchKey(m.name).replace(/ village$/, '') === key);
    const match = sameName.length === 1 ? sameName[0] : sameName.find((m) => fips.includes(m.county_fips));
    const pop = population.get(p.id), pci = income.get(p.id);
    const main = match?.county_fips && fips.includes(match.county_fips) ? match.county_fips : fips[0] ?? match?.county_fips;
    // A point only for the places NFIP does not list: the others keep the NFIP list's coordinates.
    const [lon, lat] = match ? [null, null] : pointOnFeature({ type: 'MultiPolygon', coordinates: polygonsOf(p.rings) }).geometry.coordinates.map((v) => Math.round(v * 1e5) / 1e5);
    return [p.id, name, kind, match?.cid ?? null, main, fips, lat, lon, pop ? Number(pop.popest2019) : null, pci ? Number(pci.pci_usd_acs2014_2018_tract_weighted) : null];
  });
  // Florida's per-capita income in the same measure (ACS 2014–2018, from the same tracts): aggregate income ÷ population.
  const counted = tracts.filter((t) => Number(t.properties.E_PCI) >= 0 && Number(t.properties.E_TOTPOP) > 0);
  const statePerCapitaIncome = Math.round(counted.reduce((sum, t) => sum + Number(t.properties.E_PCI) * Number(t.properties.E_TOTPOP), 0) / counted.reduce((sum, t) => sum + Number(t.properties.E_TOTPOP), 0));
  const placesFile = {
    state_per_capita_income_acs2014_2018: statePerCapitaIncome,
    source: 'Census 2018 1:500k places (LSAD ≠ 57), Vintage 2019 estimates (SUB-IP-EST2019-ANNRES-12), tract-weighted ACS 2014–2018 per-capita income (CDC/ATSDR SVI 2018); see SOURCES.md',
    places: { columns: ['geoid', 'name', 'type', 'nfip_cid', 'county_fips', 'county_fips_all', 'lat', 'lon', 'population_2019', 'per_capita_income_tract_weighted'], rows },
  };
  writeFileSync(path.join(OUT, 'fl-places.json'), `${JSON.stringify(placesFile)}\n`);

  const matched = rows.filter((r) => r[3] !== null).length;
  console.log(`Florida per-capita income (ACS 2014–2018, tract aggregate) $${statePerCapitaIncome}; ${counties.length} counties (${countyTopology.arcs.length} arcs), ${places.length} places (${placeTopology.arcs.length} arcs), ${matched} joined to an NFIP community, ${rows.filter((r) => r[8] !== null).length} with a population`);
  const noCounty = rows.filter((r) => (r[5] as string[]).length === 0).map((r) => r[1]);
  if (noCounty.length) throw new Error(`places in no county: ${noCounty.join(', ')}`);
}

main(process.argv[2] ?? '').catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
