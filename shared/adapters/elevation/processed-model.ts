import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import { tileKey } from '../../domain/elevation-models/pyramid';
import type { CachedConnection } from '../../domain/hazards/elevation';
import type { BlobStore } from '../../ports';
import { BlobCachedConnection } from './connection-cache';
import type { ProcessedDem } from './geotiff-dem';
import { MODEL_FILE, TiledModelSource } from './tiled-model';

/** Every object a processed model consists of: its tiles, then `model.json`. */
export function processedModelKeys(prefix: string, record: Pick<ElevationModelRecord, 'pyramid'>): string[] {
  const tiles = record.pyramid.levels.flatMap((level) => level.tiles.map((tile) => `${prefix}${tileKey(level.level, tile)}`));
  return [...tiles, `${prefix}${MODEL_FILE}`];
}

/**
 * Writes a model's tiles under `prefix` as processing hands them over (one window's at a time),
 * remembering each, so that a run that fails afterwards removes what it wrote.
 */
export class ModelTileWriter {
  private readonly written: string[] = [];

  constructor(private readonly blobs: BlobStore, private readonly prefix: string) {}

  async write(tiles: Map<string, Uint8Array>): Promise<void> {
    for (const [key, bytes] of tiles) {
      await this.blobs.put(`${this.prefix}${key}`, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'application/gzip');
      this.written.push(`${this.prefix}${key}`);
    }
  }

  async discard(): Promise<void> {
    await this.blobs.deleteMany(this.written.splice(0)).catch(() => undefined);
  }
}

/**
 * Writes a processed model to the blob store: tiles first (those not yet written through `writer`)
 * and `model.json` last, so a model is never read half-written; if a write fails, every tile
 * written is removed and the error rethrown.
 */
export async function writeProcessedModel(blobs: BlobStore, prefix: string, record: ElevationModelRecord, tiles: Map<string, Uint8Array>, writer = new ModelTileWriter(blobs, prefix)): Promise<string> {
  try {
    await writer.write(tiles);
    const modelKey = `${prefix}${MODEL_FILE}`;
    await blobs.put(modelKey, `${JSON.stringify(record)}\n`, 'application/json');
    return modelKey;
  } catch (error) {
    await writer.discard();
    throw error;
  }
}

/** The tiles, then `model.json` last (a reader never finds the record without its tiles). */
export async function deleteProcessedModel(blobs: BlobStore, prefix: string, record: Pick<ElevationModelRecord, 'pyramid'>): Promise<void> {
  await blobs.deleteMany(processedModelKeys(prefix, record));
}

/**
 * A processed model read from the blob store (S3 in AWS, the S3 emulator locally): each window
 * fetches only the tiles it touches, whole-object GETs of a few hundred KB at most. It is a tiled
 * model whose tiles are objects under `prefix` instead of files in a directory.
 */
export class BlobModelSource extends TiledModelSource {
  private connectionReady = false;
  private connection?: Promise<BlobCachedConnection | undefined>;

  constructor(record: ElevationModelRecord, private readonly blobs: BlobStore, private readonly prefix: string) {
    super(record, prefix, async (key) => {
      const bytes = await blobs.get(`${prefix}${key}`);
      if (!bytes) throw new Error(`Elevation model ${record.elevation_model_id} is missing its tile ${key}.`);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
  }

  /** Told by the account's listing that the model's connection run is ready (a ready cache never changes). */
  markConnectionReady(): void {
    this.connectionReady = true;
  }

  /** The model's connection cache once its run is ready; undefined before (the bucket is not asked). */
  cachedConnection(): Promise<CachedConnection | undefined> {
    if (!this.connectionReady) return Promise.resolve(undefined);
    if (!this.connection) {
      const opened = BlobCachedConnection.open(this.blobs, this.prefix, this.record);
      // Not kept unless found: a read that failed, or found no cache, is made again by the next answer.
      opened.then((cache) => cache ?? this.forget(opened), () => this.forget(opened));
      this.connection = opened;
    }
    return this.connection;
  }

  private forget(opened: Promise<BlobCachedConnection | undefined>): void {
    if (this.connection === opened) this.connection = undefined;
  }
}

/** What describes a model besides what processing finds. */
export interface ModelMetadata {
  elevation_model_id: string;
  name: string;
  source_vertical_datum: ElevationModelRecord['source_vertical_datum'];
  vertical_accuracy_m: number | null;
  surface_model: boolean;
  source?: string;
}

/** The `model.json` of a processed GeoTIFF (the worker and the operator CLI write the same). */
export function processedModelRecord(processed: ProcessedDem, meta: ModelMetadata): ElevationModelRecord {
  return {
    elevation_model_id: meta.elevation_model_id, name: meta.name, crs: processed.crs,
    resolution_m: Math.round(processed.index.resolution_m * 100) / 100,
    bbox: processed.index.bbox, vertical_datum: processed.index.vertical_datum, source_vertical_datum: meta.source_vertical_datum,
    vertical_conversion: processed.vertical_conversion,
    vertical_accuracy_m: meta.vertical_accuracy_m,
    surface_model: meta.surface_model,
    ...(meta.source ? { source: meta.source } : {}),
    pyramid: processed.index,
  };
}
