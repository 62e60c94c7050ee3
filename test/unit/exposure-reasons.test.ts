import { assetExposures } from '../../shared/domain/hazards/asset-exposure';
import type { AnalysedSurfaces, AssetSite } from '../../shared/domain/hazards/flood-analysis';
import type { WaterSurface } from '../../shared/domain/hazards/flood-surfaces';

/**
 * Every asset without a depth says why: a surge surface at 2.0 m NAVD88 that reaches every asset
 * west of 0° and none east of it, and assets on each side of the cases.
 */
const LEVEL = 2;
const surface: WaterSurface = { levelAtCell: () => LEVEL, levelAtPoint: (lon) => (lon < 0 ? LEVEL : -Infinity) };
const site = (id: string, lon: number, extra: Partial<AssetSite>): AssetSite => ({
  asset: { asset_id: id, name: id, category: 'critical_infrastructure', lat: 27, lon }, cell: undefined, ground: undefined, ...extra,
});
const sites = [
  site('under-water', -1, { ground: 0.5 }),
  site('level-with-the-water', -1, { ground: LEVEL }),
  site('high-ground', -1, { ground: 3.2 }),
  site('unreached', 1, { ground: 0.5 }),
  site('no-ground', -1, {}),
  site('on-open-water', -1, { ground: 0.1, open_water: true }),
];
const analysed: AnalysedSurfaces = {
  model: undefined, mask: undefined, sites, mhhwAt: () => 0,
  surfaces: new Map([['surge|intermediate|2050', surface], ['surge|intermediate|2100', surface]]),
};
const exposures = assetExposures(analysed, { analysisId: 'fa-1', assessmentId: null, analysedAt: '2026-01-01T00:00:00Z' });
const of = (id: string) => exposures.get(id)!;

describe('exposure with reasons', () => {
  it('gives a depth and no reason where the water is above the ground', () => {
    expect(of('under-water')).toMatchObject({ status: 'exposed', max_depth_ft: 4.92 });
    expect(of('under-water')).not.toHaveProperty('reason');
    for (const d of of('under-water').depths) expect(d).not.toHaveProperty('reason');
  });

  it.each([
    ['level-with-the-water', 'not_exposed', 'above_water_level'],
    ['high-ground', 'not_exposed', 'above_water_level'],
    ['unreached', 'not_exposed', 'not_connected'],
    ['no-ground', 'unknown_elevation', 'outside_model'],
    ['on-open-water', 'existing_water', 'open_water'],
  ])('%s: %s because %s, in every scenario and horizon and overall', (id, status, reason) => {
    const exposure = of(id);
    expect(exposure.status).toBe(status);
    expect(exposure.reason).toBe(reason);
    expect(exposure.depths).toHaveLength(2);
    for (const d of exposure.depths) expect(d.reason).toBe(reason);
  });

});
