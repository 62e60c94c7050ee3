import {
  CreateElevationModelBody, CreateElevationModelHeaders, CreatedElevationModelSchema, ElevationModelListQuery, ElevationModelListSchema,
  ElevationModelParams, ElevationModelSchema,
} from '../schemas/elevation-models';
import * as z from '../schemas/zod';
import { onFirstUse } from '../on-first-use';
import { CONFLICT, KEYED_ERRORS, NOT_FOUND, ok, problem } from './responses';
import { defineRoute } from './types';
import { MAX_MODEL_CELLS } from '../domain/elevation-models/budget';

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** A power-of-ten count as the text writes it: 4 × 10¹⁰. */
const timesTen = (n: number) => {
  const exponent = Math.floor(Math.log10(n));
  return `${n / 10 ** exponent} × 10${[...String(exponent)].map((digit) => SUPERSCRIPT[Number(digit)]).join('')}`;
};
const MODEL_CELLS = timesTen(MAX_MODEL_CELLS);

const PROCESSING = `PUT a single-band GeoTIFF to \`upload_url\` (at most 1 GiB and ${MODEL_CELLS} cells), or, for a model created with \`parts\`, each part to its URL in \`upload_urls\` (at most 1 GiB each, ${MODEL_CELLS} cells together; processing starts when the last part arrives). Any horizontal CRS named by an EPSG code the service reprojects works — Florida State Plane East/West/North in US feet or metres, UTM 16N/17N, Florida GDL Albers, NAD83/WGS84/NAD27 geographic. The worker resamples it bilinearly to a longitude/latitude lattice at its native resolution (fractional values kept), converts the values to metres in the stated datum (NGVD29 to NAVD88 with the stated shift), and tiles it to a pyramid of 256 × 256 Float32 tiles with overviews, one window of 4,096 × 4,096 lattice cells at a time (each window decodes only the strips or tiles it needs), so memory does not grow with the model; a model of more than 16 windows (2.7 × 10⁸ cells) is processed in batches of windows side by side (a Step Functions Distributed Map), then joined into the same model, tile for tile. Before any sample is decoded, the header is priced: at most ${MODEL_CELLS} cells, at most 64 million source cells and 256 MiB of decoded samples per window, at most 32 MiB per strip or tile, a compression ratio of at most 200 : 1, and at most ${MODEL_CELLS} cells once resampled and no more than 4 times the source cells (past a million). Fill values (NaN, ±1e30 and beyond) count as no-data. The model then turns \`ready\`, or \`failed\` with \`error.code\`: \`not_a_geotiff\`, \`unreadable_raster\` (truncated or corrupt strips or tiles), \`unsupported_crs\` (no EPSG code, or one not supported), \`unusable_raster\` (several bands, rotated or missing geotransform), \`raster_too_large\`, \`compression_ratio_exceeded\`, \`resampled_grid_too_large\` (cell sizes that resample to too many cells), \`no_valid_cells\` (under 1 % of the cells hold a value), \`elevation_out_of_range\` (values outside −500…9,000 m after unit conversion), \`processing_limit_exceeded\` (the decoding outgrew its memory or time), \`invalid_vertical_reference\`, \`file_too_large\`, \`upload_expired\` (nothing uploaded within 15 minutes of the URL expiring), \`worker_lost\` (its worker was lost twice; a first loss is processed again), \`storage_unavailable\` (the upload could not be read from storage on either of two attempts; the file was not judged).`;

const BY_URL = 'Or register a Cloud-Optimized GeoTIFF where it is (a NOAA coastal DEM, a county\'s lidar COG) with `cog_url` and the same naming and datum fields: the URL is judged as webhook URLs are (https on 443, no credentials, no private, loopback or reserved address, every resolved address checked), only the header and the coarsest overview are read by byte ranges, and the model answers 201 `ready` at once with `source: "cog_url"`, its `bbox`, `resolution_m` and `nodata`; analyses then read the windows they need by ranges, never the whole file. A COG that cannot be read so is refused at once: 400 `cog_url_refused`; 502 `cog_unreachable` (the host does not resolve or answer); 422 `cog_no_ranges` (no 206 answers), `not_a_cog`, `unsupported_crs` (only geographic NAD83/WGS84 are read by ranges: upload other files to have them reprojected), `cog_no_nodata`, `cog_window_too_large` (tiles over 1,048,576 cells, or no overviews bringing it to 4,096 cells a side), `elevation_out_of_range`.';

const USE = 'Once ready, the account\'s models are read first wherever they cover the point asked about, by `POST /hazards/slr-impact` and `POST /hazards/flood-analysis` (finest resolution first, then the newest), before the bundled bare-earth models and SRTM; answers name the model (`elevation.source.elevation_model_id`), its resolution and its stated vertical accuracy. Other accounts never see or use them.';

export const createElevationModelRoute = defineRoute({
  id: 'createElevationModel', method: 'POST', path: '/hazards/elevation-models', group: 'hazards', auth: 'api_key', minTier: 'pro',
  tags: ['Elevation models'], summary: 'Bring your own DEM: create a model and get its upload URL, or register a COG by URL',
  description: `Creates a pending elevation model (a bare-earth DEM, e.g. a county's lidar DEM) and a presigned S3 \`upload_url\`. ${PROCESSING}\n\n${BY_URL}\n\n${USE}`,
  request: { headers: CreateElevationModelHeaders, body: CreateElevationModelBody, maxBodyBytes: 16 * 1024 },
  responses: {
    201: {
      ...ok('The pending model and its upload URL; with `cog_url`, the ready model.', onFirstUse(() => z.union([CreatedElevationModelSchema(), ElevationModelSchema()]))),
      headers: { Location: { description: 'The model URL.', schema: { type: 'string' } } },
    },
    ...KEYED_ERRORS,
    400: problem('Invalid request (`invalid_request`, `malformed_body`), or a `cog_url` refused by the URL rules (`cog_url_refused`).'),
    422: problem('`Idempotency-Key` reused with another body (`idempotency_key_reused`), or a `cog_url` that cannot be read by ranges as an elevation model (`cog_no_ranges`, `not_a_cog`, `unsupported_crs`, `cog_no_nodata`, `cog_window_too_large`, `elevation_out_of_range`).'),
    502: problem('A `cog_url` whose host does not resolve or answer (`cog_unreachable`).'),
  },
});

export const listElevationModelsRoute = defineRoute({
  id: 'listElevationModels', method: 'GET', path: '/hazards/elevation-models', group: 'hazards', auth: 'api_key', minTier: 'pro',
  tags: ['Elevation models'], summary: 'The account\'s elevation models',
  description: 'Every model of the calling account in any status, one page at a time (`limit`, `cursor` from `next_cursor`). Other accounts\' models are never listed.',
  request: { query: ElevationModelListQuery },
  responses: { 200: ok('One page of models.', ElevationModelListSchema), ...KEYED_ERRORS },
});

export const getElevationModelRoute = defineRoute({
  id: 'getElevationModel', method: 'GET', path: '/hazards/elevation-models/{elevation_model_id}', group: 'hazards', auth: 'api_key', minTier: 'pro',
  tags: ['Elevation models'], summary: 'Status of an elevation model: CRS, resolution, box, datum, or why it failed',
  description: 'Poll after the upload: `pending` → `processing` → `ready` (with `crs`, `resolution_m`, `bbox` and the `vertical_conversion` applied) or `failed` (with `error.code` and `detail`). Another account\'s model is 404.',
  request: { params: ElevationModelParams },
  responses: { 200: ok('The model.', ElevationModelSchema), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const deleteElevationModelRoute = defineRoute({
  id: 'deleteElevationModel', method: 'DELETE', path: '/hazards/elevation-models/{elevation_model_id}', group: 'hazards', auth: 'api_key', minTier: 'pro',
  tags: ['Elevation models'], summary: 'Delete an elevation model and its tiles',
  description: 'Analyses no longer use it. A model being processed answers 409 `conflict`: delete it once it is ready or failed.',
  request: { params: ElevationModelParams },
  responses: { 204: { description: 'Deleted.' }, ...NOT_FOUND, ...CONFLICT, ...KEYED_ERRORS },
});

export const elevationModelRoutes = [createElevationModelRoute, listElevationModelsRoute, getElevationModelRoute, deleteElevationModelRoute];
