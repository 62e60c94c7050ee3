import { DynamoAssetStore } from '../../adapters/asset-store';
import { DynamoAssessmentStore } from '../../adapters/assessment-store';
import { DynamoEvidenceStore } from '../../adapters/evidence-store';
import { DynamoIdempotencyStore } from '../../adapters/idempotency-store';
import { DynamoImportStore, S3UploadReader } from '../../adapters/import-store';
import { S3BlobStore } from '../../adapters/s3-blob-store';
import { DynamoOfficialBoundaryStore } from '../../adapters/official-boundary-store';
import { appConfig } from '../../config';

/** The assets function's adapters, created on first use (configuration is read at cold start). */
let assetStore: DynamoAssetStore | undefined;
let importStore: DynamoImportStore | undefined;
let blobStore: S3BlobStore | undefined;
let uploadReader: S3UploadReader | undefined;
let idempotencyStore: DynamoIdempotencyStore | undefined;
let assessmentStore: DynamoAssessmentStore | undefined;
let evidenceStore: DynamoEvidenceStore | undefined;
let boundaryStore: DynamoOfficialBoundaryStore | undefined;

export const assetDeps = {
  assets: () => (assetStore ??= new DynamoAssetStore()),
  imports: () => (importStore ??= new DynamoImportStore()),
  blobs: () => (blobStore ??= new S3BlobStore()),
  uploads: () => (uploadReader ??= new S3UploadReader()),
  idempotency: () => (idempotencyStore ??= new DynamoIdempotencyStore()),
  /** `assessment_id` on an import: the assessment it links to, and the link as evidence. */
  assessments: () => (assessmentStore ??= new DynamoAssessmentStore()),
  evidence: () => (evidenceStore ??= new DynamoEvidenceStore()),
  /** Accounts' official jurisdiction boundaries: they win over the Census ones in import checks. */
  boundaries: () => (boundaryStore ??= new DynamoOfficialBoundaryStore()),
  signedUrlSeconds: () => appConfig().SIGNED_URL_TTL_SECONDS,
};
