import type { MultiPolygon, Polygon } from 'geojson';
import Flatbush from 'flatbush';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { bboxOfPositions, type BBox } from './geo';
import { positionsOf } from './florida-counties';
import { METRES_PER_FOOT } from './units';

export type LayerComponent = 'surge' | 'rainfall';

/** An operator-loaded flood layer: polygons with a water-surface elevation (NAVD88) for one return period. */
export interface HazardLayer {
  layer_id: string;
  component: LayerComponent;
  return_period_years: number;
  name: string;
  source: string;
  loaded_at: string;
  bbox: BBox;
  features: { geometry: Polygon | MultiPolygon; wse_navd88_m: number }[];
}

export type HazardLayerSummary = Omit<HazardLayer, 'features'> & { feature_count: number };

/** Secondary port: the loaded layers of one component whose extent meets a box. */
export interface HazardLayerSource {
  layersFor(component: LayerComponent, box: BBox): Promise<HazardLayer[]>;
}

export interface LayerParseResult {
  features: HazardLayer['features'];
  bbox: BBox;
  errors: string[];
}

/**
 * Reads a GeoJSON FeatureCollection whose polygons carry `wse_navd88_m` or `wse_navd88_ft`
 * (water-surface elevation, NAVD88). Other geometries and features without a level are reported.
 */
export function parseLayerGeoJson(input: unknown): LayerParseResult {
  const errors: string[] = [];
  const collection = input as { type?: string; features?: unknown[] };
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    return { features: [], bbox: [0, 0, 0, 0], errors: ['Expected a GeoJSON FeatureCollection.'] };
  }
  const features: HazardLayer['features'] = [];
  collection.features.forEach((raw, i) => {
    const feature = raw as { geometry?: { type?: string }; properties?: Record<string, unknown> };
    const type = feature?.geometry?.type;
    if (type !== 'Polygon' && type !== 'MultiPolygon') {
      errors.push(`features[${i}]: geometry must be Polygon or MultiPolygon, not ${type ?? 'missing'}.`);
      return;
    }
    const props = feature.properties ?? {};
    const metres = typeof props.wse_navd88_m === 'number' ? props.wse_navd88_m
      : typeof props.wse_navd88_ft === 'number' ? props.wse_navd88_ft * METRES_PER_FOOT : undefined;
    if (metres === undefined || !Number.isFinite(metres) || Math.abs(metres) > 30) {
      errors.push(`features[${i}]: needs a numeric wse_navd88_m or wse_navd88_ft property (within ±30 m).`);
      return;
    }
    features.push({ geometry: feature.geometry as Polygon | MultiPolygon, wse_navd88_m: metres });
  });
  const bbox = features.length > 0 ? bboxOfPositions(features.flatMap((f) => positionsOf(f.geometry))) : [0, 0, 0, 0] as BBox;
  return { features, bbox, errors };
}

/** Water-surface elevation of the highest layer polygon containing a point, if any. */
export class LayerSurface {
  private readonly index: Flatbush | undefined;
  private readonly features: HazardLayer['features'];

  constructor(layers: readonly HazardLayer[]) {
    this.features = layers.flatMap((l) => l.features);
    if (this.features.length === 0) return;
    this.index = new Flatbush(this.features.length);
    for (const f of this.features) {
      const [w, s, e, n] = bboxOfPositions(positionsOf(f.geometry));
      this.index.add(w, s, e, n);
    }
    this.index.finish();
  }

  wseAt(lon: number, lat: number): number | undefined {
    if (!this.index) return undefined;
    let best: number | undefined;
    for (const i of this.index.search(lon, lat, lon, lat)) {
      const f = this.features[i]!;
      if ((best === undefined || f.wse_navd88_m > best) && booleanPointInPolygon([lon, lat], f.geometry)) best = f.wse_navd88_m;
    }
    return best;
  }

  get allFeatures(): HazardLayer['features'] {
    return this.features;
  }
}
