import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import type { ElevationSource } from '../../domain/hazards/elevation';
import type { BlobStore } from '../../ports';
import type { DynamoElevationModelStore, ElevationModelEntry } from '../elevation-model-store';
import { elevationSourceWith } from './index';
import type { OperatorElevationModels } from './operator-models';
import { BlobModelSource } from './processed-model';

/** Opened models kept between requests (a ready model never changes), each with its tile cache. */
const OPEN_MODELS = 16;

/**
 * An account's ready elevation models as sources, finest resolution first and the newest first
 * among equals: where several cover a point, the most detailed answers.
 */
export class AccountElevationModels {
  private readonly open = new Map<string, Promise<BlobModelSource>>();

  constructor(
    private readonly store: Pick<DynamoElevationModelStore, 'listReady'>,
    private readonly blobs: BlobStore,
    private readonly operator?: Pick<OperatorElevationModels, 'sources'>,
  ) {}

  async sources(accountId: string): Promise<BlobModelSource[]> {
    const ready = (await this.store.listReady(accountId)).filter((entry) => entry.model_key !== null);
    ready.sort((a, b) => (a.resolution_m! - b.resolution_m!) || b.created_at.localeCompare(a.created_at));
    return Promise.all(ready.map((entry) => this.opened(entry)));
  }

  /** The default elevation source with the account's own models read first wherever they cover the point, then the operator's. */
  async elevationFor(accountId: string): Promise<ElevationSource> {
    const [own, published] = await Promise.all([this.sources(accountId), this.operator?.sources() ?? []]);
    return elevationSourceWith([...own, ...published]);
  }

  private opened(entry: ElevationModelEntry): Promise<BlobModelSource> {
    const modelKey = entry.model_key!;
    let opening = this.open.get(modelKey);
    if (opening) {
      this.open.delete(modelKey);
    } else {
      opening = (async () => {
        const bytes = await this.blobs.get(modelKey);
        if (!bytes) throw new Error(`Elevation model ${entry.elevation_model_id} has no ${modelKey}.`);
        const record = JSON.parse(bytes.toString('utf8')) as ElevationModelRecord;
        return new BlobModelSource(record, this.blobs, modelKey.slice(0, modelKey.lastIndexOf('/') + 1));
      })();
      opening.catch(() => this.open.delete(modelKey));
    }
    this.open.set(modelKey, opening);
    if (this.open.size > OPEN_MODELS) this.open.delete(this.open.keys().next().value!);
    return opening;
  }
}
