import { createGroupHandler } from '../../shared/http/pipeline';
import { assessmentRoutes } from '../../shared/routes/assessments';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { withIdempotency } from '../../shared/http/idempotency';
import type { RouteRequest } from '../../shared/http/types';
import { etagOf, viewOf, type Assessment } from '../../shared/domain/assessments/model';
import { deliverableView, startDeliverables } from '../../shared/application/deliverables/deliverable-requests';
import { deliverableStart } from '../../shared/application/deliverables/deliverable-start';
import { startRecordedJob } from '../../shared/application/jobs/starter';
import { assessmentRouteDeps, type AssessmentRouteDeps } from './deps';

const accountOf = (request: RouteRequest) => request.account!.accountId;
const withVersion = (assessment: Assessment) => ({ ETag: etagOf(assessment.version) });

/** The assessments API over its use cases; tests pass their own deps. */
export function createAssessmentsHandler(deps: () => AssessmentRouteDeps) {
  const assessments = () => deps().assessments;
  const view = async (assessment: Assessment) => viewOf(assessment, await assessments().evidenceFor(assessment));

  return createGroupHandler(assessmentRoutes, {
    createAssessment: (request) => withIdempotency(request, deps().idempotency, async () => {
      const assessment = await assessments().create(accountOf(request), request.body, request.now);
      return {
        status: 201,
        body: await view(assessment),
        headers: { ...withVersion(assessment), Location: `${request.baseUrl}/assessments/${assessment.assessment_id}` },
      };
    }),

    listAssessments: async (request) => ({
      status: 200,
      body: await assessments().list(accountOf(request), request.query),
    }),

    getAssessment: async (request) => {
      const assessment = await assessments().get(accountOf(request), request.params.assessment_id);
      return { status: 200, body: await view(assessment), headers: withVersion(assessment) };
    },

    updateAssessment: async (request) => {
      const assessment = await assessments().update(accountOf(request), request.params.assessment_id, request.body, request.ifMatch, request.now);
      return { status: 200, body: await view(assessment), headers: withVersion(assessment) };
    },

    prefillMethodology: async (request) => {
      const { assessment, evidence, outcome } = await assessments().prefill(accountOf(request), request.params.assessment_id, request.body, request.ifMatch!, request.now);
      return { status: 200, body: { ...viewOf(assessment, evidence), prefill: { filled: outcome.filled, kept: outcome.kept } }, headers: withVersion(assessment) };
    },

    submitAssessment: (request) => withIdempotency(request, deps().idempotency, async () => ({
      status: 201,
      body: await assessments().submit(accountOf(request), request.params.assessment_id, request.body, request.now),
    })),

    recordDepConfirmation: async (request) => ({
      status: 200,
      body: await assessments().recordDepConfirmation(accountOf(request), request.params.assessment_id, request.body, request.now),
    }),

    createDeliverables: async (request) => {
      const job = await startDeliverables(deps().deliverables, accountOf(request), request.params.assessment_id);
      if (job.status === 'queued') await startRecordedJob(deliverableStart(job), deps().jobStarter);
      return {
        status: 202,
        headers: { Location: `${request.baseUrl}/assessments/${job.assessment_id}/deliverables/${job.deliverable_id}` },
        body: await deliverableView(deps().deliverables, job),
      };
    },

    getDeliverables: async (request) => ({
      status: 200,
      body: await deliverableView(deps().deliverables, { account_id: accountOf(request), ...request.params }),
    }),
  }, defaultPipelineDeps);
}

export const handler = createAssessmentsHandler(assessmentRouteDeps);
