import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import type { BBox } from '../../domain/hazards/geo';
import type { BlobStore } from '../../ports';
import { OPERATOR_MODELS_INDEX, operatorModelPrefix } from './processed-keys';
import { BlobModelSource, deleteProcessedModel, writeProcessedModel } from './processed-model';
import { MODEL_FILE } from './tiled-model';

/** One published model in the operator index. */
export interface OperatorModelEntry {
  elevation_model_id: string;
  name: string;
  model_key: string;
  resolution_m: number;
  bbox: BBox;
  published_at: string;
}

interface OperatorIndex {
  models: OperatorModelEntry[];
}

const prefixOf = (modelKey: string) => modelKey.slice(0, -MODEL_FILE.length);

/** How long an instance trusts the index it read: a newly published model is used within this time. */
const INDEX_TTL_MS = 5 * 60_000;

/**
 * The elevation models the operator publishes for every account (bin/dem-load.ts --publish), in
 * the blob store beside the accounts' own: processed the same way, each under
 * `elevation-models/operator/<id>/`, listed in `elevation-models/operator/index.json`.
 */
export class OperatorElevationModels {
  private index: { models: Promise<BlobModelSource[]>; readAt: number } | undefined;

  constructor(private readonly blobs: BlobStore, private readonly clock: () => number = Date.now) {}

  /** The published models, finest first. */
  sources(): Promise<BlobModelSource[]> {
    const now = this.clock();
    if (!this.index || now - this.index.readAt > INDEX_TTL_MS) {
      const models = this.open();
      models.catch(() => (this.index = undefined));
      this.index = { models, readAt: now };
    }
    return this.index.models;
  }

  async list(): Promise<OperatorModelEntry[]> {
    const bytes = await this.blobs.get(OPERATOR_MODELS_INDEX);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as OperatorIndex).models : [];
  }

  /** The record of the published model with this id, as stored; undefined when none is published. */
  async publishedRecord(modelId: string): Promise<ElevationModelRecord | undefined> {
    const entry = (await this.list()).find((m) => m.elevation_model_id === modelId);
    return entry ? this.record(entry.model_key) : undefined;
  }

  /**
   * Writes a processed model (tiles, then model.json) under a prefix of its own, lists it in the
   * index, then removes the model it replaces (same id): readers see the old or the new, never a mix.
   */
  async publish(record: ElevationModelRecord, tiles: Map<string, Uint8Array>, now: Date): Promise<OperatorModelEntry> {
    const model_key = await writeProcessedModel(this.blobs, operatorModelPrefix(record.elevation_model_id, now.toISOString().replace(/[-:.]/g, '')), record, tiles);
    const models = await this.list();
    const previous = models.find((m) => m.elevation_model_id === record.elevation_model_id);
    const entry: OperatorModelEntry = {
      elevation_model_id: record.elevation_model_id, name: record.name, model_key, resolution_m: record.resolution_m, bbox: record.bbox, published_at: now.toISOString(),
    };
    await this.writeIndex([...models.filter((m) => m !== previous), entry]);
    if (previous && previous.model_key !== model_key) await this.deleteObjects(previous);
    return entry;
  }

  /** Takes a model out of the index, then removes its objects; false when no such model is published. */
  async remove(modelId: string): Promise<boolean> {
    const models = await this.list();
    const entry = models.find((m) => m.elevation_model_id === modelId);
    if (!entry) return false;
    await this.writeIndex(models.filter((m) => m !== entry));
    await this.deleteObjects(entry);
    return true;
  }

  private async deleteObjects(entry: OperatorModelEntry): Promise<void> {
    const record = await this.record(entry.model_key);
    if (record) await deleteProcessedModel(this.blobs, prefixOf(entry.model_key), record);
  }

  private async writeIndex(models: OperatorModelEntry[]): Promise<void> {
    const index: OperatorIndex = { models };
    await this.blobs.put(OPERATOR_MODELS_INDEX, `${JSON.stringify(index, null, 1)}\n`, 'application/json');
    this.index = undefined;
  }

  private async record(modelKey: string): Promise<ElevationModelRecord | undefined> {
    const bytes = await this.blobs.get(modelKey);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as ElevationModelRecord) : undefined;
  }

  private async open(): Promise<BlobModelSource[]> {
    const models = [...await this.list()].sort((a, b) => a.resolution_m - b.resolution_m);
    const opened = await Promise.all(models.map(async (entry) => {
      const record = await this.record(entry.model_key);
      return record ? new BlobModelSource(record, this.blobs, prefixOf(entry.model_key)) : undefined;
    }));
    return opened.filter((source): source is BlobModelSource => source !== undefined);
  }
}
