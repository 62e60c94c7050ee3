import { createGroupHandler } from '../../shared/http/pipeline';
import { grantRoutes, type listGrantDeadlinesRoute, type rankGrantProjectRoute } from '../../shared/routes/grants';
import type { RouteImplementation } from '../../shared/http/types';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { checkEligibility, type EligibilityDeps } from '../../shared/application/grants/eligibility';
import { grantDeadlines, rankGrantProject as rank } from '../../shared/application/grants/programme';
import { eligibilityDeps } from './deps';

export const listGrantDeadlines: RouteImplementation<typeof listGrantDeadlinesRoute> = async ({ query, now }) => ({
  status: 200,
  body: grantDeadlines(query.date, now),
});

export const rankGrantProject: RouteImplementation<typeof rankGrantProjectRoute> = async ({ body }) => ({ status: 200, body: rank(body) });

/** The grants API over its use cases; tests pass their own deps. */
export function createGrantsHandler(deps: () => EligibilityDeps) {
  return createGroupHandler(grantRoutes, {
    checkGrantEligibility: async ({ body }) => ({ status: 200, body: checkEligibility(deps(), body) }),
    listGrantDeadlines,
    rankGrantProject,
  }, defaultPipelineDeps);
}

export const handler = createGrantsHandler(eligibilityDeps);
