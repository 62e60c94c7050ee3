import { createHash } from 'node:crypto';
import type { AnalysedSurfaces, AssetSite } from '../../shared/domain/hazards/flood-analysis';
import type { WaterSurface } from '../../shared/domain/hazards/flood-surfaces';
import { assetExposures, exposureScore, vulnerabilityFromExposure } from '../../shared/domain/hazards/asset-exposure';
import { sortAssets, sortedPage } from '../../shared/domain/deliverables/asset-priority';
import { InvalidCursorError } from '../../shared/domain/errors';
import type { StoredAsset } from '../../shared/domain/assets/ports';

const flat = (level: number): WaterSurface => ({ levelAtCell: () => level, levelAtPoint: () => level });
const dry: WaterSurface = { levelAtCell: () => -Infinity, levelAtPoint: () => -Infinity };
const site = (asset_id: string, ground: number | undefined): AssetSite => ({ asset: { asset_id, name: asset_id, category: 'community_emergency', lat: 24.55, lon: -81.78 }, cell: 0, ground });

function analysed(surfaces: Record<string, WaterSurface>, sites: AssetSite[]): AnalysedSurfaces {
  return { model: undefined, mask: undefined, sites, surfaces: new Map(Object.entries(surfaces)), mhhwAt: () => 0.0082 };
}

const meta = { analysisId: 'fa_1', assessmentId: 'va_1', analysedAt: '2026-11-23T00:00:00.000Z' };
const NOW = new Date('2026-11-23T00:00:00Z');

describe('asset exposure from design water surfaces', () => {
  const surfaces = {
    'tidal|intermediate|2046': flat(0.5),
    'surge|intermediate|2046': flat(1.2),
    'tidal|intermediate|2076': flat(0.9),
    'surge|intermediate|2076': dry,
    'compound|intermediate|2046': flat(99), // not a component surface: ignored
  };

  it('takes the envelope of the components per scenario × horizon and names the governing one', () => {
    const result = assetExposures(analysed(surfaces, [site('a', 0.3)]), meta).get('a')!;
    expect(result.components).toEqual(['tidal', 'surge']);
    expect(result.depths).toEqual([
      { scenario: 'intermediate', planning_horizon: 2046, water_level_navd88_m: 1.2, depth_m: 0.9, depth_ft: 2.95, governing_component: 'surge' },
      { scenario: 'intermediate', planning_horizon: 2076, water_level_navd88_m: 0.9, depth_m: 0.6, depth_ft: 1.97, governing_component: 'tidal' },
    ]);
    expect(result).toMatchObject({ status: 'exposed', first_exposed_year: 2046, max_depth_ft: 2.95, ground_elevation_navd88_m: 0.3 });
  });

  it('checks the local datum of the tidal levels at each asset, at its own place, and only with tidal levels', () => {
    const asked: [number, number][] = [];
    const sites = [site('a', 0.3), { ...site('b', 1), asset: { ...site('b', 1).asset, lat: 30.3257, lon: -81.6594 } }];
    const withTidal = assetExposures({ ...analysed(surfaces, sites), mhhwAt: (lon, lat) => (asked.push([lon, lat]), lat > 30 ? 0.7677 : 0.0082) }, meta);
    expect(asked).toEqual([[-81.78, 24.55], [-81.6594, 30.3257]]);
    // Key West's station agrees with the Keys gauges; downtown Jacksonville's is far below the gauges' MHHW.
    expect(withTidal.get('a')!.tidal_datum_check).toMatchObject({ status: 'agrees', mhhw_used_navd88_m: 0.0082, station: { noaa_id: '8724580' } });
    expect(withTidal.get('b')!.tidal_datum_check).toMatchObject({ status: 'differs', mhhw_used_navd88_m: 0.7677, station: { noaa_id: '8720226' } });
    const surgeOnly = assetExposures(analysed({ 'surge|intermediate|2046': flat(1.2) }, sites), meta);
    expect(surgeOnly.get('a')).not.toHaveProperty('tidal_datum_check');
  });

  it('reports ground above every level as not exposed, and unknown ground as unknown', () => {
    const map = assetExposures(analysed(surfaces, [site('high', 5), site('void', undefined)]), meta);
    expect(map.get('high')).toMatchObject({ status: 'not_exposed', first_exposed_year: null, max_depth_ft: 0 });
    expect(map.get('high')!.depths.every((d) => d.depth_m === 0)).toBe(true);
    expect(map.get('void')).toMatchObject({ status: 'unknown_elevation', max_depth_ft: null });
    expect(map.get('void')!.depths.every((d) => d.depth_m === null)).toBe(true);
  });

  it('scores exposure as min(1, depth/3 ft) × horizon weight and vulnerability as exposure × sensitivity × (1 − adaptive capacity)', () => {
    const exposure = assetExposures(analysed(surfaces, [site('a', 0.3)]), meta).get('a')!;
    // 2046 is 20 years ahead (weight 1): 2.95/3; 2076 is 50 ahead (weight 0.75): 1.97/3 × 0.75.
    expect(exposureScore(exposure, 2026)).toBeCloseTo(2.95 / 3, 4);
    expect(exposureScore(exposure, 2025)).toBeCloseTo(Math.max((2.95 / 3) * 0.75, (1.97 / 3) * 0.75), 4);
    const fresh = vulnerabilityFromExposure(exposure, { category: 'transportation', vulnerability: null }, NOW)!;
    expect(fresh).toMatchObject({ sensitivity: 0.8, adaptive_capacity: 0, first_exposed_year: 2046, impact_timeline: 'near_term', hazard_type: 'compound_flooding', scenario: 'intermediate', flood_depth_ft: 2.95 });
    expect(fresh.vulnerability_score).toBeCloseTo((2.95 / 3) * 0.8, 3);
    const assessed = vulnerabilityFromExposure(exposure, { category: 'transportation', vulnerability: { ...fresh, sensitivity: 0.5, adaptive_capacity: 0.4 } }, NOW)!;
    expect(assessed.vulnerability_score).toBeCloseTo((2.95 / 3) * 0.5 * 0.6, 3);
  });

  it('caps exposure at 1 and leaves unknown ground without a vulnerability', () => {
    const deep = assetExposures(analysed({ 'tidal|high|2030': flat(3) }, [site('d', -1), site('u', undefined)]), meta);
    expect(exposureScore(deep.get('d')!, 2026)).toBe(1);
    expect(vulnerabilityFromExposure(deep.get('u')!, { category: 'transportation', vulnerability: null }, NOW)).toBeUndefined();
  });
});

describe('prioritized asset list', () => {
  const asset = (asset_id: string, name: string, score: number | null, depth: number | null, year: number | null): StoredAsset => ({
    asset_id, name, category: 'community_emergency',
    vulnerability: score === null ? null : { vulnerability_score: score, first_exposed_year: year, flood_depth_ft: depth } as StoredAsset['vulnerability'],
  }) as StoredAsset;
  const assets = [
    asset('1', 'beta', 0.5, 1, 2050),
    asset('2', 'Alpha', null, null, null),
    asset('3', 'gamma', 0.9, 2, 2076),
    asset('4', 'delta', 0.5, 3, 2046),
    asset('5', 'epsilon', 0, 0, null),
  ];
  const ids = (list: StoredAsset[]) => list.map((a) => a.asset_id);

  it('orders by score, then depth and first exposure, unscored last', () => {
    expect(ids(sortAssets(assets, '-vulnerability_score'))).toEqual(['3', '4', '1', '5', '2']);
    expect(ids(sortAssets(assets, 'vulnerability_score'))).toEqual(['5', '1', '4', '3', '2']);
    expect(ids(sortAssets(assets, 'first_exposed_year'))).toEqual(['4', '1', '3', '5', '2']);
    expect(ids(sortAssets(assets, 'name'))).toEqual(['2', '1', '4', '5', '3']);
  });

  it('pages with a cursor that only continues the same query', () => {
    const query = { accountId: 'a', filter: { jurisdictionId: 'county:12087' }, sort: 'name' as const };
    const first = sortedPage([1, 2, 3, 4, 5], query, 2);
    expect(first.items).toEqual([1, 2]);
    const second = sortedPage([1, 2, 3, 4, 5], query, 2, first.nextCursor!);
    expect(second.items).toEqual([3, 4]);
    expect(sortedPage([1, 2, 3, 4, 5], query, 2, second.nextCursor!)).toEqual({ items: [5], nextCursor: null });
    expect(() => sortedPage([1, 2, 3], { ...query, sort: '-vulnerability_score' }, 2, first.nextCursor!)).toThrow(InvalidCursorError);
    expect(() => sortedPage([1, 2, 3], query, 2, 'not-a-cursor')).toThrow(InvalidCursorError);
  });

  it('ends the list exactly at its last item, and its cursor is the offset with the first 16 hex digits of the query\'s SHA-256', () => {
    const query = { accountId: 'a', filter: { jurisdictionId: 'county:12087' }, sort: 'name' as const };
    const first = sortedPage([1, 2, 3, 4], query, 2);
    const content = JSON.parse(Buffer.from(first.nextCursor!, 'base64url').toString('utf8'));
    // Keys in sorted order, as the canonical form of the query is hashed.
    const fingerprint = createHash('sha256').update('{"accountId":"a","filter":{"jurisdictionId":"county:12087"},"sort":"name"}').digest('hex').slice(0, 16);
    expect(content).toEqual({ o: 2, f: fingerprint });
    expect(sortedPage([1, 2, 3, 4], query, 2, first.nextCursor!)).toEqual({ items: [3, 4], nextCursor: null });
    const cursor = (o: unknown) => Buffer.from(JSON.stringify({ o, f: fingerprint })).toString('base64url');
    expect(sortedPage([1, 2, 3, 4], query, 3, cursor(0))).toEqual({ items: [1, 2, 3], nextCursor: cursor(3) });
    for (const bad of [-1, 1.5, '2', null]) expect(() => sortedPage([1, 2, 3, 4], query, 2, cursor(bad))).toThrow(InvalidCursorError);
  });

  it('breaks ties of name without regard to case or accents, then by id; and ties of year by the higher score', () => {
    const named = (asset_id: string, name: string) => asset(asset_id, name, null, null, null);
    const same = [named('b', 'pier'), named('a', 'Pier'), named('d', 'Café'), named('c', 'cafe'), named('e', 'Cafe')];
    expect(ids(sortAssets(same, 'name'))).toEqual(['c', 'd', 'e', 'a', 'b']);
    expect(ids(sortAssets([...same].reverse(), 'name'))).toEqual(['c', 'd', 'e', 'a', 'b']);
    const sameYear = [asset('low', 'a', 0.3, 1, 2050), asset('high', 'b', 0.8, 1, 2050), asset('early', 'c', 0.1, 1, 2040)];
    expect(ids(sortAssets(sameYear, 'first_exposed_year'))).toEqual(['early', 'high', 'low']);
  });
});

describe('assets on open water of the elevation model', () => {
  it('are existing_water without depth or vulnerability, not "not exposed"', () => {
    const model = { grid: { values: new Float32Array([-0.2, 2]), width: 2, height: 1 }, water: new Uint8Array([1, 0]), spill: new Float32Array(2) } as unknown as AnalysedSurfaces['model'];
    const sites = [{ ...site('sea', -0.2), cell: 0 }, { ...site('land', 2), cell: 1 }];
    const map = assetExposures({ model, mask: undefined, sites, surfaces: new Map([['tidal|intermediate|2046', flat(0.5)]]), mhhwAt: () => 0.0082 }, meta);
    expect(map.get('sea')).toMatchObject({ status: 'existing_water', ground_elevation_navd88_m: null, max_depth_ft: null });
    expect(vulnerabilityFromExposure(map.get('sea')!, { category: 'community_emergency', vulnerability: null }, NOW)).toBeUndefined();
    expect(map.get('land')).toMatchObject({ status: 'not_exposed', ground_elevation_navd88_m: 2 });
  });
});

describe('asset exposure: order, ties and the hazard named', () => {
  it('lists scenario × horizon by year, then scenario, once each, each from its own surfaces', () => {
    const surfaces = {
      'tidal|low|2050': flat(0.4),
      'tidal|intermediate|2050': flat(0.6),
      'surge|intermediate|2050': flat(0.5),
      'tidal|intermediate|2030': flat(0.35),
    };
    const result = assetExposures(analysed(surfaces, [site('a', 0.3)]), meta).get('a')!;
    expect(result.depths.map((d) => [d.planning_horizon, d.scenario, d.water_level_navd88_m, d.governing_component])).toEqual([
      [2030, 'intermediate', 0.35, 'tidal'],
      [2050, 'intermediate', 0.6, 'tidal'],
      [2050, 'low', 0.4, 'tidal'],
    ]);
  });

  it('names the first component listed when two reach the same level, and none where no surface reaches', () => {
    const tie = assetExposures(analysed({ 'tidal|high|2050': flat(1), 'surge|high|2050': flat(1), 'tidal|high|2070': dry }, [site('a', 0.5)]), meta).get('a')!;
    expect(tie.depths).toEqual([
      { scenario: 'high', planning_horizon: 2050, water_level_navd88_m: 1, depth_m: 0.5, depth_ft: 1.64, governing_component: 'tidal' },
      { scenario: 'high', planning_horizon: 2070, water_level_navd88_m: null, depth_m: 0, depth_ft: 0, governing_component: null, reason: 'not_connected' },
    ]);
  });

  it('takes the scenario of the first deepest result, the hazard of a single component, and says whose sensitivity it used', () => {
    // The same depth under two scenarios: the first listed (by year, then scenario) is the worst.
    const exposure = assetExposures(analysed({ 'surge|intermediate|2050': flat(1), 'surge|low|2050': flat(1) }, [site('a', 0.5)]), meta).get('a')!;
    const fresh = vulnerabilityFromExposure(exposure, { category: 'transportation', vulnerability: null }, NOW)!;
    expect(fresh).toMatchObject({ hazard_type: 'storm_surge', scenario: 'intermediate' });
    expect(fresh.notes).toMatch(/sensitivity 0\.8 \(the transportation default\)/);
    const assessed = vulnerabilityFromExposure(exposure, { category: 'transportation', vulnerability: { ...fresh, sensitivity: 0.6 } }, NOW)!;
    expect(assessed.notes).toMatch(/sensitivity 0\.6 \(the assessor's earlier value\)/);
  });

  it('an analysis with no component surface scores zero and names tidal flooding', () => {
    const none = assetExposures(analysed({}, [site('a', 0.5)]), meta).get('a')!;
    expect(none).toMatchObject({ status: 'not_exposed', components: [], depths: [], max_depth_ft: null });
    expect(vulnerabilityFromExposure(none, { category: 'transportation', vulnerability: null }, NOW)).toMatchObject({ hazard_type: 'tidal_flooding', exposure: 0 });
  });
});
