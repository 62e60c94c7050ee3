import { createGroupHandler } from '../../shared/http/pipeline';
import { complianceRoutes } from '../../shared/routes/compliance';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { checklistForQuery, validateAssessment, type ValidateDeps } from '../../shared/application/compliance/use-cases';
import { validateDeps } from './deps';

/** The compliance API over its use cases; tests pass their own deps. */
export function createComplianceHandler(deps: () => ValidateDeps) {
  return createGroupHandler(complianceRoutes, {
    validateCompliance: async (request) => ({ status: 200, body: await validateAssessment(deps(), request.account!.accountId, request.body, request.now) }),
    getComplianceChecklist: async (request) => ({ status: 200, body: checklistForQuery(request.query, request.now) }),
  }, defaultPipelineDeps);
}

export const handler = createComplianceHandler(validateDeps);
