import { JobFailureError } from '../job-failure';

/** Why an uploaded raster cannot become a model: each reason is a stable `error.code` of the failed model. */
export type RasterErrorCode =
  | 'not_a_geotiff' | 'unsupported_crs' | 'unusable_raster' | 'unreadable_raster'
  | 'raster_too_large' | 'resampled_grid_too_large' | 'compression_ratio_exceeded'
  | 'no_valid_cells' | 'elevation_out_of_range' | 'processing_limit_exceeded';

/**
 * A stored upload that could not be read (the bucket, not the file: a read that failed after the
 * SDK's own retries, an object gone): the file is not judged, and processing is tried again.
 */
export class UploadReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadReadError';
  }
}

/** A refusal of the file itself (never of the service): the model ends `failed` with `code`. */
export class RasterError extends JobFailureError {
  constructor(message: string, readonly code: RasterErrorCode = 'unusable_raster') {
    super(message);
    this.name = 'RasterError';
  }
}
