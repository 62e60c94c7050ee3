import { appConfig } from '../../shared/config';
import { DynamoResourceStore } from '../../shared/adapters/resource-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { ResourceLibrary } from '../../shared/domain/library/library';

let library: ResourceLibrary | undefined;

/** One library per container, so its search index outlives a single request. */
export function resourceLibrary(): ResourceLibrary {
  library ??= new ResourceLibrary({
    store: new DynamoResourceStore(),
    signer: new S3BlobStore(),
    signedUrlTtlSeconds: appConfig().SIGNED_URL_TTL_SECONDS,
  });
  return library;
}
