import { appConfig } from '../../shared/config';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import type { IdempotencyStore } from '../../shared/http/idempotency';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import type { BlobStore } from '../../shared/ports';
import type { CogUrlOptions } from '../../shared/adapters/elevation/cog-url';

/** What the elevation model routes reach outside the domain; tests pass their own. */
export interface ElevationModelDeps {
  models: () => DynamoElevationModelStore;
  blobs: () => BlobStore;
  signedUrlSeconds: () => number;
  idempotency: () => IdempotencyStore;
  /** How a COG URL is judged: loopback over http only in local mode. */
  cogUrls: () => CogUrlOptions;
}

let models: DynamoElevationModelStore | undefined;
let blobs: S3BlobStore | undefined;
let idempotency: DynamoIdempotencyStore | undefined;

export const elevationModelDeps: ElevationModelDeps = {
  models: () => (models ??= new DynamoElevationModelStore()),
  blobs: () => (blobs ??= new S3BlobStore()),
  signedUrlSeconds: () => appConfig().SIGNED_URL_TTL_SECONDS,
  idempotency: () => (idempotency ??= new DynamoIdempotencyStore()),
  cogUrls: () => ({ mode: appConfig().APP_MODE }),
};
