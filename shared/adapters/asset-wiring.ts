import type { AssetDeps } from '../application/assets/ports';
import { wiring } from '../config';
import { DynamoAssetStore } from './asset-store';
import { DynamoAssessmentStore } from './assessment-store';
import { DynamoEvidenceStore } from './evidence-store';
import { DynamoImportStore, S3UploadReader } from './import-store';
import { DynamoOfficialBoundaryStore } from './official-boundary-store';
import { S3BlobStore } from './s3-blob-store';

/** The asset use cases' adapters: one wiring for the assets API and the import worker (in AWS and locally). */
export const assetAdapters = wiring((config): AssetDeps => ({
  assets: new DynamoAssetStore(),
  imports: new DynamoImportStore(),
  blobs: new S3BlobStore(),
  uploads: new S3UploadReader(),
  assessments: new DynamoAssessmentStore(),
  evidence: new DynamoEvidenceStore(),
  boundaries: new DynamoOfficialBoundaryStore(),
  signedUrlSeconds: config.SIGNED_URL_TTL_SECONDS,
}));
