import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import type { ElevationSource } from '../../domain/hazards/elevation';
import type { BlobStore } from '../../ports';
import type { CogUrlElevationModel, UploadedElevationModel } from '../../domain/elevation-models/stored-model';
import type { DynamoElevationModelStore } from '../elevation-model-store';
import { UrlCogSource, type CogUrlOptions } from './cog-url';
import { elevationSourceWith } from './index';
import type { ModelLayer } from './layered';
import type { OperatorElevationModels } from './operator-models';
import { BlobModelSource } from './processed-model';
import { LruCache } from '../../lru-cache';

/** Opened models kept between requests (a ready model never changes), each with its tile cache. */
const OPEN_MODELS = 16;

/**
 * An account's ready elevation models as sources, finest resolution first and the newest first
 * among equals: where several cover a point, the most detailed answers. Uploaded models are read
 * from their tiles in the bucket, COGs registered by URL by ranges where they are.
 */
export class AccountElevationModels {
  private readonly open = new LruCache<string, Promise<BlobModelSource>>(OPEN_MODELS);
  /** Registered COGs kept open with their block caches, as the tiled models are. */
  private readonly byUrl = new LruCache<string, UrlCogSource>(OPEN_MODELS);

  constructor(
    private readonly store: Pick<DynamoElevationModelStore, 'listReady'>,
    private readonly blobs: BlobStore,
    private readonly operator?: Pick<OperatorElevationModels, 'sources'>,
    /** How registered COG URLs are judged again before each is opened (the app's mode). */
    private readonly cogUrls: CogUrlOptions = { mode: 'aws' },
  ) {}

  async sources(accountId: string): Promise<ModelLayer[]> {
    const ready = (await this.store.listReady(accountId)).filter((entry) => entry.source === 'cog_url' || entry.model_key !== null);
    ready.sort((a, b) => (a.resolution_m! - b.resolution_m!) || b.created_at.localeCompare(a.created_at));
    return Promise.all(ready.map(async (entry) => {
      if (entry.source === 'cog_url') return this.byRanges(entry);
      const source = await this.opened(entry);
      if (entry.connection?.status === 'ready') source.markConnectionReady();
      return source;
    }));
  }

  private byRanges(entry: CogUrlElevationModel): UrlCogSource {
    return this.byUrl.getOrCreate(entry.elevation_model_id, () => this.cogSource(entry));
  }

  private cogSource(entry: CogUrlElevationModel): UrlCogSource {
    return new UrlCogSource({
      elevation_model_id: entry.elevation_model_id, name: entry.name, cog_url: entry.cog_url, bbox: entry.bbox, resolution_m: entry.resolution_m,
      vertical_accuracy_m: entry.vertical_accuracy_m,
      vertical: { vertical_datum: entry.vertical_datum, units: entry.units, ...(entry.ngvd29_to_navd88_m === null ? {} : { ngvd29_to_navd88_m: entry.ngvd29_to_navd88_m }) },
    }, this.cogUrls);
  }

  /** The default elevation source with the account's own models read first wherever they cover the point, then the operator's. */
  async elevationFor(accountId: string): Promise<ElevationSource> {
    const [own, published] = await Promise.all([this.sources(accountId), this.operator?.sources() ?? []]);
    return elevationSourceWith([...own, ...published]);
  }

  private opened(entry: UploadedElevationModel): Promise<BlobModelSource> {
    const modelKey = entry.model_key!;
    return this.open.getOrCreate(modelKey, async () => {
      const bytes = await this.blobs.get(modelKey);
      if (!bytes) throw new Error(`Elevation model ${entry.elevation_model_id} has no ${modelKey}.`);
      const record = JSON.parse(bytes.toString('utf8')) as ElevationModelRecord;
      return new BlobModelSource(record, this.blobs, modelKey.slice(0, modelKey.lastIndexOf('/') + 1));
    });
  }
}
