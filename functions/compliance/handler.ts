import { createGroupHandler } from '../../shared/http/pipeline';
import { complianceRoutes } from '../../shared/routes/compliance';
import { defaultPipelineDeps } from '../../shared/http/deps';
import type { RouteImplementation } from '../../shared/http/types';
import { checklistForQuery, validateAssessment, type ValidateDeps } from '../../shared/domain/compliance/use-cases';
import { gatherEvidence } from '../../shared/domain/compliance/evidence';
import { DynamoAssessmentStore } from '../../shared/adapters/assessment-store';
import { DynamoEvidenceStore, inventoryAssetCounter } from '../../shared/adapters/evidence-store';
import type { getComplianceChecklistRoute, validateComplianceRoute } from '../../shared/routes/compliance';

let validateDeps: ValidateDeps | undefined;
const deps = () => (validateDeps ??= {
  assessments: new DynamoAssessmentStore(),
  evidence: (accountId, jurisdiction, assessmentId) => gatherEvidence({ assets: inventoryAssetCounter, evidence: new DynamoEvidenceStore() }, accountId, jurisdiction, assessmentId),
});

const validateCompliance: RouteImplementation<typeof validateComplianceRoute> = async (request) => ({
  status: 200,
  body: await validateAssessment(deps(), request.account!.accountId, request.body, request.now),
});

const getComplianceChecklist: RouteImplementation<typeof getComplianceChecklistRoute> = async (request) => ({
  status: 200,
  body: checklistForQuery(request.query, request.now),
});

export const handler = createGroupHandler(complianceRoutes, { validateCompliance, getComplianceChecklist }, defaultPipelineDeps);
