import { createGroupHandler } from '../../shared/http/pipeline';
import { hazardRoutes } from '../../shared/routes/hazards';
import { elevationModelRoutes } from '../../shared/routes/elevation-models';
import { elevationModelDeps } from '../elevation-models/deps';
import { elevationModelRoutes as elevationModelImplementations } from '../elevation-models/routes';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { defaultHazardDeps, forAccount, type HazardDeps } from './deps';
import type { HazardJob } from '../../shared/domain/hazards/jobs';
import { floodAnalysisRoute, hazardJobRoute, runFloodAnalysisJob } from './flood-analysis';
import { floodEventsRoute } from './flood-events';
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
    ...elevationModelImplementations(elevationModelDeps),
  }, defaultPipelineDeps);
}

/** A queued analysis runs with its account's elevation models, like the request that queued it. */
export async function runAccountFloodAnalysisJob(deps: HazardDeps, job: Pick<HazardJob, 'account_id' | 'job_id'>): Promise<void> {
  await runFloodAnalysisJob(await forAccount(deps, job.account_id), job);
}

export const hazardDeps = defaultHazardDeps(runAccountFloodAnalysisJob);

export const handler = createHazardsHandler(hazardDeps);
