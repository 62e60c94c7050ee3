import { equalAreaNotes, exposureSummary, ExposureTally, type ExposureCombo } from '../../shared/domain/deliverables/exposure-summary';
import { floodAnalysisRecord } from '../../shared/domain/hazards/analysis-record';
import type { StoredAsset } from '../../shared/domain/assets/ports';

/** The assets counted one at a time, as the package reads its pages. */
function tallied(combos: { scenario: string; planning_horizon: number }[], assets: StoredAsset[]): ExposureTally {
  const tally = new ExposureTally(combos);
  for (const asset of assets) tally.add(asset);
  return tally;
}

/** Why scenario and horizon pairs show the same exposed land, and which areas the summary reads. */
const combo = (scenario: string, planning_horizon: number, areas: (number | null)[], level: number | null): ExposureCombo => ({
  scenario, planning_horizon, components: [], exposed: 0, areas_km2: areas, highest_level_m: level, map_km2: null,
});
const SRTM_STEPS = { step_m: 1, lowest_land_levels_navd88_m: [0.742, 1.742, 2.742] };

describe('equal-area notes', () => {
  it('says nothing when every pair differs, when a pair stands alone, or when an area is missing', () => {
    expect(equalAreaNotes([combo('intermediate', 2046, [1], 1), combo('intermediate', 2076, [2], 1.5)], SRTM_STEPS)).toEqual([]);
    expect(equalAreaNotes([combo('intermediate', 2046, [1, null], 1), combo('intermediate', 2076, [1, null], 1.5)], SRTM_STEPS)).toEqual([]);
    expect(equalAreaNotes([combo('intermediate', 2046, [], 1), combo('intermediate', 2076, [], 1.5)], SRTM_STEPS)).toEqual([]);
  });

  it('names the two land heights the levels lie between', () => {
    expect(equalAreaNotes([combo('intermediate_low', 2046, [5.5], 0.99), combo('intermediate', 2076, [5.5], 1.37)], SRTM_STEPS)).toEqual([
      'The exposed land is the same for intermediate-low 2046, intermediate 2076: their highest design water levels (0.99 m to 1.37 m NAVD88) all lie between two land heights of the elevation model (0.74 m and 1.74 m NAVD88). Its heights come in steps of 1 m, with no land cell between them, so these levels cover the same cells; the steps are the model\'s, not the ground\'s.',
    ]);
  });

  it('says when the levels lie below the lowest land, and gives one level once', () => {
    expect(equalAreaNotes([combo('intermediate_low', 2046, [0], 0.5), combo('intermediate', 2046, [0], 0.5)], SRTM_STEPS)[0])
      .toMatch(/\(0\.50 m NAVD88\) all lie below the elevation model's lowest land height \(0\.74 m NAVD88\)\./);
  });

  it('land is under water only below the level: a level at a land height has not reached it, a level above it has', () => {
    const between = /all lie between two land heights of the elevation model \(0\.74 m and 1\.74 m NAVD88\)/;
    const generic = /: their highest design water levels \(.*\) reach no further land connected to the water in the elevation model\.$/;
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 1.2), combo('intermediate', 2076, [3], 1.742)], SRTM_STEPS)[0]).toMatch(between);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 1.2), combo('intermediate', 2076, [3], 1.75)], SRTM_STEPS)[0]).toMatch(generic);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 0.742), combo('intermediate', 2076, [3], 1.2)], SRTM_STEPS)[0]).toMatch(generic);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 0.75), combo('intermediate', 2076, [3], 1.2)], SRTM_STEPS)[0]).toMatch(between);
    // One level, at a land height: the land below it is under water, that height's is not.
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 1.742), combo('intermediate', 2076, [3], 1.742)], SRTM_STEPS)[0]).toMatch(/\(1\.74 m NAVD88\) all lie between two land heights of the elevation model \(0\.74 m and 1\.74 m NAVD88\)/);
  });

  it('beyond the heights listed, with no heights or without steps, the reason is the land the water reaches', () => {
    const generic = /: their highest design water levels \(.*\) reach no further land connected to the water in the elevation model\.$/;
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 2.7), combo('intermediate', 2076, [3], 2.742)], SRTM_STEPS)[0]).toMatch(/between two land heights of the elevation model \(1\.74 m and 2\.74 m NAVD88\)/);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 2.8), combo('intermediate', 2076, [3], 2.9)], SRTM_STEPS)[0]).toMatch(generic);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 1.1), combo('intermediate', 2076, [3], 1.3)], { step_m: 1, lowest_land_levels_navd88_m: [] })[0]).toMatch(generic);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 1.1), combo('intermediate', 2076, [3], 1.3)], undefined)[0]).toMatch(generic);
    expect(equalAreaNotes([combo('intermediate_low', 2046, [3], 1.1), combo('intermediate', 2076, [3], null)], SRTM_STEPS))
      .toEqual(['The exposed land is the same for intermediate-low 2046, intermediate 2076: the higher water levels reach no further land connected to the water in the elevation model.']);
  });

  it('groups by every component\'s area together', () => {
    const notes = equalAreaNotes([combo('a', 2046, [1, 5], 1.1), combo('b', 2046, [2, 5], 1.2), combo('c', 2046, [1, 5], 1.3), combo('d', 2076, [2, 5], 1.4)], SRTM_STEPS);
    expect(notes.map((n) => n.slice(0, n.indexOf(':')))).toEqual(['The exposed land is the same for a 2046, c 2046', 'The exposed land is the same for b 2046, d 2076']);
  });
});

describe('the summary of an answer', () => {
  const asset = (depths: [string, number, number][], status = 'exposed') => ({
    exposure: { status, depths: depths.map(([scenario, planning_horizon, depth_ft]) => ({ scenario, planning_horizon, depth_ft })) },
  }) as unknown as StoredAsset;

  it('reads each component\'s 100-year area, counts assets deeper than 0 and the map\'s area where traced', () => {
    const answer = {
      components: {
        tidal: { results: [{ scenario: 'intermediate', planning_horizon: 2046, design_water_level_navd88: { m: 0.6 }, exposed_area: { km2: 1 } }] },
        surge: { results: [
          { scenario: 'intermediate', planning_horizon: 2046, return_period_years: 500, design_water_level_navd88: { m: 2 }, exposed_area: { km2: 9 } },
          { scenario: 'intermediate', planning_horizon: 2046, return_period_years: 100, design_water_level_navd88: { m: 1.4 }, exposed_area: { km2: 4 } },
        ] },
        rainfall: { results: [] },
      },
      elevation: { cell_size_m: 206 },
    };
    const extents = [{ scenario: 'intermediate', planning_horizon: 2046, components: ['surge', 'tidal'], area_km2: 3.5, area_m2: 3.5e6, geometry: { type: 'MultiPolygon' as const, coordinates: [] } }];
    const assets = [asset([['intermediate', 2046, 0.2]]), asset([['intermediate', 2046, 0]]), asset([], 'unknown_elevation'), asset([], 'existing_water'), {} as StoredAsset];
    const summary = exposureSummary(floodAnalysisRecord(answer), tallied([{ scenario: 'intermediate', planning_horizon: 2046 }, { scenario: 'intermediate', planning_horizon: 2076 }], assets), extents);
    expect(summary).toEqual({
      components: ['tidal', 'surge'],
      combos: [
        { scenario: 'intermediate', planning_horizon: 2046, components: ['surge', 'tidal'], exposed: 1, areas_km2: [1, 4], highest_level_m: 1.4, map_km2: 3.5 },
        { scenario: 'intermediate', planning_horizon: 2076, components: [], exposed: 0, areas_km2: [null, null], highest_level_m: null, map_km2: null },
      ],
      analysed: 4, unknownElevation: 2, mapCellM: 206, notes: [], governing: [],
    });
  });

  it('counts the assets each component governs, from their deepest flooding over the pairs summarised only', () => {
    const entry = (scenario: string, planning_horizon: number, depth: Partial<Record<'tidal' | 'surge' | 'rainfall' | 'compound', number>>, governing: string | null) => ({
      scenario, planning_horizon, depth_m: { tidal: null, surge: null, rainfall: null, compound: null, ...depth }, governing_component: governing,
    });
    const withComponents = (...entries: ReturnType<typeof entry>[]) => ({ exposure: { status: 'exposed', depths: [], by_component: entries } }) as unknown as StoredAsset;
    const assets = [
      // Rainfall 0.4 m in 2046, surge 0.9 m in 2076: surge.
      withComponents(entry('high', 2046, { rainfall: 0.4, surge: 0.1 }, 'rainfall'), entry('high', 2076, { surge: 0.9, rainfall: 0.4 }, 'surge')),
      // Compound deepest, but in a pair not summarised: rainfall over the summarised ones.
      withComponents(entry('high', 2046, { rainfall: 0.3 }, 'rainfall'), entry('low', 2046, { compound: 2 }, 'compound')),
      withComponents(entry('high', 2076, { compound: 0.5, tidal: 0.2 }, 'compound')),
      withComponents(entry('high', 2076, { tidal: 0.2 }, 'tidal')),
      withComponents(entry('high', 2046, { tidal: 0 }, null)),
      asset([['high', 2046, 0]]),
    ];
    const summary = exposureSummary(floodAnalysisRecord({}), tallied([{ scenario: 'high', planning_horizon: 2046 }, { scenario: 'high', planning_horizon: 2076 }], assets), []);
    expect(summary.governing).toEqual([{ component: 'tidal', assets: 1 }, { component: 'surge', assets: 1 }, { component: 'rainfall', assets: 1 }, { component: 'compound', assets: 1 }]);
  });
});
