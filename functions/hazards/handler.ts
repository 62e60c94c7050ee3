import { createGroupHandler } from '../../shared/http/pipeline';
import { hazardRoutes } from '../../shared/routes/hazards';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { defaultHazardDeps, type HazardDeps } from './deps';
import { floodAnalysisRoute, hazardJobRoute, runFloodAnalysisJob } from './flood-analysis';
import { floodEventsRoute } from './flood-events';
import { getSlrScenarios } from './slr-scenarios';
import { slrImpactRoute } from './slr-impact';

/** The hazards API with its dependencies; tests pass their own. */
export function createHazardsHandler(deps: HazardDeps) {
  return createGroupHandler(hazardRoutes, {
    getSlrScenarios,
    assessSlrImpact: slrImpactRoute(deps),
    analyzeFlooding: floodAnalysisRoute(deps),
    getHazardJob: hazardJobRoute(deps),
    listFloodEvents: floodEventsRoute(deps),
  }, defaultPipelineDeps);
}

export const hazardDeps = defaultHazardDeps(runFloodAnalysisJob);

export const handler = createHazardsHandler(hazardDeps);
