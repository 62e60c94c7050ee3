import { DynamoAssessmentStore } from './assessment-store';
import { DynamoAssetStore } from './asset-store';
import { DynamoDeliverableStore } from './deliverable-store';
import { DynamoEvidenceStore, inventoryAssetCounter } from './evidence-store';
import { S3BlobStore } from './s3-blob-store';
import { logger } from '../observability/logger';
import { gatherEvidence } from '../domain/compliance/evidence';
import { wiring } from '../config';
import type { DeliverableDeps } from '../application/deliverables/build-package';

/**
 * The stores of the deliverable use cases, shared by the functions that run them: the assessments
 * API (start and show a job), the deliverables worker (build the package) and the job sweep.
 */
export const deliverableDeps = wiring((): DeliverableDeps => {
  const evidence = new DynamoEvidenceStore();
  return {
    jobs: new DynamoDeliverableStore(),
    assessments: new DynamoAssessmentStore(),
    assets: new DynamoAssetStore(),
    blobs: new S3BlobStore(),
    evidence: (assessment) => gatherEvidence({ assets: inventoryAssetCounter, evidence }, assessment.account_id, assessment.jurisdiction, assessment.assessment_id),
    clock: () => new Date(),
    warn: (message, details) => logger.warn(message, details),
  };
});
