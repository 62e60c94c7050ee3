import { DynamoAssessmentStore, newAssessmentId } from '../../shared/adapters/assessment-store';
import { deliverableDeps } from '../../shared/adapters/deliverables-wiring';
import { DynamoEvidenceStore, inventoryAssetCounter } from '../../shared/adapters/evidence-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { SqsEventQueue } from '../../shared/adapters/sqs-event-queue';
import { SqsJobStarter } from '../../shared/adapters/sqs-job-starter';
import { AssessmentService } from '../../shared/application/assessments/assessment-service';
import type { DeliverableRequestDeps } from '../../shared/application/deliverables/deliverable-requests';
import type { JobStarter } from '../../shared/application/jobs/job-start';
import { gatherEvidence } from '../../shared/domain/compliance/evidence';
import { wiring } from '../../shared/config';
import type { IdempotencyStore } from '../../shared/http/idempotency';
import { logger } from '../../shared/observability/logger';

/** What the assessment routes run on. */
export interface AssessmentRouteDeps {
  assessments: AssessmentService;
  deliverables: DeliverableRequestDeps;
  /** Sends a queued deliverable job's start to its worker. */
  jobStarter: JobStarter;
  idempotency: IdempotencyStore;
}

/** The assessment and deliverable use cases' adapters. */
export const assessmentRouteDeps = wiring((): AssessmentRouteDeps => {
  const evidence = new DynamoEvidenceStore();
  return {
    assessments: new AssessmentService({
      store: new DynamoAssessmentStore(),
      blobs: new S3BlobStore(),
      queue: new SqsEventQueue(),
      newAssessmentId,
      warn: (message, details) => logger.warn(message, details),
      evidence: (assessment) => gatherEvidence({ assets: inventoryAssetCounter, evidence }, assessment.account_id, assessment.jurisdiction, assessment.assessment_id),
    }),
    deliverables: deliverableDeps(),
    jobStarter: new SqsJobStarter(),
    idempotency: new DynamoIdempotencyStore(),
  };
});
