import type { BBox } from '../hazards/geo';
import type { StoredElevationModel } from './stored-model';
import type { VerticalReference } from './vertical';

/** The accounts' elevation models as the table keeps them. */
export interface ElevationModelStore {
  /** Stores a new model (refused if its id exists). */
  create(model: StoredElevationModel): Promise<void>;
  get(accountId: string, id: string): Promise<StoredElevationModel | undefined>;
  /** One page of the account's models, oldest first; a cursor not issued for this list is refused. */
  list(accountId: string, limit: number, cursor?: string): Promise<{ items: StoredElevationModel[]; nextCursor: string | undefined }>;
  /**
   * Removes the model unless it is being processed — or, with `lostAt`, unless it changed since it
   * was seen processing at that `updated_at` (its worker lost). False when refused or gone.
   */
  delete(accountId: string, id: string, lostAt?: string): Promise<boolean>;
}

/** An account model's objects in the bucket: the GeoTIFF awaited, and the tiles processed from it. */
export interface ElevationModelFiles {
  /** Largest GeoTIFF an upload may be. */
  readonly maxUploadBytes: number;
  /** Where part `part` (from 1) of the model's GeoTIFF is uploaded. */
  uploadKey(accountId: string, modelId: string, part: number): string;
  /** A presigned PUT URL for the upload, valid `seconds`. */
  uploadUrl(key: string, seconds: number): Promise<string>;
  /** The uploads (whether or not they arrived) and the processed model whose `model.json` is at `modelKey`, if any. */
  deleteModelFiles(accountId: string, modelId: string, uploadKeys: readonly string[], modelKey: string | null): Promise<void>;
}

/** What a COG's header says, as its registration stores it. */
export interface CogHeader {
  epsg: number;
  resolution_m: number;
  bbox: BBox;
  nodata: number;
}

/** A COG at a URL, checked (address, ranges, layout, CRS, heights) and described from its header alone. */
export interface CogUrlReader {
  describe(url: string, vertical: VerticalReference): Promise<CogHeader>;
}
