import { randomUUID } from 'node:crypto';
import type { ElevationModelEntry } from '../../shared/adapters/elevation-model-store';
import { CogUrlError, registerCogUrl } from '../../shared/adapters/elevation/cog-url';
import { deleteProcessedModel } from '../../shared/adapters/elevation/processed-model';
import { MAX_DEM_UPLOAD_BYTES, accountModelPrefix, elevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import type { ElevationModelRecord } from '../../shared/domain/elevation-models/model';
import { verticalConversion, type VerticalReference } from '../../shared/domain/elevation-models/vertical';
import { isLostForGood, lostModelError } from '../../shared/domain/elevation-models/processing-job';
import { leaseExpired } from '../../shared/domain/job-lease';
import { withIdempotency } from '../../shared/http/idempotency';
import { HttpError } from '../../shared/http/problem';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import type { createElevationModelRoute, deleteElevationModelRoute, getElevationModelRoute, listElevationModelsRoute } from '../../shared/routes/elevation-models';
import type { ElevationModelDeps } from './deps';

/** A pending model whose upload has not arrived this long after its URL expired is shown as failed. */
const UPLOAD_GRACE_MS = 15 * 60 * 1000;
/** Models stored before leases: processing runs at most 15 minutes (the worker's timeout), so one processing longer lost its worker. */
const UNLEASED_PROCESSING_LIMIT_MS = 20 * 60 * 1000;

const newModelId = () => `em_${randomUUID().replace(/-/g, '')}`;

/** Whether the model's worker was lost: its lease lapsed (the sweep processes it again or fails it). */
function workerLost(entry: ElevationModelEntry, now: Date): boolean {
  if (entry.status !== 'processing') return false;
  if (entry.lease) return leaseExpired(entry.lease, now);
  return entry.processing_started_at !== null && now.getTime() > Date.parse(entry.processing_started_at) + UNLEASED_PROCESSING_LIMIT_MS;
}

/** Stored state, with the two outcomes no worker records: the upload never came, the worker was lost for good. */
function lapsed(entry: ElevationModelEntry, now: Date): { code: string; detail: string } | undefined {
  if (entry.status === 'pending' && entry.upload_expires_at !== null && now.getTime() > Date.parse(entry.upload_expires_at) + UPLOAD_GRACE_MS) {
    return { code: 'upload_expired', detail: 'The file was not uploaded before the upload URL expired; create the model again.' };
  }
  // A lost worker's model with an attempt left stays `processing` until the sweep runs it again.
  if (workerLost(entry, now) && (!entry.lease || isLostForGood(entry, now))) return lostModelError(entry.lease?.attempt ?? 1);
  return undefined;
}

export function modelView(entry: ElevationModelEntry, now: Date) {
  const failure = lapsed(entry, now);
  return {
    elevation_model_id: entry.elevation_model_id,
    name: entry.name,
    status: failure ? 'failed' : entry.status,
    crs: entry.crs,
    resolution_m: entry.resolution_m,
    bbox: entry.bbox,
    vertical_datum: entry.vertical_datum,
    units: entry.units,
    vertical_conversion: entry.vertical_conversion,
    vertical_accuracy_m: entry.vertical_accuracy_m,
    source: entry.source ?? 'upload',
    cog_url: entry.cog_url ?? null,
    nodata: entry.nodata ?? null,
    error: failure ?? entry.error,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
  };
}

const GEOGRAPHIC_CRS_NAMES: Record<number, string> = { 4269: 'NAD83 (geographic)', 4326: 'WGS 84 (geographic)' };

type CreateRequest = RouteRequest<typeof createElevationModelRoute>;

/** What every new model starts with, whichever way its values arrive. */
function newEntry(request: CreateRequest, id: string): ElevationModelEntry {
  const { body, now } = request;
  const accountId = request.account!.accountId;
  return {
    elevation_model_id: id, account_id: accountId, name: body.name, status: 'pending', source: 'upload', cog_url: null,
    vertical_datum: body.vertical_datum, units: body.units,
    vertical_accuracy_m: body.vertical_accuracy_m ?? null, ngvd29_to_navd88_m: body.ngvd29_to_navd88_m ?? null,
    upload_key: elevationUploadKey(accountId, id), upload_expires_at: null,
    crs: null, resolution_m: null, bbox: null, vertical_conversion: null, model_key: null, error: null,
    processing_started_at: null, created_at: now.toISOString(), updated_at: now.toISOString(),
  };
}

const created = (request: CreateRequest, id: string, body: object): RouteResult => ({
  status: 201, body, headers: { Location: `${request.baseUrl}/hazards/elevation-models/${id}` },
});

export function elevationModelRoutes(deps: ElevationModelDeps) {
  /** A pending model and a presigned PUT URL for its GeoTIFF. */
  async function createUpload(request: CreateRequest): Promise<RouteResult> {
    const id = newModelId();
    const seconds = deps.signedUrlSeconds();
    const entry: ElevationModelEntry = { ...newEntry(request, id), upload_expires_at: new Date(request.now.getTime() + seconds * 1000).toISOString() };
    const uploadUrl = await deps.blobs().signedPutUrl(entry.upload_key, seconds);
    await deps.models().create(entry);
    return created(request, id, { ...modelView(entry, request.now), upload_url: uploadUrl, upload_method: 'PUT', upload_expires_at: entry.upload_expires_at, max_upload_bytes: MAX_DEM_UPLOAD_BYTES });
  }

  /** A COG registered where it is: the URL checked and only its header read; ready at once, nothing copied. */
  async function registerCog(request: CreateRequest, cogUrl: string): Promise<RouteResult> {
    const { body } = request;
    const vertical: VerticalReference = { vertical_datum: body.vertical_datum, units: body.units, ...(body.ngvd29_to_navd88_m === undefined ? {} : { ngvd29_to_navd88_m: body.ngvd29_to_navd88_m }) };
    const description = await registerCogUrl(cogUrl, deps.cogUrls(), vertical).catch((error: unknown) => {
      throw error instanceof CogUrlError ? new HttpError(error.code, error.message) : error;
    });
    const id = newModelId();
    const entry: ElevationModelEntry = {
      ...newEntry(request, id), status: 'ready', source: 'cog_url', cog_url: cogUrl, nodata: description.nodata,
      crs: { epsg: description.epsg, name: GEOGRAPHIC_CRS_NAMES[description.epsg] ?? `EPSG:${description.epsg}` },
      resolution_m: description.resolution_m, bbox: description.bbox, vertical_conversion: verticalConversion(vertical).description,
    };
    await deps.models().create(entry);
    return created(request, id, modelView(entry, request.now));
  }

  return {
    /** POST /hazards/elevation-models: an upload to come, or a COG registered by URL. */
    createElevationModel: (request: CreateRequest): Promise<RouteResult> => withIdempotency(request, deps.idempotency(), () => (
      request.body.cog_url === undefined ? createUpload(request) : registerCog(request, request.body.cog_url)
    )),

    /** GET /hazards/elevation-models: the account's models, one page. */
    listElevationModels: async (request: RouteRequest<typeof listElevationModelsRoute>): Promise<RouteResult> => {
      // A cursor not issued for this account's list is refused by the store (400 invalid_request).
      const page = await deps.models().list(request.account!.accountId, request.query.limit, request.query.cursor);
      return { status: 200, body: { data: page.items.map((entry) => modelView(entry, request.now)), next_cursor: page.nextCursor ?? null } };
    },

    /** GET /hazards/elevation-models/{elevation_model_id} */
    getElevationModel: async (request: RouteRequest<typeof getElevationModelRoute>): Promise<RouteResult> => {
      const { elevation_model_id: id } = request.params;
      const entry = await deps.models().get(request.account!.accountId, id);
      if (!entry) throw new HttpError('not_found', `No elevation model ${id}.`);
      return { status: 200, body: modelView(entry, request.now) };
    },

    /** DELETE /hazards/elevation-models/{elevation_model_id}: the model, its tiles and any upload waiting. */
    deleteElevationModel: async (request: RouteRequest<typeof deleteElevationModelRoute>): Promise<RouteResult> => {
      const { elevation_model_id: id } = request.params;
      const accountId = request.account!.accountId;
      const entry = await deps.models().get(accountId, id);
      if (!entry) throw new HttpError('not_found', `No elevation model ${id}.`);
      const lost = workerLost(entry, request.now);
      if (entry.status === 'processing' && !lost) throw new HttpError('conflict', `Elevation model ${id} is being processed; delete it once it is ready or failed.`);
      // The table entry first (conditional on it not being processed meanwhile), then its objects.
      if (!(await deps.models().delete(accountId, id, lost ? entry.updated_at : undefined))) {
        throw new HttpError('conflict', `Elevation model ${id} changed while it was being deleted; read it again.`);
      }
      const blobs = deps.blobs();
      await blobs.delete(entry.upload_key);
      if (entry.model_key) {
        const record = await blobs.get(entry.model_key);
        if (record) await deleteProcessedModel(blobs, accountModelPrefix(accountId, id), JSON.parse(record.toString('utf8')) as ElevationModelRecord);
      }
      return { status: 204 };
    },
  };
}
