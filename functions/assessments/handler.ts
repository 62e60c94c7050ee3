import { createGroupHandler } from '../../shared/http/pipeline';
import { assessmentRoutes } from '../../shared/routes/assessments';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { logger } from '../../shared/observability/logger';
import { withIdempotency, type IdempotencyStore } from '../../shared/http/idempotency';
import type { RouteImplementation, RouteRequest } from '../../shared/http/types';
import { DynamoAssessmentStore, newAssessmentId } from '../../shared/adapters/assessment-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { DynamoEvidenceStore, inventoryAssetCounter } from '../../shared/adapters/evidence-store';
import { gatherEvidence } from '../../shared/domain/compliance/evidence';
import { SqsEventQueue } from '../../shared/adapters/sqs-event-queue';
import { AssessmentService } from '../../shared/domain/assessments/service';
import { etagOf, viewOf, type Assessment } from '../../shared/domain/assessments/model';
import type {
  createAssessmentRoute, createDeliverablesRoute, getAssessmentRoute, getDeliverablesRoute, listAssessmentsRoute, prefillMethodologyRoute, recordDepConfirmationRoute, submitAssessmentRoute, updateAssessmentRoute,
} from '../../shared/routes/assessments';
import { deliverableView, startDeliverables } from '../../shared/domain/deliverables/requests';
import { deliverableDeps } from '../../shared/application/deliverables/deps';
import { deliverableStart } from '../../shared/application/deliverables/deliverable-start';
import { startRecordedJob } from '../../shared/application/jobs/starter';

// Created on first use (cold start), after the environment is in place.
let service: AssessmentService | undefined;
let idempotency: IdempotencyStore | undefined;

const assessments = () => (service ??= new AssessmentService({
  store: new DynamoAssessmentStore(),
  blobs: new S3BlobStore(),
  queue: new SqsEventQueue(),
  newAssessmentId,
  warn: (message, details) => logger.warn(message, details),
  evidence: (assessment) => gatherEvidence({ assets: inventoryAssetCounter, evidence: new DynamoEvidenceStore() }, assessment.account_id, assessment.jurisdiction, assessment.assessment_id),
}));
const view = async (assessment: Assessment) => viewOf(assessment, await assessments().evidenceFor(assessment));
const idempotencyStore = () => (idempotency ??= new DynamoIdempotencyStore());

const accountOf = (request: RouteRequest) => request.account!.accountId;
const withVersion = (assessment: Assessment) => ({ ETag: etagOf(assessment.version) });

const createAssessment: RouteImplementation<typeof createAssessmentRoute> = (request) => withIdempotency(request, idempotencyStore(), async () => {
  const assessment = await assessments().create(accountOf(request), request.body, request.now);
  return {
    status: 201,
    body: await view(assessment),
    headers: { ...withVersion(assessment), Location: `${request.baseUrl}/assessments/${assessment.assessment_id}` },
  };
});

const listAssessments: RouteImplementation<typeof listAssessmentsRoute> = async (request) => ({
  status: 200,
  body: await assessments().list(accountOf(request), request.query),
});

const getAssessment: RouteImplementation<typeof getAssessmentRoute> = async (request) => {
  const assessment = await assessments().get(accountOf(request), request.params.assessment_id);
  return { status: 200, body: await view(assessment), headers: withVersion(assessment) };
};

const updateAssessment: RouteImplementation<typeof updateAssessmentRoute> = async (request) => {
  const assessment = await assessments().update(accountOf(request), request.params.assessment_id, request.body, request.ifMatch, request.now);
  return { status: 200, body: await view(assessment), headers: withVersion(assessment) };
};

const prefillMethodology: RouteImplementation<typeof prefillMethodologyRoute> = async (request) => {
  const { assessment, evidence, outcome } = await assessments().prefill(accountOf(request), request.params.assessment_id, request.body, request.ifMatch!, request.now);
  return { status: 200, body: { ...viewOf(assessment, evidence), prefill: { filled: outcome.filled, kept: outcome.kept } }, headers: withVersion(assessment) };
};

const submitAssessment: RouteImplementation<typeof submitAssessmentRoute> = (request) => withIdempotency(request, idempotencyStore(), async () => ({
  status: 201,
  body: await assessments().submit(accountOf(request), request.params.assessment_id, request.body, request.now),
}));

const recordDepConfirmation: RouteImplementation<typeof recordDepConfirmationRoute> = async (request) => ({
  status: 200,
  body: await assessments().recordDepConfirmation(accountOf(request), request.params.assessment_id, request.body, request.now),
});

const createDeliverables: RouteImplementation<typeof createDeliverablesRoute> = async (request) => {
  const job = await startDeliverables(deliverableDeps(), accountOf(request), request.params.assessment_id);
  if (job.status === 'queued') await startRecordedJob(deliverableStart(job));
  return {
    status: 202,
    headers: { Location: `${request.baseUrl}/assessments/${job.assessment_id}/deliverables/${job.deliverable_id}` },
    body: await deliverableView(deliverableDeps(), job),
  };
};

const getDeliverables: RouteImplementation<typeof getDeliverablesRoute> = async (request) => ({
  status: 200,
  body: await deliverableView(deliverableDeps(), { account_id: accountOf(request), ...request.params }),
});

export const handler = createGroupHandler(assessmentRoutes, {
  createAssessment, listAssessments, getAssessment, updateAssessment, prefillMethodology, submitAssessment, recordDepConfirmation, createDeliverables, getDeliverables,
}, defaultPipelineDeps);
