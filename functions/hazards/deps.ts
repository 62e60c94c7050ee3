import { randomUUID } from 'node:crypto';
import { wiring } from '../../shared/config';
import { hazardAdapters } from '../../shared/adapters/hazard-wiring';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { BlobElevationModelFiles } from '../../shared/adapters/elevation/model-files';
import { cogUrlReader } from '../../shared/adapters/elevation/cog-url';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { SqsJobStarter } from '../../shared/adapters/sqs-job-starter';
import type { ElevationModelDeps } from '../../shared/application/elevation-models/use-cases';
import { queuedHazardJobs } from '../../shared/application/hazards/hazard-jobs';
import type { HazardDeps } from '../../shared/application/hazards/ports';

/** The hazard use cases' adapters; an analysis too large to answer at once goes to the hazard job queue. */
const hazardJobQueue = queuedHazardJobs(new SqsJobStarter());
export const hazardDeps: HazardDeps = { ...hazardAdapters(), jobRunner: () => hazardJobQueue };

/** The elevation model use cases' adapters. */
export const elevationModelDeps = wiring((config): ElevationModelDeps => ({
  models: new DynamoElevationModelStore(),
  files: new BlobElevationModelFiles(new S3BlobStore()),
  // Loopback over http only in local mode.
  cogs: cogUrlReader({ mode: config.APP_MODE }),
  signedUrlSeconds: config.SIGNED_URL_TTL_SECONDS,
  newId: () => `em_${randomUUID().replace(/-/g, '')}`,
}));

export const idempotencyStore = wiring(() => new DynamoIdempotencyStore());
