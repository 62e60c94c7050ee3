import type { BBox } from '../hazards/geo';
import { leaseExpired, type JobLease } from '../job-lease';
import type { DemUnits, DemVerticalDatum } from './vertical';
import { isLostForGood, lostModelError } from './processing-job';
import { currentConnection, type ModelConnection } from './connection';

export const ELEVATION_MODEL_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type ElevationModelStatus = typeof ELEVATION_MODEL_STATUSES[number];

/** `upload`: a GeoTIFF uploaded and tiled; `cog_url`: a COG read by ranges where it is. */
export const ELEVATION_MODEL_SOURCES = ['upload', 'cog_url'] as const;

/** Reasons a model ends `failed`, in `error.code`. */
export const ELEVATION_MODEL_ERRORS = [
  'not_a_geotiff', 'unsupported_crs', 'unusable_raster', 'unreadable_raster', 'invalid_vertical_reference', 'file_too_large',
  'raster_too_large', 'resampled_grid_too_large', 'compression_ratio_exceeded', 'no_valid_cells', 'elevation_out_of_range',
  'processing_limit_exceeded', 'upload_expired', 'worker_lost', 'storage_unavailable', 'internal_error',
] as const;

export interface ModelFailure { code: string; detail: string }

/** What every account elevation model records, however its values arrive. */
interface StoredModelFields {
  elevation_model_id: string;
  account_id: string;
  name: string;
  vertical_datum: DemVerticalDatum;
  units: DemUnits;
  vertical_accuracy_m: number | null;
  ngvd29_to_navd88_m: number | null;
  created_at: string;
  updated_at: string;
}

/** A GeoTIFF uploaded (presigned PUT) and tiled by the worker; the processed tiles and `model.json` are in the bucket. */
export interface UploadedElevationModel extends StoredModelFields {
  source: 'upload';
  status: ElevationModelStatus;
  /** Where the GeoTIFF is uploaded (its first part, when it comes in several). */
  upload_key: string;
  /** Every part's upload key in order, for a model uploaded as several GeoTIFFs (absent: the one `upload_key`). */
  upload_keys?: string[];
  upload_expires_at: string | null;
  /** Known once processed. */
  crs: { epsg: number; name: string } | null;
  resolution_m: number | null;
  bbox: BBox | null;
  vertical_conversion: string | null;
  /** The processed model's `model.json` in the bucket (tiles beside it), once ready. */
  model_key: string | null;
  error: ModelFailure | null;
  processing_started_at: string | null;
  /** The worker processing it, while it does (absent on models stored before leases). */
  lease?: JobLease | null;
  /** Its tidal connection run, once the model is ready (absent before, and on models ready before connections). */
  connection?: ModelConnection | null;
}

/** A COG registered where it is: read by ranges from `cog_url`, ready from its registration, nothing uploaded. */
export interface CogUrlElevationModel extends StoredModelFields {
  source: 'cog_url';
  status: 'ready';
  cog_url: string;
  /** The no-data value the COG declares. */
  nodata: number | null;
  crs: { epsg: number; name: string };
  resolution_m: number;
  bbox: BBox;
  vertical_conversion: string;
}

export type StoredElevationModel = UploadedElevationModel | CogUrlElevationModel;

/** Most GeoTIFFs one model is uploaded in (a county's lidar delivered as tiles; each part up to 1 GiB). */
export const MAX_UPLOAD_PARTS = 64;

/** Where each of an uploaded model's GeoTIFFs is uploaded, in order. */
export const uploadKeysOf = (model: Pick<UploadedElevationModel, 'upload_key' | 'upload_keys'>): string[] => model.upload_keys ?? [model.upload_key];

/** A pending model whose upload has not arrived this long after its URL expired is shown as failed. */
const UPLOAD_GRACE_MS = 15 * 60 * 1000;
/** Models stored before leases: processing runs at most 15 minutes (the worker's timeout), so one processing longer lost its worker. */
const UNLEASED_PROCESSING_LIMIT_MS = 20 * 60 * 1000;

/** Whether the model's worker was lost: its lease lapsed (the sweep processes it again or fails it). */
export function workerLost(model: StoredElevationModel, now: Date): boolean {
  if (model.source !== 'upload' || model.status !== 'processing') return false;
  if (model.lease) return leaseExpired(model.lease, now);
  return model.processing_started_at !== null && now.getTime() > Date.parse(model.processing_started_at) + UNLEASED_PROCESSING_LIMIT_MS;
}

/** Stored state, with the two outcomes no worker records: the upload never came, the worker was lost for good. */
function lapsed(model: UploadedElevationModel, now: Date): ModelFailure | undefined {
  if (model.status === 'pending' && model.upload_expires_at !== null && now.getTime() > Date.parse(model.upload_expires_at) + UPLOAD_GRACE_MS) {
    const parts = uploadKeysOf(model).length;
    return { code: 'upload_expired', detail: `${parts > 1 ? `Not every one of the ${parts} parts was` : 'The file was not'} uploaded before the upload URLs expired; create the model again.` };
  }
  // A lost worker's model with an attempt left stays `processing` until the sweep runs it again.
  if (workerLost(model, now) && (!model.lease || isLostForGood(model, now))) return lostModelError(model.lease?.attempt ?? 1);
  return undefined;
}

export interface ModelState {
  status: ElevationModelStatus;
  error: ModelFailure | null;
  /** The tidal connection run of an uploaded model once ready; null otherwise. */
  connection: ReturnType<typeof currentConnection> | null;
}

/** The model's status, error and connection as a reader sees them at `now`. */
export function currentState(model: StoredElevationModel, now: Date): ModelState {
  if (model.source === 'cog_url') return { status: model.status, error: null, connection: null };
  const connection = model.connection ? currentConnection(model.connection, now) : null;
  const failure = lapsed(model, now);
  return failure ? { status: 'failed', error: failure, connection: null } : { status: model.status, error: model.error, connection };
}
