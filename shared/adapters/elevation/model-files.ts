import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import type { ElevationModelFiles } from '../../domain/elevation-models/ports';
import type { BlobStore } from '../../ports';
import { MAX_DEM_UPLOAD_BYTES, accountModelPrefix, elevationUploadKey } from './processed-keys';
import { deleteProcessedModel } from './processed-model';

/** Account models' uploads and processed tiles in the bucket, under the prefixes the stack grants. */
export class BlobElevationModelFiles implements ElevationModelFiles {
  readonly maxUploadBytes = MAX_DEM_UPLOAD_BYTES;

  constructor(private readonly blobs: BlobStore) {}

  uploadKey(accountId: string, modelId: string): string {
    return elevationUploadKey(accountId, modelId);
  }

  uploadUrl(key: string, seconds: number): Promise<string> {
    return this.blobs.signedPutUrl(key, seconds);
  }

  async deleteModelFiles(accountId: string, modelId: string, uploadKey: string, modelKey: string | null): Promise<void> {
    await this.blobs.delete(uploadKey);
    if (!modelKey) return;
    const record = await this.blobs.get(modelKey);
    if (record) await deleteProcessedModel(this.blobs, accountModelPrefix(accountId, modelId), JSON.parse(record.toString('utf8')) as ElevationModelRecord);
  }
}
