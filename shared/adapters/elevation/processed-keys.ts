import type { TileWindow } from '../../domain/hazards/tiled-connection';

/**
 * Bucket prefixes of account elevation models, read by the stack (grants, notification, lifecycle)
 * and by the code that writes them: uploads arrive under the first, processed models live under the second.
 */
/**
 * Largest GeoTIFF (or part of a model) accepted. It is read by byte ranges, one window's strips or
 * tiles at a time, so the limit is not memory: it bounds one processing run's reading (1 GiB of
 * deflate terrain is 3 to 5 × 10⁸ Float32 cells).
 */
export const MAX_DEM_UPLOAD_BYTES = 1024 * 1024 * 1024;

export const ELEVATION_UPLOADS_PREFIX = 'elevation-uploads/';
export const ACCOUNT_MODELS_PREFIX = 'elevation-models/';

/** Where a model's GeoTIFF is uploaded; a model in several parts has its second and later parts beside the first. */
export const elevationUploadKey = (accountId: string, modelId: string, part = 1) => `${ELEVATION_UPLOADS_PREFIX}${accountId}/${modelId}${part === 1 ? '' : `.part-${part}`}.tif`;
export const accountModelPrefix = (accountId: string, modelId: string) => `${ACCOUNT_MODELS_PREFIX}${accountId}/${modelId}/`;

/** Models the operator loads for every account (bin/dem-load.ts --publish), listed in one index object. */
export const OPERATOR_MODELS_PREFIX = `${ACCOUNT_MODELS_PREFIX}operator/`;
export const OPERATOR_MODELS_INDEX = `${OPERATOR_MODELS_PREFIX}index.json`;
/** Each publication of a model has its own prefix, so readers of the previous one never see it half-replaced. */
export const operatorModelPrefix = (modelId: string, version: string) => `${OPERATOR_MODELS_PREFIX}${modelId}/${version}/`;

const UPLOAD_KEY = /^elevation-uploads\/([^/]+)\/(em_[a-z0-9]{32})(?:\.part-[1-9][0-9]{0,2})?\.tif$/;

/** The account and model an upload key (of any part) belongs to, or undefined for any other key. */
export function parseElevationUploadKey(key: string): { accountId: string; modelId: string } | undefined {
  const match = UPLOAD_KEY.exec(key);
  return match ? { accountId: match[1]!, modelId: match[2]! } : undefined;
}

/**
 * The tidal connection of a model, beside its tiles under its prefix: per tile its trace and rim
 * (intermediate) and its spill levels (the cache), and the run's status.
 */
const connectionTileName = (tile: TileWindow) => `${tile.row}-${tile.col}-${tile.width}x${tile.height}`;
export const connectionKeys = (prefix: string) => ({
  trace: (tile: TileWindow) => `${prefix}connection/trace/${connectionTileName(tile)}.bin`,
  rim: (tile: TileWindow) => `${prefix}connection/rim/${connectionTileName(tile)}.bin`,
  spill: (tile: TileWindow) => `${prefix}connection/spill/${connectionTileName(tile)}.bin.gz`,
  status: `${prefix}connection/status.json`,
  /** The run's tiles as a JSON array: a fan-out's maps and its join read them from here, not from the run's input. */
  tiles: `${prefix}connection/tiles.json`,
});

/** A fanned-out processing run's result of one batch of windows, beside the model's tiles until the join removes it. */
export const processingBatchKey = (prefix: string, runId: string, first: number) => `${prefix}processing/${runId}/batch-${first}.bin`;
