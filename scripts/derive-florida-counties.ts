/**
 * Writes `shared/data/jurisdictions/fl-county-boundaries.topo.json`: the 67 Florida counties of
 * `us-atlas` counties-10m (Census cartographic boundaries 2017) as a TopoJSON topology holding only
 * the arcs those counties use, so functions do not ship every U.S. county to serve Florida's:
 *   npx tsx scripts/derive-florida-counties.ts
 * Arcs are copied unchanged (still quantized with the source transform) and renumbered; decoding
 * gives exactly the coordinates the full file gives.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GeometryCollection, MultiPolygon, Polygon, Topology } from 'topojson-specification';
import countiesTopology from 'us-atlas/counties-10m.json';

const OUT = path.join(__dirname, '../shared/data/jurisdictions/fl-county-boundaries.topo.json');
const FLORIDA_FIPS_PREFIX = '12';

const source = countiesTopology as unknown as Topology<{ counties: GeometryCollection<{ name: string }> }>;
const florida = source.objects.counties.geometries.filter((g) => String(g.id).startsWith(FLORIDA_FIPS_PREFIX)) as Array<Polygon<{ name: string }> | MultiPolygon<{ name: string }>>;

// A negative arc index ~i means arc i reversed: renumber the arc, keep the direction.
const renumbered = new Map<number, number>();
const arcs: number[][][] = [];
function remap(index: number): number {
  const arc = index < 0 ? ~index : index;
  let next = renumbered.get(arc);
  if (next === undefined) {
    next = arcs.length;
    renumbered.set(arc, next);
    arcs.push(source.arcs[arc] as number[][]);
  }
  return index < 0 ? ~next : next;
}
const rings = (polygon: number[][]) => polygon.map((ring) => ring.map(remap));

const geometries = florida.map((g) => (g.type === 'Polygon'
  ? { type: g.type, id: g.id, properties: g.properties, arcs: rings(g.arcs) }
  : { type: g.type, id: g.id, properties: g.properties, arcs: g.arcs.map(rings) }));

const topology = { type: 'Topology', transform: source.transform, objects: { counties: { type: 'GeometryCollection', geometries } }, arcs };
writeFileSync(OUT, `${JSON.stringify(topology)}\n`);
console.log(`${geometries.length} counties, ${arcs.length} of ${source.arcs.length} arcs → ${path.relative(process.cwd(), OUT)}`);
