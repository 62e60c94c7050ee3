import type { AssetStore, ExposureChange, StoredAsset } from '../../shared/domain/assets/ports';
import type { AnalysedSurfaces, AssetSite } from '../../shared/domain/hazards/analysed-surfaces';
import { applyExposurePages, EXPOSURE_PAGE } from '../../shared/domain/hazards/exposure-application';

const NOW = new Date('2026-11-23T15:00:00Z');
const meta = { analysisId: 'fa_pages', assessmentId: null, analysedAt: NOW.toISOString() };

/** Water at 1.1 m everywhere; ground at 0.2 m (0.9 m deep, exposed) or 4 m (dry) by the asset's number. */
function analysedOf(count: number): AnalysedSurfaces {
  const sites: AssetSite[] = Array.from({ length: count }, (_, i) => ({
    asset: { asset_id: `a_${i}`, name: `a_${i}`, category: 'transportation', lat: 24.55, lon: -81.78 },
    cell: undefined,
    ground: i % 2 === 0 ? 0.2 : 4,
  }));
  const level = { levelAtCell: () => 1.1, levelAtPoint: () => 1.1 };
  return { model: undefined, mask: undefined, sites, surfaces: new Map([['surge|intermediate|2046', level]]), mhhwAt: () => 0 };
}

/** A store of `count` assets (ids a_0 …) in pages of EXPOSURE_PAGE, recording reads and writes in order. */
function pagedStore(count: number) {
  const events: string[] = [];
  const written: ExposureChange[][] = [];
  const store: Pick<AssetStore, 'list' | 'applyExposures'> = {
    list: async (_account, _filter, page) => {
      const start = Number(page.cursor ?? 0);
      events.push(`read ${start}`);
      const end = Math.min(count, start + page.limit);
      const items = Array.from({ length: end - start }, (_, i) => ({ asset_id: `a_${start + i}`, category: 'transportation', vulnerability: null }) as unknown as StoredAsset);
      return { items, nextCursor: end < count ? String(end) : undefined };
    },
    applyExposures: async (_account, changes) => {
      events.push(`write ${changes.length}`);
      written.push(changes);
      await new Promise((resolve) => setImmediate(resolve));
      return changes.length;
    },
  };
  return { store, events, written };
}

describe('applying exposures a page at a time', () => {
  it('writes each page before the page after next is read, and counts what it wrote', async () => {
    const assets = 2 * EXPOSURE_PAGE + 10;
    const { store, events, written } = pagedStore(assets);
    const summary = await applyExposurePages(store, 'acct_1', analysedOf(assets), meta, NOW);
    // The next page is read while one is written: never more than two pages held.
    expect(events).toEqual([`read 0`, `read ${EXPOSURE_PAGE}`, `write ${EXPOSURE_PAGE}`, `read ${2 * EXPOSURE_PAGE}`, `write ${EXPOSURE_PAGE}`, 'write 10']);
    // Even-numbered assets stand in 0.9 m of water, odd ones on dry ground.
    expect(summary).toEqual({ assets_written: assets, exposed: assets / 2, not_exposed: assets / 2, unknown_elevation: 0, existing_water: 0 });
    const first = written[0]![0]!;
    expect(first.asset.asset_id).toBe('a_0');
    expect(first.exposure).toMatchObject({ analysis_id: 'fa_pages', status: 'exposed', max_depth_ft: 2.95 });
    expect(written.flat().map((c) => c.asset.asset_id)).toEqual(Array.from({ length: assets }, (_, i) => `a_${i}`));
  });

  it('writes only the analysed assets of a page, and nothing for a page without any', async () => {
    const { store, events, written } = pagedStore(EXPOSURE_PAGE + 5);
    // Only the first three assets are inside the analysis.
    const summary = await applyExposurePages(store, 'acct_1', analysedOf(3), meta, NOW);
    expect(events).toEqual(['read 0', `read ${EXPOSURE_PAGE}`, 'write 3']);
    expect(written.flat().map((c) => c.asset.asset_id)).toEqual(['a_0', 'a_1', 'a_2']);
    expect(summary).toMatchObject({ assets_written: 3, exposed: 2, not_exposed: 1 });
  });
});
