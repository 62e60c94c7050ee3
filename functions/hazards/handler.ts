import { createGroupHandler } from '../../shared/http/pipeline';
import { hazardRoutes } from '../../shared/routes/hazards';
import { elevationModelRoutes, type createElevationModelRoute } from '../../shared/routes/elevation-models';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { withIdempotency, type IdempotencyStore } from '../../shared/http/idempotency';
import { HttpError } from '../../shared/http/problem';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { CogUrlError } from '../../shared/adapters/elevation/cog-url';
import { forAccount, type HazardDeps } from '../../shared/application/hazards/ports';
import { floodAnalysis, hazardJobView } from '../../shared/application/hazards/flood-analysis';
import { listFloodEvents } from '../../shared/application/hazards/flood-events';
import { readDesignStorm, storeDesignStorm } from '../../shared/application/hazards/design-storms';
import { slrScenarios } from '../../shared/application/hazards/slr-scenarios';
import { slrImpact } from '../../shared/application/hazards/slr-impact';
import {
  createUploadModel, deleteModel, getModel, listModels, modelView, registerCogModel, type ElevationModelDeps,
} from '../../shared/application/elevation-models/use-cases';
import { elevationModelDeps, hazardDeps, idempotencyStore } from './deps';

type CreateModelRequest = RouteRequest<typeof createElevationModelRoute>;

const createdModel = (request: CreateModelRequest, id: string, body: object): RouteResult => ({
  status: 201, body, headers: { Location: `${request.baseUrl}/hazards/elevation-models/${id}` },
});

/** A COG URL's refusal is its own problem type (`cog_url_refused`, `not_a_cog`…). */
function cogProblem(error: unknown): never {
  throw error instanceof CogUrlError ? new HttpError(error.code, error.message) : error;
}

/** POST /hazards/elevation-models: an upload to come, or a COG registered by URL; a repeated `Idempotency-Key` replays the first answer. */
export function createElevationModel(deps: () => ElevationModelDeps, idempotency: () => IdempotencyStore) {
  async function create(request: CreateModelRequest): Promise<RouteResult> {
    const { body, now } = request;
    const accountId = request.account!.accountId;
    if (body.cog_url !== undefined) {
      const model = await registerCogModel(deps(), accountId, body, body.cog_url, now).catch(cogProblem);
      return createdModel(request, model.elevation_model_id, modelView(model, now));
    }
    const { model, uploadUrls, maxUploadBytes } = await createUploadModel(deps(), accountId, body, now);
    return createdModel(request, model.elevation_model_id, {
      ...modelView(model, now), upload_url: uploadUrls[0], upload_urls: uploadUrls, upload_method: 'PUT', upload_expires_at: model.upload_expires_at, max_upload_bytes: maxUploadBytes,
    });
  }
  return (request: CreateModelRequest): Promise<RouteResult> => withIdempotency(request, idempotency(), () => create(request));
}

/** The hazards API over its use cases; tests pass their own deps. */
export function createHazardsHandler(deps: HazardDeps, models: () => ElevationModelDeps, idempotency: () => IdempotencyStore) {
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
    createElevationModel: createElevationModel(models, idempotency),
    /** GET /hazards/elevation-models: the account's models, one page. */
    listElevationModels: async (request) => ({ status: 200, body: await listModels(models(), request.account!.accountId, request.query, request.now) }),
    getElevationModel: async (request) => ({
      status: 200, body: modelView(await getModel(models(), request.account!.accountId, request.params.elevation_model_id), request.now),
    }),
    /** DELETE /hazards/elevation-models/{elevation_model_id}: the model, its tiles and any upload waiting. */
    deleteElevationModel: async (request) => {
      await deleteModel(models(), request.account!.accountId, request.params.elevation_model_id, request.now);
      return { status: 204 };
    },
  }, defaultPipelineDeps);
}

export const handler = createHazardsHandler(hazardDeps, elevationModelDeps, idempotencyStore);
