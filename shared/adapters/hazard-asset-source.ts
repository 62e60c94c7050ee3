import type { AssetStore, StoredAsset } from '../domain/assets/ports';
import type { LatLon } from '../domain/hazards/geo';
import { MAX_ANALYSED_ASSETS, type AccountAssetSource } from '../domain/hazards/account-assets';
import type { AssetPoint } from '../domain/hazards/spatial-index';
import { surveyedElevation } from '../domain/hazards/surveyed-elevation';

const PAGE_SIZE = 1000;

function assetPoint(asset: StoredAsset): AssetPoint {
  const surveyed = surveyedElevation(asset.attributes);
  return { asset_id: asset.asset_id, name: asset.name, category: asset.category, lat: asset.lat, lon: asset.lon, ...(surveyed ? { surveyed } : {}) };
}

/** The asset inventory's store, read page by page into points for the hazard analyses. */
export class StoredAssetSource implements AccountAssetSource {
  constructor(private readonly store: AssetStore) {}

  async listAssets(accountId: string): Promise<AssetPoint[]> {
    const points: AssetPoint[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.list(accountId, {}, { limit: PAGE_SIZE, cursor });
      for (const asset of page.items) points.push(assetPoint(asset));
      cursor = page.nextCursor;
    } while (cursor && points.length < MAX_ANALYSED_ASSETS);
    return points;
  }

  async assetsNear(accountId: string, point: LatLon, radiusKm: number): Promise<AssetPoint[]> {
    return (await this.store.near(accountId, point, radiusKm)).map(assetPoint);
  }

  countAssets(accountId: string): Promise<number> {
    return this.store.count(accountId);
  }
}
