import { createGroupHandler } from '../../shared/http/pipeline';
import { hazardRoutes } from '../../shared/routes/hazards';
import { elevationModelRoutes } from '../../shared/routes/elevation-models';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { elevationModelDeps, forAccount, idempotencyStore, type HazardDeps } from './deps';
import { elevationModelRoutes as elevationModelImplementations } from './elevation-models';
import { floodAnalysisRoute, hazardJobRoute } from './flood-analysis';
import { hazardDeps } from './jobs';
import { floodEventsRoute } from './flood-events';
import { readDesignStorm, storeDesignStorm } from './design-storms';
import { getSlrScenarios } from './slr-scenarios';
import { slrImpactRoute } from './slr-impact';

/** The hazards API with its dependencies; tests pass their own. */
export function createHazardsHandler(deps: HazardDeps) {
  return createGroupHandler([...hazardRoutes, ...elevationModelRoutes], {
    getSlrScenarios,
    assessSlrImpact: async (request) => slrImpactRoute(await forAccount(deps, request.account!.accountId))(request),
    analyzeFlooding: async (request) => floodAnalysisRoute(await forAccount(deps, request.account!.accountId))(request),
    getHazardJob: hazardJobRoute(deps),
    listFloodEvents: floodEventsRoute(deps),
    putDesignStorm: storeDesignStorm(deps),
    getDesignStorm: readDesignStorm(deps),
    ...elevationModelImplementations(elevationModelDeps, idempotencyStore),
  }, defaultPipelineDeps);
}

export const handler = createHazardsHandler(hazardDeps);
