import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import type { ElevationModelFiles } from '../../domain/elevation-models/ports';
import type { BlobStore } from '../../ports';
import { CONNECTION_TILE_SIDE } from '../../domain/elevation-models/connection';
import { tileWindows } from '../../domain/hazards/tiled-connection';
import { MAX_DEM_UPLOAD_BYTES, accountModelPrefix, connectionKeys, elevationUploadKey } from './processed-keys';
import { deleteProcessedModel } from './processed-model';

/** Account models' uploads and processed tiles in the bucket, under the prefixes the stack grants. */
export class BlobElevationModelFiles implements ElevationModelFiles {
  readonly maxUploadBytes = MAX_DEM_UPLOAD_BYTES;

  constructor(private readonly blobs: BlobStore) {}

  uploadKey(accountId: string, modelId: string, part: number): string {
    return elevationUploadKey(accountId, modelId, part);
  }

  uploadUrl(key: string, seconds: number): Promise<string> {
    return this.blobs.signedPutUrl(key, seconds);
  }

  /** In as few requests as the bucket allows: a model at the cell limit is tens of thousands of objects. */
  async deleteModelFiles(accountId: string, modelId: string, uploadKeys: readonly string[], modelKey: string | null): Promise<void> {
    await this.blobs.deleteMany(uploadKeys);
    if (!modelKey) return;
    const record = await this.blobs.get(modelKey);
    if (!record) return;
    const prefix = accountModelPrefix(accountId, modelId);
    const model = JSON.parse(record.toString('utf8')) as ElevationModelRecord;
    // Its connection objects first: the record is what names the tiles they were traced in.
    const keys = connectionKeys(prefix);
    const { width, height } = model.pyramid.levels[0]!;
    const connection = tileWindows(width, height, CONNECTION_TILE_SIDE).flatMap((tile) => [keys.trace(tile), keys.rim(tile), keys.spill(tile)]);
    await this.blobs.deleteMany([...connection, keys.status, keys.tiles]);
    await deleteProcessedModel(this.blobs, prefix, model);
  }
}
