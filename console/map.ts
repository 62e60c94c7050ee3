import 'ol/ol.css';
import Feature from 'ol/Feature';
import OlMap from 'ol/Map';
import View from 'ol/View';
import GeoJSON from 'ol/format/GeoJSON';
import MultiPolygon from 'ol/geom/MultiPolygon';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import { Circle as CircleStyle, Fill, Stroke, Style } from 'ol/style';

/** The exposure classes an asset is coloured by, as the last analysis applied to it wrote them. */
export const EXPOSURE_CLASSES = ['exposed', 'not_exposed', 'unknown_elevation', 'existing_water', 'not_analysed'] as const;
export type ExposureClass = (typeof EXPOSURE_CLASSES)[number];

export const EXPOSURE_COLOURS: Record<ExposureClass, string> = {
  exposed: '#c0392b',
  not_exposed: '#1e8449',
  unknown_elevation: '#b9770e',
  existing_water: '#2471a3',
  not_analysed: '#7f8c8d',
};

export interface MappedAsset {
  assetId: string;
  name: string;
  lat: number;
  lon: number;
  exposureClass: ExposureClass;
}

const pointStyles = new Map(EXPOSURE_CLASSES.map((exposureClass) => [exposureClass, new Style({
  image: new CircleStyle({ radius: 7, fill: new Fill({ color: EXPOSURE_COLOURS[exposureClass] }), stroke: new Stroke({ color: '#ffffff', width: 2 }) }),
})]));
const selectedStyle = new Style({ image: new CircleStyle({ radius: 11, fill: new Fill({ color: 'rgba(0,0,0,0)' }), stroke: new Stroke({ color: '#111111', width: 3 }) }) });

/** `#rrggbb` at an opacity, as OpenLayers' `[r, g, b, a]`. */
function translucent(hex: string, alpha: number): number[] {
  return [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16)).concat(alpha);
}

/**
 * The jurisdiction's outline and the account's assets over no basemap: every layer is GeoJSON from
 * the API, so the page loads nothing from a tile server. The element's data attributes state what is
 * drawn (feature count per exposure class, the selected asset), for people and tests alike.
 */
export class AssetMap {
  private readonly outline = new VectorSource();
  private readonly assets = new VectorSource();
  private readonly extent = new VectorSource();
  private readonly extentLayer = new VectorLayer({ source: this.extent });
  private readonly map: OlMap;

  constructor(private readonly target: HTMLElement) {
    this.map = new OlMap({
      target,
      layers: [
        new VectorLayer({ source: this.outline, style: new Style({ stroke: new Stroke({ color: '#1a5276', width: 2 }), fill: new Fill({ color: 'rgba(26,82,118,0.08)' }) }) }),
        this.extentLayer,
        new VectorLayer({ source: this.assets, style: (feature) => [pointStyles.get(feature.get('exposureClass') as ExposureClass)!, ...(feature.get('selected') ? [selectedStyle] : [])] }),
      ],
      view: new View({ center: fromLonLat([-82.5, 27.8]), zoom: 6 }),
    });
  }

  showOutline(geometry: object): void {
    this.outline.clear();
    this.outline.addFeatures(new GeoJSON().readFeatures({ type: 'Feature', geometry, properties: {} }, { featureProjection: 'EPSG:3857' }));
    const extent = this.outline.getExtent();
    if (extent) this.map.getView().fit(extent, { padding: [24, 24, 24, 24] });
    this.target.dataset.outline = 'drawn';
  }

  /**
   * One flood extent (a GeoJSON Feature of the API's answer) in its layer's colour, replacing the one
   * shown; null clears it. `data-extent-polygons` counts the polygons drawn.
   */
  showExtent(feature: object | null, description: string, colour: string): void {
    this.extent.clear();
    if (feature) this.extent.addFeatures(new GeoJSON().readFeatures(feature, { featureProjection: 'EPSG:3857' }));
    this.extentLayer.setStyle(new Style({ fill: new Fill({ color: translucent(colour, 0.45) }), stroke: new Stroke({ color: colour, width: 1 }) }));
    const polygons = this.extent.getFeatures().reduce((count, drawn) => {
      const geometry = drawn.getGeometry();
      return count + (geometry instanceof MultiPolygon ? geometry.getPolygons().length : geometry ? 1 : 0);
    }, 0);
    this.target.dataset.extent = description;
    this.target.dataset.extentPolygons = String(polygons);
  }

  showAssets(assets: readonly MappedAsset[]): void {
    this.assets.clear();
    this.assets.addFeatures(assets.map((asset) => {
      const feature = new Feature({ geometry: new Point(fromLonLat([asset.lon, asset.lat])), exposureClass: asset.exposureClass, name: asset.name });
      feature.setId(asset.assetId);
      return feature;
    }));
    const counts = Object.fromEntries(EXPOSURE_CLASSES.map((exposureClass) => [exposureClass, assets.filter((asset) => asset.exposureClass === exposureClass).length]));
    this.target.dataset.assetFeatures = String(assets.length);
    this.target.dataset.exposureCounts = JSON.stringify(counts);
  }

  zoomTo(assetId: string): void {
    for (const feature of this.assets.getFeatures()) feature.set('selected', feature.getId() === assetId);
    const geometry = this.assets.getFeatureById(assetId)?.getGeometry();
    if (!geometry) return;
    this.map.getView().fit(geometry.getExtent(), { maxZoom: 12 });
    this.target.dataset.selectedAsset = assetId;
  }
}
