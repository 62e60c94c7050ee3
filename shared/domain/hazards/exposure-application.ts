import type { AssetStore, ExposureChange } from '../assets/ports';
import type { AnalysedSurfaces, AssetSite } from './analysed-surfaces';
import { siteExposures, vulnerabilityFromExposure, type ExposureMeta } from './asset-exposure';

/** Assets read, and their exposures computed and written, per step: memory holds a page, not the inventory. */
export const EXPOSURE_PAGE = 1000;

/** What applying an analysis to the account's assets wrote, by exposure status. */
export interface AppliedSummary {
  assets_written: number;
  exposed: number;
  not_exposed: number;
  unknown_elevation: number;
  existing_water: number;
}

/**
 * Writes a flood analysis's exposure, and the vulnerability it gives, onto every analysed asset of
 * the account, page by page: a page of stored assets is read, the exposures of its analysed ones
 * are computed from the surfaces and written, then the next page (read while this one is written).
 * Assets outside the analysis are left as they are; without analysed sites nothing is read.
 */
export async function applyExposurePages(
  assets: Pick<AssetStore, 'list' | 'applyExposures'>,
  accountId: string,
  analysed: AnalysedSurfaces | undefined,
  meta: ExposureMeta,
  now: Date,
): Promise<AppliedSummary> {
  const summary: AppliedSummary = { assets_written: 0, exposed: 0, not_exposed: 0, unknown_elevation: 0, existing_water: 0 };
  if (!analysed || analysed.sites.length === 0) return summary;
  const exposureAt = siteExposures(analysed, meta);
  // The last site of an id wins, as in the whole-inventory map.
  const sites = new Map<string, AssetSite>(analysed.sites.map((site) => [site.asset.asset_id, site]));
  const listPage = (cursor: string | undefined) => assets.list(accountId, {}, { limit: EXPOSURE_PAGE, cursor });
  let page = await listPage(undefined);
  for (;;) {
    const changes: ExposureChange[] = [];
    for (const asset of page.items) {
      const site = sites.get(asset.asset_id);
      if (!site) continue;
      const exposure = exposureAt(site);
      changes.push({ asset, exposure, vulnerability: vulnerabilityFromExposure(exposure, asset, now) });
      summary[exposure.status]++;
    }
    const next = page.nextCursor ? listPage(page.nextCursor) : undefined;
    // Settled before the write is awaited, so a failed read cannot go unhandled meanwhile.
    next?.catch(() => undefined);
    if (changes.length > 0) summary.assets_written += await assets.applyExposures(accountId, changes, now);
    if (!next) return summary;
    page = await next;
  }
}
