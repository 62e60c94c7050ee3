import type { AssetPoint } from './spatial-index';
import type { LatLon } from './geo';

/** Secondary port: the caller's imported assets as points, all of them (the analyses index them). */
export interface AccountAssetSource {
  listAssets(accountId: string): Promise<AssetPoint[]>;
  /**
   * Those near a point: every asset within `radiusKm` and perhaps a few beyond (the caller
   * measures), read in time that does not grow with the inventory.
   */
  assetsNear(accountId: string, point: LatLon, radiusKm: number): Promise<AssetPoint[]>;
  /** How many assets the account has, without listing them (decides whether an analysis needs a job). */
  countAssets(accountId: string): Promise<number>;
}

/** Above this many assets an account's analysis needs a job anyway; listing stops there. */
export const MAX_ANALYSED_ASSETS = 200_000;
