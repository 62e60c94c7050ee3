import { DynamoResourceStore } from '../../shared/adapters/resource-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { ResourceLibrary } from '../../shared/application/library/resource-library';
import { wiring } from '../../shared/config';

/** One library per container, so its search index outlives a single request. */
export const resourceLibrary = wiring((config) => new ResourceLibrary({
  store: new DynamoResourceStore(),
  signer: new S3BlobStore(),
  signedUrlTtlSeconds: config.SIGNED_URL_TTL_SECONDS,
}));
