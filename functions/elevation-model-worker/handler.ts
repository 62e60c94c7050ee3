import type { S3Event } from 'aws-lambda';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { processElevationUploadEvent, type WorkerDeps } from './process';

let deps: WorkerDeps | undefined;

/** Elevation model uploads: the bucket's ObjectCreated notification on `elevation-uploads/` starts processing here. */
export async function handler(event: S3Event): Promise<void> {
  deps ??= { models: new DynamoElevationModelStore(), blobs: new S3BlobStore(), now: () => new Date() };
  await processElevationUploadEvent(deps, event);
}
