import { createGroupHandler } from '../../shared/http/pipeline';
import { hazardRoutes } from '../../shared/routes/hazards';
import { elevationModelRoutes } from '../../shared/routes/elevation-models';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { forAccount, type HazardDeps } from '../../shared/application/hazards/ports';
import { floodAnalysis, hazardJobView } from '../../shared/application/hazards/flood-analysis';
import { listFloodEvents } from '../../shared/application/hazards/flood-events';
import { readDesignStorm, storeDesignStorm } from '../../shared/application/hazards/design-storms';
import { slrScenarios } from '../../shared/application/hazards/slr-scenarios';
import { slrImpact } from '../../shared/application/hazards/slr-impact';
import { elevationModelDeps, hazardDeps, idempotencyStore } from './deps';
import { elevationModelRoutes as elevationModelImplementations } from './elevation-models';

/** The hazards API over its use cases; tests pass their own deps. */
export function createHazardsHandler(deps: HazardDeps) {
  return createGroupHandler([...hazardRoutes, ...elevationModelRoutes], {
    getSlrScenarios: async (request) => ({ status: 200, body: slrScenarios(request.query, request.now) }),
    assessSlrImpact: async (request) => {
      const accountId = request.account!.accountId;
      return { status: 200, body: await slrImpact(await forAccount(deps, accountId), accountId, request.body, request.now) };
    },
    /** 200 with the analysis, or 202 with the job it was handed to (too large or too slow to answer at once). */
    analyzeFlooding: async (request) => {
      const accountId = request.account!.accountId;
      const outcome = await floodAnalysis(await forAccount(deps, accountId), accountId, request.body, request.now);
      if ('result' in outcome) return { status: 200, body: outcome.result };
      const jobUrl = `${request.baseUrl}/hazards/jobs/${outcome.job.job_id}`;
      return { status: 202, headers: { Location: jobUrl }, body: { ...outcome.job, job_url: jobUrl, reason: outcome.reason } };
    },
    getHazardJob: async (request) => ({ status: 200, body: await hazardJobView(deps, request.account!.accountId, request.params.job_id) }),
    listFloodEvents: async (request) => ({ status: 200, body: await listFloodEvents(deps, request.query) }),
    putDesignStorm: async (request) => ({ status: 200, body: await storeDesignStorm(deps, request.account!.accountId, request.params.jurisdiction, request.body, request.now) }),
    getDesignStorm: async (request) => ({ status: 200, body: await readDesignStorm(deps, request.account!.accountId, request.params.jurisdiction) }),
    ...elevationModelImplementations(elevationModelDeps, idempotencyStore),
  }, defaultPipelineDeps);
}

export const handler = createHazardsHandler(hazardDeps);
