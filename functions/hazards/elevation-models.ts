import { CogUrlError } from '../../shared/adapters/elevation/cog-url';
import { createUploadModel, deleteModel, getModel, registerCogModel, type ElevationModelDeps } from '../../shared/application/elevation-models/use-cases';
import { currentState, type StoredElevationModel } from '../../shared/domain/elevation-models/stored-model';
import { withIdempotency, type IdempotencyStore } from '../../shared/http/idempotency';
import { HttpError } from '../../shared/http/problem';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import type { createElevationModelRoute, deleteElevationModelRoute, getElevationModelRoute, listElevationModelsRoute } from '../../shared/routes/elevation-models';

/** A model as the API answers it: the URL fields are null on an upload, as is the no-data value the tiles hold no more. */
export function modelView(model: StoredElevationModel, now: Date) {
  return {
    elevation_model_id: model.elevation_model_id,
    name: model.name,
    ...currentState(model, now),
    crs: model.crs,
    resolution_m: model.resolution_m,
    bbox: model.bbox,
    vertical_datum: model.vertical_datum,
    units: model.units,
    vertical_conversion: model.vertical_conversion,
    vertical_accuracy_m: model.vertical_accuracy_m,
    source: model.source,
    cog_url: model.source === 'cog_url' ? model.cog_url : null,
    nodata: model.source === 'cog_url' ? model.nodata : null,
    created_at: model.created_at,
    updated_at: model.updated_at,
  };
}

type CreateRequest = RouteRequest<typeof createElevationModelRoute>;

const created = (request: CreateRequest, id: string, body: object): RouteResult => ({
  status: 201, body, headers: { Location: `${request.baseUrl}/hazards/elevation-models/${id}` },
});

/** A COG URL's refusal is its own problem type (`cog_url_refused`, `not_a_cog`…). */
function cogProblem(error: unknown): never {
  throw error instanceof CogUrlError ? new HttpError(error.code, error.message) : error;
}

/** The elevation model routes over their use cases; tests pass their own deps. */
export function elevationModelRoutes(deps: () => ElevationModelDeps, idempotency: () => IdempotencyStore) {
  async function create(request: CreateRequest): Promise<RouteResult> {
    const { body, now } = request;
    const accountId = request.account!.accountId;
    if (body.cog_url !== undefined) {
      const model = await registerCogModel(deps(), accountId, body, body.cog_url, now).catch(cogProblem);
      return created(request, model.elevation_model_id, modelView(model, now));
    }
    const { model, uploadUrl, maxUploadBytes } = await createUploadModel(deps(), accountId, body, now);
    return created(request, model.elevation_model_id, {
      ...modelView(model, now), upload_url: uploadUrl, upload_method: 'PUT', upload_expires_at: model.upload_expires_at, max_upload_bytes: maxUploadBytes,
    });
  }

  return {
    /** POST /hazards/elevation-models: an upload to come, or a COG registered by URL. */
    createElevationModel: (request: CreateRequest): Promise<RouteResult> => withIdempotency(request, idempotency(), () => create(request)),

    /** GET /hazards/elevation-models: the account's models, one page. */
    listElevationModels: async (request: RouteRequest<typeof listElevationModelsRoute>): Promise<RouteResult> => {
      const page = await deps().models.list(request.account!.accountId, request.query.limit, request.query.cursor);
      return { status: 200, body: { data: page.items.map((model) => modelView(model, request.now)), next_cursor: page.nextCursor ?? null } };
    },

    /** GET /hazards/elevation-models/{elevation_model_id} */
    getElevationModel: async (request: RouteRequest<typeof getElevationModelRoute>): Promise<RouteResult> => ({
      status: 200, body: modelView(await getModel(deps(), request.account!.accountId, request.params.elevation_model_id), request.now),
    }),

    /** DELETE /hazards/elevation-models/{elevation_model_id}: the model, its tiles and any upload waiting. */
    deleteElevationModel: async (request: RouteRequest<typeof deleteElevationModelRoute>): Promise<RouteResult> => {
      await deleteModel(deps(), request.account!.accountId, request.params.elevation_model_id, request.now);
      return { status: 204 };
    },
  };
}
