import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import type { RouteImplementation } from '../../shared/http/types';
import { checklistForQuery, validateAssessment } from '../../shared/domain/compliance/use-cases';
import type { getComplianceChecklistRoute, validateComplianceRoute } from '../../shared/routes/compliance';

const validateCompliance: RouteImplementation<typeof validateComplianceRoute> = async (request) => ({
  status: 200,
  body: validateAssessment(request.body, request.now),
});

const getComplianceChecklist: RouteImplementation<typeof getComplianceChecklistRoute> = async (request) => ({
  status: 200,
  body: checklistForQuery(request.query, request.now),
});

export const handler = createGroupHandler('compliance', { validateCompliance, getComplianceChecklist }, defaultPipelineDeps);
