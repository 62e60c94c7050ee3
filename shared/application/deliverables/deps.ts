import { DynamoAssessmentStore } from '../../adapters/assessment-store';
import { DynamoAssetStore } from '../../adapters/asset-store';
import { DynamoDeliverableStore } from '../../adapters/deliverable-store';
import { DynamoEvidenceStore, inventoryAssetCounter } from '../../adapters/evidence-store';
import { S3BlobStore } from '../../adapters/s3-blob-store';
import { logger } from '../../observability/logger';
import { gatherEvidence } from '../../domain/compliance/evidence';
import type { DeliverableDeps } from './build-package';

let deps: DeliverableDeps | undefined;

/** The stores the deliverable routes and worker use, created on first use (cold start). */
export function deliverableDeps(): DeliverableDeps {
  deps ??= {
    jobs: new DynamoDeliverableStore(),
    assessments: new DynamoAssessmentStore(),
    assets: new DynamoAssetStore(),
    blobs: new S3BlobStore(),
    evidence: (assessment) => gatherEvidence({ assets: inventoryAssetCounter, evidence: new DynamoEvidenceStore() }, assessment.account_id, assessment.jurisdiction, assessment.assessment_id),
    clock: () => new Date(),
    warn: (message, details) => logger.warn(message, details),
  };
  return deps;
}
