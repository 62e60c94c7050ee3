import { ConflictError, NotFoundError } from '../../domain/errors';
import type { CogUrlReader, ElevationModelFiles, ElevationModelStore } from '../../domain/elevation-models/ports';
import { currentState, uploadKeysOf, workerLost, type CogUrlElevationModel, type StoredElevationModel, type UploadedElevationModel } from '../../domain/elevation-models/stored-model';
import { verticalConversion, type DemUnits, type DemVerticalDatum, type VerticalReference } from '../../domain/elevation-models/vertical';

/** The ports the elevation model use cases reach. */
export interface ElevationModelDeps {
  models: ElevationModelStore;
  files: ElevationModelFiles;
  cogs: CogUrlReader;
  /** How long an upload URL is valid. */
  signedUrlSeconds: number;
  newId: () => string;
}

/** A model as its owner describes it, whichever way its values arrive. */
export interface NewElevationModel {
  name: string;
  vertical_datum: DemVerticalDatum;
  units: DemUnits;
  vertical_accuracy_m?: number;
  ngvd29_to_navd88_m?: number;
}

const GEOGRAPHIC_CRS_NAMES: Record<number, string> = { 4269: 'NAD83 (geographic)', 4326: 'WGS 84 (geographic)' };

function describedFields(deps: ElevationModelDeps, accountId: string, input: NewElevationModel, now: Date) {
  return {
    elevation_model_id: deps.newId(), account_id: accountId, name: input.name,
    vertical_datum: input.vertical_datum, units: input.units,
    vertical_accuracy_m: input.vertical_accuracy_m ?? null, ngvd29_to_navd88_m: input.ngvd29_to_navd88_m ?? null,
    created_at: now.toISOString(), updated_at: now.toISOString(),
  };
}

/**
 * A pending model and a presigned PUT URL for each of its GeoTIFFs (one, or `parts` of one model,
 * such as a county's lidar tiles): it is processed once every part has arrived.
 */
export async function createUploadModel(deps: ElevationModelDeps, accountId: string, input: NewElevationModel & { parts?: number }, now: Date): Promise<{ model: UploadedElevationModel; uploadUrls: string[]; maxUploadBytes: number }> {
  const fields = describedFields(deps, accountId, input, now);
  const uploadKeys = Array.from({ length: input.parts ?? 1 }, (_, i) => deps.files.uploadKey(accountId, fields.elevation_model_id, i + 1));
  const model: UploadedElevationModel = {
    ...fields, source: 'upload', status: 'pending',
    upload_key: uploadKeys[0]!, ...(uploadKeys.length > 1 ? { upload_keys: uploadKeys } : {}),
    upload_expires_at: new Date(now.getTime() + deps.signedUrlSeconds * 1000).toISOString(),
    crs: null, resolution_m: null, bbox: null, vertical_conversion: null, model_key: null, error: null, processing_started_at: null,
  };
  const uploadUrls = await Promise.all(uploadKeys.map((key) => deps.files.uploadUrl(key, deps.signedUrlSeconds)));
  await deps.models.create(model);
  return { model, uploadUrls, maxUploadBytes: deps.files.maxUploadBytes };
}

/** A COG registered where it is: the URL checked and only its header read; ready at once, nothing copied. */
export async function registerCogModel(deps: ElevationModelDeps, accountId: string, input: NewElevationModel, cogUrl: string, now: Date): Promise<CogUrlElevationModel> {
  const vertical: VerticalReference = { vertical_datum: input.vertical_datum, units: input.units, ...(input.ngvd29_to_navd88_m === undefined ? {} : { ngvd29_to_navd88_m: input.ngvd29_to_navd88_m }) };
  const header = await deps.cogs.describe(cogUrl, vertical);
  const model: CogUrlElevationModel = {
    ...describedFields(deps, accountId, input, now), source: 'cog_url', status: 'ready', cog_url: cogUrl, nodata: header.nodata,
    crs: { epsg: header.epsg, name: GEOGRAPHIC_CRS_NAMES[header.epsg] ?? `EPSG:${header.epsg}` },
    resolution_m: header.resolution_m, bbox: header.bbox, vertical_conversion: verticalConversion(vertical).description,
  };
  await deps.models.create(model);
  return model;
}

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
    parts: model.source === 'upload' ? uploadKeysOf(model).length : null,
    cog_url: model.source === 'cog_url' ? model.cog_url : null,
    nodata: model.source === 'cog_url' ? model.nodata : null,
    created_at: model.created_at,
    updated_at: model.updated_at,
  };
}

/** One page of the account's models, as viewed now. */
export async function listModels(deps: Pick<ElevationModelDeps, 'models'>, accountId: string, page: { limit: number; cursor?: string }, now: Date) {
  const { items, nextCursor } = await deps.models.list(accountId, page.limit, page.cursor);
  return { data: items.map((model) => modelView(model, now)), next_cursor: nextCursor ?? null };
}

export async function getModel(deps: Pick<ElevationModelDeps, 'models'>, accountId: string, id: string): Promise<StoredElevationModel> {
  const model = await deps.models.get(accountId, id);
  if (!model) throw new NotFoundError(`No elevation model ${id}.`);
  return model;
}

/** The model, its tiles and any upload waiting; refused while a live worker processes it. */
export async function deleteModel(deps: Pick<ElevationModelDeps, 'models' | 'files'>, accountId: string, id: string, now: Date): Promise<void> {
  const model = await getModel(deps, accountId, id);
  const lost = workerLost(model, now);
  if (model.status === 'processing' && !lost) throw new ConflictError(`Elevation model ${id} is being processed; delete it once it is ready or failed.`);
  // The table entry first (conditional on it not being processed meanwhile), then its objects.
  if (!(await deps.models.delete(accountId, id, lost ? model.updated_at : undefined))) {
    throw new ConflictError(`Elevation model ${id} changed while it was being deleted; read it again.`);
  }
  // A COG registered by URL has no objects of ours: it is read where it is.
  if (model.source === 'upload') await deps.files.deleteModelFiles(accountId, id, uploadKeysOf(model), model.model_key);
}
