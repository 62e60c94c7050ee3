import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, IdempotencyHeaders, LimitParam } from './common';
import { CONNECTION_ERRORS, CONNECTION_STATUSES } from '../domain/elevation-models/connection';
import { ELEVATION_MODEL_ERRORS, ELEVATION_MODEL_SOURCES, ELEVATION_MODEL_STATUSES, MAX_UPLOAD_PARTS } from '../domain/elevation-models/stored-model';
import { DEM_UNITS, DEM_VERTICAL_DATUMS } from '../domain/elevation-models/vertical';

const Timestamp = onFirstUse(() => z.string().max(40).describe('ISO 8601 (UTC).'));

export const ElevationModelParams = onFirstUse(() => z.object({
  elevation_model_id: z.string().regex(/^em_[a-z0-9]{32}$/, 'Not an elevation model id').describe('The `elevation_model_id`.'),
}));

export const ElevationModelListQuery = onFirstUse(() => z.object({ limit: LimitParam(), cursor: CursorParam() }));

export const CreateElevationModelHeaders = IdempotencyHeaders;

export const CreateElevationModelBody = onFirstUse(() => z.object({
  name: z.string().trim().min(1).max(200).describe('What answers will call the model, e.g. "Pinellas County 2018 lidar DEM".'),
  vertical_datum: z.enum(DEM_VERTICAL_DATUMS).describe('Vertical datum of the file\'s values. NGVD29 values are converted to NAVD88 with `ngvd29_to_navd88_m`.'),
  units: z.enum(DEM_UNITS).describe('Unit of the file\'s values: metres or US survey feet.'),
  vertical_accuracy_m: z.number().positive().max(50).optional().describe('Vertical accuracy the data producer states (e.g. RMSEz or NVA at 95 %), in metres; named in every answer that uses the model.'),
  ngvd29_to_navd88_m: z.number().min(-2).max(2).optional().describe('Required with NGVD29: the NGVD29 → NAVD88 shift to add, in metres, as the data\'s metadata states it (Florida: about −0.1 to −0.5 m). No VERTCON grid is applied.'),
  parts: z.number().int().min(1).max(MAX_UPLOAD_PARTS).optional().describe(`GeoTIFFs the model is uploaded in (default 1; at most ${MAX_UPLOAD_PARTS}, each up to 1 GiB): a county's lidar delivered as tiles becomes one model, one surface. The answer has one presigned URL per part (\`upload_urls\`); the model is processed once every part has arrived. The parts lie on one grid (one CRS, one cell size, origins a whole number of cells apart, as tiles cut from one lidar DEM do) and are processed as the one raster they form: the surface is the one a single file holding the same cells would give, seams included. Where parts overlap, a cell takes the first part, in order, that has ground there; gaps between parts are no-data. Parts on different grids are refused (\`unsupported_crs\`, \`unusable_raster\`), as are parts spread over a grid more than 4 times their cells (\`resampled_grid_too_large\`).`),
  cog_url: z.string().max(2000).optional().describe('Register a Cloud-Optimized GeoTIFF where it is instead of uploading a file: an https URL (port 443, no credentials, no private or reserved address) whose server answers byte ranges. Only its header and coarsest overview are read now; analyses then read the windows they need by ranges. The COG must be tiled, single-band, in geographic NAD83 (EPSG:4269) or WGS84 (EPSG:4326), declare its no-data value and have overviews (coarsest image at most 4,096 cells a side). The model is `ready` at once; nothing is copied.'),
}).strict().superRefine((body, ctx) => {
  if (body.vertical_datum === 'NGVD29' && body.ngvd29_to_navd88_m === undefined) {
    ctx.addIssue({ code: 'custom', path: ['ngvd29_to_navd88_m'], message: 'vertical_datum NGVD29 needs ngvd29_to_navd88_m (the shift its metadata states).' });
  }
  if (body.cog_url !== undefined && body.parts !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['parts'], message: 'parts goes with an upload; a COG registered by URL is one file.' });
  }
  if (body.vertical_datum !== 'NGVD29' && body.ngvd29_to_navd88_m !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['ngvd29_to_navd88_m'], message: 'ngvd29_to_navd88_m goes with vertical_datum NGVD29 only.' });
  }
}).openapi('ElevationModelCreate'));

export const ElevationModelSchema = onFirstUse(() => z.object({
  elevation_model_id: z.string().max(40),
  name: z.string().max(200),
  status: z.enum(ELEVATION_MODEL_STATUSES).describe('`pending` until the file arrives, `processing` while it is tiled, then `ready` (used by the hazard analyses) or `failed` (see `error`).'),
  crs: z.object({ epsg: z.number().int(), name: z.string().max(200) }).nullable().describe('The file\'s horizontal coordinate system, once read.'),
  resolution_m: z.number().nullable().describe('Native cell size on the ground, metres.'),
  bbox: z.array(z.number()).length(4).nullable().describe('[west, south, east, north], WGS84 degrees.'),
  vertical_datum: z.enum(DEM_VERTICAL_DATUMS).describe('As stated at creation.'),
  units: z.enum(DEM_UNITS),
  vertical_conversion: z.string().max(400).nullable().describe('The conversion applied to every value (unit, datum shift), once processed.'),
  vertical_accuracy_m: z.number().nullable(),
  source: z.enum(ELEVATION_MODEL_SOURCES).describe('`upload`: a file uploaded and tiled by the service; `cog_url`: a Cloud-Optimized GeoTIFF read by ranges where it is.'),
  parts: z.number().int().min(1).max(MAX_UPLOAD_PARTS).nullable().describe('GeoTIFFs an uploaded model is made of (one surface); null for a `cog_url` model.'),
  cog_url: z.string().max(2000).nullable().describe('Where a `cog_url` model is read from; null for an upload.'),
  nodata: z.number().nullable().describe('The no-data value a `cog_url` model declares (its voids); null for an upload.'),
  error: z.object({ code: z.enum(ELEVATION_MODEL_ERRORS), detail: z.string().max(1000) }).nullable().describe('Why the model failed: not a GeoTIFF, a corrupt file, unknown CRS, unusable raster, a file over a size, compression or cell budget, too few valid cells, heights no ground has, missing datum shift, upload never arrived, worker lost, upload unreadable in storage.'),
  connection: z.object({
    status: z.enum(CONNECTION_STATUSES).describe('`pending` while the tiles are traced, `ready` once every cell\'s spill level over the whole model is cached, or `failed` (see `error`).'),
    tiles: z.number().int().min(0).describe('Tiles the connection is traced in (windows of at most 2,048 cells a side).'),
    error: z.object({ code: z.enum(CONNECTION_ERRORS), detail: z.string().max(1000) }).nullable().describe('Why the run failed: a tile pass or the join failed after its retries, the run could not be started, its executor was lost on every attempt, or the model holds data in more tiles than one join holds.'),
  }).nullable().describe('An uploaded model\'s tidal connection: once the model is ready, every cell\'s spill level over the whole model (which land connects to open water below which level) is traced tile by tile and cached beside its tiles. Null for a model not ready yet, a `cog_url` model, or one ready before connections were traced.'),
  created_at: Timestamp(),
  updated_at: Timestamp(),
}).openapi('ElevationModel'));

export const CreatedElevationModelSchema = onFirstUse(() => ElevationModelSchema().extend({
  upload_url: z.url().max(4000).describe('Presigned S3 URL: PUT the GeoTIFF\'s bytes to it before `upload_expires_at` (the first part\'s, when the model has several).'),
  upload_urls: z.array(z.url().max(4000)).min(1).max(MAX_UPLOAD_PARTS).describe('One presigned S3 URL per part, in order (`upload_urls[0]` is `upload_url`): PUT each part\'s GeoTIFF to its URL before `upload_expires_at`.'),
  upload_method: z.literal('PUT'),
  upload_expires_at: Timestamp(),
  max_upload_bytes: z.number().int(),
}).openapi('ElevationModelCreated'));

export const ElevationModelListSchema = onFirstUse(() => z.object({
  data: z.array(ElevationModelSchema()).max(100),
  next_cursor: z.string().max(2000).nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
}).openapi('ElevationModelList'));
