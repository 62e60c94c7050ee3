import { HeadObjectCommand } from '../shared/adapters/s3-commands';
import { s3 } from '../shared/adapters/aws-clients';
import { DynamoElevationModelStore } from '../shared/adapters/elevation-model-store';
import { uploadKeysOf } from '../shared/domain/elevation-models/stored-model';

export interface ArrivedUpload {
  modelId: string;
  accountId: string;
  /** What the notification AWS sends for it says: the object's key and size. */
  key: string;
  size: number;
}

/**
 * Local mode's stand-in for the bucket notification on elevation uploads: the pending models
 * (created after `since`, a Query on their sparse index) whose GeoTIFF has arrived (every part of
 * it, for a model uploaded in several), each as the notification of its last part would say it.
 */
export async function arrivedElevationUploads(bucket: string, since: Date, store = new DynamoElevationModelStore()): Promise<ArrivedUpload[]> {
  const arrived: ArrivedUpload[] = [];
  for (const entry of await store.listPending(since)) {
    const keys = uploadKeysOf(entry);
    const sizes = await Promise.all(keys.map((key) => s3().send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then((head) => head.ContentLength ?? 0, () => undefined)));
    // Not uploaded yet (or not every part).
    if (sizes.includes(undefined)) continue;
    arrived.push({ modelId: entry.elevation_model_id, accountId: entry.account_id, key: keys.at(-1)!, size: sizes.at(-1)! });
  }
  return arrived;
}
