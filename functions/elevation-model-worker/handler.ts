import type { S3Event } from 'aws-lambda';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { processDem } from '../../shared/adapters/elevation/geotiff-dem';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { processClaimedModel, processElevationUploadEvent, sweepLostElevationModels, type WorkerDeps } from './process';

let deps: WorkerDeps | undefined;

/**
 * Elevation model uploads: the bucket's ObjectCreated notification on `elevation-uploads/` starts
 * processing here, in this function (its memory is the cap). The lost-job schedule calls it as
 * well, to process again or fail the models whose worker was lost.
 */
export async function handler(event: S3Event | { source?: string }): Promise<void> {
  deps ??= { models: new DynamoElevationModelStore(), blobs: new S3BlobStore(), now: () => new Date(), processDem };
  if (!('Records' in event)) {
    for (const taken of await sweepLostElevationModels(deps)) await processClaimedModel(deps, taken);
    return;
  }
  await processElevationUploadEvent(deps, event);
}
