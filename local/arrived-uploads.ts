import { HeadObjectCommand } from '../shared/adapters/s3-commands';
import { s3 } from '../shared/adapters/aws-clients';
import { DynamoElevationModelStore } from '../shared/adapters/elevation-model-store';

export interface ArrivedUpload {
  modelId: string;
  accountId: string;
  /** What the notification AWS sends for it says: the object's key and size. */
  key: string;
  size: number;
}

/**
 * Local mode's stand-in for the bucket notification on elevation uploads: the pending models
 * (created after `since`, a Query on their sparse index) whose GeoTIFF has arrived.
 */
export async function arrivedElevationUploads(bucket: string, since: Date, store = new DynamoElevationModelStore()): Promise<ArrivedUpload[]> {
  const arrived: ArrivedUpload[] = [];
  for (const entry of await store.listPending(since)) {
    let size: number;
    try {
      size = (await s3().send(new HeadObjectCommand({ Bucket: bucket, Key: entry.upload_key }))).ContentLength ?? 0;
    } catch {
      continue; // not uploaded yet
    }
    arrived.push({
      modelId: entry.elevation_model_id,
      accountId: entry.account_id,
      key: entry.upload_key,
      size,
    });
  }
  return arrived;
}
