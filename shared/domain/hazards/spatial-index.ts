import Flatbush from 'flatbush';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import type { BBox } from './geo';
import type { SurveyedElevation } from './surveyed-elevation';

export interface AssetPoint {
  asset_id: string;
  name: string;
  category: string | null;
  lat: number;
  lon: number;
  /** A surveyed ground or first-floor elevation from the asset's file: used before any DEM. */
  surveyed?: SurveyedElevation;
}

/** A static R-tree over asset points: a boundary query visits only the assets in its box. */
export class AssetIndex<T extends AssetPoint = AssetPoint> {
  private readonly index: Flatbush | undefined;

  constructor(readonly assets: readonly T[]) {
    if (assets.length === 0) return;
    this.index = new Flatbush(assets.length);
    for (const a of assets) this.index.add(a.lon, a.lat, a.lon, a.lat);
    this.index.finish();
  }

  within(geometry: Polygon | MultiPolygon, bbox: BBox): T[] {
    if (!this.index) return [];
    return this.index.search(bbox[0], bbox[1], bbox[2], bbox[3])
      .map((i) => this.assets[i]!)
      .filter((a) => booleanPointInPolygon([a.lon, a.lat], geometry));
  }
}

/** The baseline the index is measured against: every asset tested against the polygon. */
export function assetsWithinNaive<T extends AssetPoint>(assets: readonly T[], geometry: Polygon | MultiPolygon): T[] {
  return assets.filter((a) => booleanPointInPolygon([a.lon, a.lat], geometry));
}
