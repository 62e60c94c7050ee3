import { GetObjectCommand, PutObjectCommand } from './s3-commands';
import { s3 } from './aws-clients';
import { requiredSetting } from '../config';
import { bboxesIntersect, type BBox } from '../domain/hazards/geo';
import type { HazardLayer, HazardLayerSource, HazardLayerSummary, LayerComponent } from '../domain/hazards/hazard-layers';

export const HAZARD_LAYER_PREFIX = 'hazard-layers/';
const INDEX_KEY = `${HAZARD_LAYER_PREFIX}index.json`;
const INDEX_TTL_MS = 60_000;

type IndexEntry = HazardLayerSummary & { key: string };

/**
 * Operator-loaded layers in the data bucket: one GeoJSON object per layer under `hazard-layers/`
 * and an index of their extents, so a request reads only the layers that meet its boundary.
 */
export class S3HazardLayerStore implements HazardLayerSource {
  private index: { entries: IndexEntry[]; loadedAt: number } | undefined;
  private readonly layers = new Map<string, Promise<HazardLayer['features']>>();

  constructor(private readonly bucket = requiredSetting('BUCKET_NAME')) {}

  async list(): Promise<HazardLayerSummary[]> {
    return (await this.entries(true)).map(({ key: _key, ...summary }) => summary);
  }

  async layersFor(component: LayerComponent, box: BBox): Promise<HazardLayer[]> {
    const matching = (await this.entries(false)).filter((e) => e.component === component && bboxesIntersect(e.bbox, box));
    return Promise.all(matching.map(async ({ key, feature_count: _count, ...summary }) => ({ ...summary, features: await this.features(key) })));
  }

  /** Writes the layer, then the index entry (replacing a layer of the same id). */
  async save(layer: HazardLayer): Promise<void> {
    const key = `${HAZARD_LAYER_PREFIX}${layer.layer_id}.geojson`;
    const collection = {
      type: 'FeatureCollection',
      features: layer.features.map((f) => ({ type: 'Feature', properties: { wse_navd88_m: f.wse_navd88_m }, geometry: f.geometry })),
    };
    await s3().send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: JSON.stringify(collection), ContentType: 'application/geo+json' }));
    const { features, ...summary } = layer;
    const entries = (await this.entries(true)).filter((e) => e.layer_id !== layer.layer_id);
    entries.push({ ...summary, feature_count: features.length, key });
    await s3().send(new PutObjectCommand({ Bucket: this.bucket, Key: INDEX_KEY, Body: JSON.stringify({ layers: entries }), ContentType: 'application/json' }));
    this.index = { entries, loadedAt: Date.now() };
    this.layers.delete(key);
  }

  private async entries(fresh: boolean): Promise<IndexEntry[]> {
    if (!fresh && this.index && Date.now() - this.index.loadedAt < INDEX_TTL_MS) return this.index.entries;
    const body = await this.read(INDEX_KEY);
    this.index = { entries: body ? (JSON.parse(body) as { layers: IndexEntry[] }).layers : [], loadedAt: Date.now() };
    return this.index.entries;
  }

  private features(key: string): Promise<HazardLayer['features']> {
    let features = this.layers.get(key);
    if (!features) {
      features = this.read(key).then((body) => {
        const collection = JSON.parse(body ?? '{"features":[]}') as { features: { geometry: HazardLayer['features'][number]['geometry']; properties: { wse_navd88_m: number } }[] };
        return collection.features.map((f) => ({ geometry: f.geometry, wse_navd88_m: f.properties.wse_navd88_m }));
      });
      features.catch(() => this.layers.delete(key));
      this.layers.set(key, features);
    }
    return features;
  }

  private async read(key: string): Promise<string | undefined> {
    try {
      const result = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return await result.Body!.transformToString();
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as Error).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }
}
