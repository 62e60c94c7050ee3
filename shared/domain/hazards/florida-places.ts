import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { unpackTopology } from '../../data/packed-arcs';
import { positionsOf } from './florida-counties';
import { bboxOfPositions, type BBox } from './geo';

export interface PlaceBoundary {
  /** The Census place GEOID: state 12 and the 5-digit place code. */
  geoid: string;
  name: string;
  geometry: Polygon | MultiPolygon;
  bbox: BBox;
}

let boundaries: Map<string, PlaceBoundary> | undefined;

/** The boundary of one of Florida's 413 incorporated places (Census 2018, 1:500,000), decoded on first use. */
export function placeBoundaryByGeoid(geoid: string): PlaceBoundary | undefined {
  if (!boundaries) {
    // Required here, not imported: the 250 KB of arcs would otherwise be built at every cold start.
    const placesTopology = require('../../data/jurisdictions/fl-place-boundaries.topo.json') as typeof import('../../data/jurisdictions/fl-place-boundaries.topo.json');
    const topology = unpackTopology<Topology<{ places: GeometryCollection<{ name: string }> }>>(placesTopology);
    const collection = feature(topology, topology.objects.places) as unknown as { features: Feature<Polygon | MultiPolygon, { name: string }>[] };
    boundaries = new Map(collection.features.map((f) => [String(f.id), { geoid: String(f.id), name: f.properties.name, geometry: f.geometry, bbox: bboxOfPositions(positionsOf(f.geometry)) }]));
  }
  return boundaries.get(geoid);
}
