import { createGroupHandler } from '../../shared/http/pipeline';
import { grantRoutes } from '../../shared/routes/grants';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { checkEligibility, type EligibilityDeps } from '../../shared/application/grants/eligibility';
import { eligibilityDeps } from './deps';
import { listGrantDeadlines } from './deadlines';
import { rankGrantProject } from './ranking';

/** The grants API over its use cases; tests pass their own deps. */
export function createGrantsHandler(deps: () => EligibilityDeps) {
  return createGroupHandler(grantRoutes, {
    checkGrantEligibility: async ({ body }) => ({ status: 200, body: checkEligibility(deps(), body) }),
    listGrantDeadlines,
    rankGrantProject,
  }, defaultPipelineDeps);
}

export const handler = createGrantsHandler(eligibilityDeps);
