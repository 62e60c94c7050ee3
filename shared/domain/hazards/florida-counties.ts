import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { unpackTopology } from '../../data/packed-arcs';
import { bboxOfPositions, type BBox } from './geo';

export interface CountyBoundary {
  fips: string;
  name: string;
  geometry: Polygon | MultiPolygon;
  bbox: BBox;
}

function positionsOf(geometry: Polygon | MultiPolygon): number[][] {
  return geometry.type === 'Polygon' ? geometry.coordinates.flat() : geometry.coordinates.flat(2);
}

let boundaries: CountyBoundary[] | undefined;

/** Florida's 67 county boundaries (dissolved from the Census tracts, `scripts/derive-florida-boundaries.ts`), built on first use. */
export function floridaCountyBoundaries(): readonly CountyBoundary[] {
  if (!boundaries) {
    // Required here, not imported: the arcs are built on first use, not at every cold start.
    const countiesTopology = require('../../data/jurisdictions/fl-county-boundaries.topo.json') as typeof import('../../data/jurisdictions/fl-county-boundaries.topo.json');
    const topology = unpackTopology<Topology<{ counties: GeometryCollection<{ name: string }> }>>(countiesTopology);
    const collection = feature(topology, topology.objects.counties) as unknown as { features: Feature<Polygon | MultiPolygon, { name: string }>[] };
    boundaries = collection.features.map((f) => ({
      fips: String(f.id),
      name: f.properties.name,
      geometry: f.geometry,
      bbox: bboxOfPositions(positionsOf(f.geometry)),
    }));
  }
  return boundaries;
}

export function countyBoundaryByFips(fips: string): CountyBoundary | undefined {
  return floridaCountyBoundaries().find((c) => c.fips === fips);
}

/** Florida's extent from the county boundaries (with the Keys and the Dry Tortugas). */
export function floridaBBox(): BBox {
  return bboxOfPositions(floridaCountyBoundaries().flatMap((c) => [[c.bbox[0], c.bbox[1]], [c.bbox[2], c.bbox[3]]]));
}

export { positionsOf };
