import { crossCheck, gatherEvidence, type ComplianceEvidence } from '../../shared/domain/compliance/evidence';
import type { ImportEvidence } from '../../shared/domain/deliverables/ports';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology, linkedAnalysis, monroeEvidence } from '../helpers/assessment-fixtures';

/** The evidence detail of each item, word for word: what the engineer reads next to the claim. */

const analysis = linkedAnalysis;
// Categories out of order, so the detail's sorting shows.
const evidence = (overrides: Partial<ComplianceEvidence> = {}): ComplianceEvidence =>
  monroeEvidence({ assets: { total: 412, by_category: { transportation: 12, community_emergency: 400 } }, ...overrides });

const base = compliantMethodology('2024', 2026) as unknown as Methodology;
const check = (kind: Parameters<typeof crossCheck>[0][number], m: Methodology, e: ComplianceEvidence) => crossCheck([kind], m, e).get(kind)!;
const NO_ANALYSES = 'No flood analysis is linked to this assessment (POST /hazards/flood-analysis with assessment_id); the statement is not checked.';

describe('the inventory (item B)', () => {
  const imports: ImportEvidence[] = [
    { import_id: 'imp_1', filename: 'roads.csv', status: 'complete', asset_count: 300, created_at: 'x' },
    { import_id: 'imp_2', filename: 'bad.xlsx', status: 'failed', asset_count: null, created_at: 'x' },
    { import_id: 'imp_3', filename: 'empty.geojson', status: 'complete', asset_count: null, created_at: 'x' },
    { import_id: 'imp_4', filename: 'sites.csv', status: 'complete', asset_count: 112, created_at: 'x' },
  ];

  it('verifies the stated count with the categories in order, and lists the linked imports', () => {
    expect(check('critical_assets', base, evidence({ imports }))).toEqual({
      status: 'verified', contradictions: [],
      detail: '412 assets held for Monroe County (community_emergency 400, transportation 12), as stated. 4 asset imports linked to this assessment, 3 complete with 412 assets accepted (roads.csv: 300 assets; bad.xlsx: failed; empty.geojson: 0 assets; sites.csv: 112 assets).',
    });
    expect(check('critical_assets', base, evidence({ imports: [imports[0]!] })).detail).toMatch(/ 1 asset import linked to this assessment, 1 complete with 300 assets accepted \(roads\.csv: 300 assets\)\.$/);
    expect(check('critical_assets', base, evidence({ imports: [] })).detail).toMatch(/ No asset import is linked to this assessment \(assessment_id on POST \/assets\/import\)\.$/);
    expect(check('critical_assets', base, evidence()).detail).toBe('412 assets held for Monroe County (community_emergency 400, transportation 12), as stated.');
  });

  it('contradicts another count, attests without a count or without assets', () => {
    const claimed411 = { ...base, critical_assets: { ...base.critical_assets!, asset_count: 411 } } as Methodology;
    expect(check('critical_assets', claimed411, evidence())).toEqual({
      status: 'contradicted',
      detail: 'methodology.critical_assets.asset_count: claimed 411; the API holds 412 assets for Monroe County (community_emergency 400, transportation 12).',
      contradictions: [{ field: 'methodology.critical_assets.asset_count', claimed: '411', found: 'the API holds 412 assets for Monroe County (community_emergency 400, transportation 12)' }],
    });
    const unstated = { ...base, critical_assets: undefined } as Methodology;
    expect(check('critical_assets', unstated, evidence())).toEqual({ status: 'attested', contradictions: [], detail: 'The API holds 412 assets for Monroe County (community_emergency 400, transportation 12).' });
    expect(check('critical_assets', base, evidence({ assets: { total: 0, by_category: {} } })).detail)
      .toBe('The API holds no assets for Monroe County; import the inventory (POST /assets/import) to check the count.');
  });
});

describe('the DEM (item C)', () => {
  const claim = (source: string) => ({ ...base, dem: { ...base.dem!, source } }) as Methodology;

  it('attests without analyses, without covered elevation, or without a claim', () => {
    expect(check('dem', base, evidence({ analyses: [] })).detail).toBe(NO_ANALYSES);
    const uncovered = analysis({ elevation: { status: 'not_covered', source_name: 'SRTM', native_resolution: null, cell_size_m: null } });
    expect(check('dem', base, evidence({ analyses: [uncovered] }))).toMatchObject({ status: 'attested', detail: 'No elevation data covered the 1 linked analysis.' });
    const nameless = analysis({ elevation: { status: 'ok', source_name: null, native_resolution: null, cell_size_m: null } });
    expect(check('dem', base, evidence({ analyses: [nameless, nameless] })).detail).toBe('No elevation data covered the 2 linked analyses.');
    expect(check('dem', { ...base, dem: undefined } as Methodology, evidence()).detail).toBe('The 1 linked analysis used NOAA OCM 2018 Florida Keys lidar DEM.');
  });

  it('matches a claim naming the DEM\'s first word, or contained in its name, whatever the case', () => {
    const srtm = analysis({ elevation: { status: 'ok', source_name: 'SRTM GL1 (NASA, 2000)', native_resolution: '1 arc-second', cell_size_m: 30 } });
    expect(check('dem', claim('NASA srtm 1 arc-second'), evidence({ analyses: [srtm] }))).toMatchObject({ status: 'verified', detail: 'The 1 linked analysis used SRTM GL1 (NASA, 2000), as stated.' });
    expect(check('dem', claim('Florida Keys lidar'), evidence()).status).toBe('verified');
    expect(check('dem', claim('USGS 3DEP 1 m'), evidence({ analyses: [srtm, analysis()] }))).toEqual({
      status: 'contradicted',
      detail: 'methodology.dem.source: claimed "USGS 3DEP 1 m" (2018); the 2 linked analyses used SRTM GL1 (NASA, 2000), NOAA OCM 2018 Florida Keys lidar DEM.',
      contradictions: [{ field: 'methodology.dem.source', claimed: '"USGS 3DEP 1 m" (2018)', found: 'the 2 linked analyses used SRTM GL1 (NASA, 2000), NOAA OCM 2018 Florida Keys lidar DEM' }],
    });
  });
});

describe('flood components (items E, G, H, I)', () => {
  const withSurge = (status: string | null) => analysis({ components: status === null ? [{ component: 'tidal', status: 'ok' }] : [{ component: 'surge', status }] });
  const surgeClaimed = (analysed: boolean) => ({ ...base, flood_components: { ...base.flood_components!, storm_surge: { ...base.flood_components!.storm_surge!, analysed } } }) as Methodology;

  it('verifies a claimed component the analyses produced, partial results included', () => {
    expect(check('storm_surge', surgeClaimed(true), evidence({ analyses: [withSurge('partial')] }))).toEqual({ status: 'verified', contradictions: [], detail: 'The 1 linked analysis produced storm surge results.' });
  });

  it('contradicts a claim the analyses did not bear out, naming the field', () => {
    expect(check('storm_surge', surgeClaimed(true), evidence({ analyses: [withSurge('no_data'), withSurge('no_data')] }))).toEqual({
      status: 'contradicted',
      detail: 'methodology.flood_components.storm_surge.analysed: claimed true; the 2 linked analyses ran it without results (status no_data).',
      contradictions: [{ field: 'methodology.flood_components.storm_surge.analysed', claimed: 'true', found: 'the 2 linked analyses ran it without results (status no_data)' }],
    });
    expect(check('storm_surge', surgeClaimed(true), evidence({ analyses: [withSurge(null)] })).detail)
      .toBe('methodology.flood_components.storm_surge.analysed: claimed true; the 1 linked analysis did not run it.');
    const rainfallOff = analysis({ components: [{ component: 'rainfall', status: 'no_data' }] });
    expect(check('rainfall', base, evidence({ analyses: [rainfallOff] })).contradictions[0]!.field).toBe('methodology.flood_components.rainfall.analysed');
  });

  it('attests what an unclaimed component produced or did not', () => {
    expect(check('storm_surge', surgeClaimed(false), evidence({ analyses: [withSurge('ok')] }))).toMatchObject({ status: 'attested', detail: 'The 1 linked analysis produced storm surge results.' });
    expect(check('storm_surge', surgeClaimed(false), evidence({ analyses: [withSurge('no_data')] })).detail).toBe('Not claimed; the 1 linked analysis produced no storm surge results.');
    expect(check('compound', base, evidence({ analyses: [] })).detail).toBe(NO_ANALYSES);
  });
});

describe('the local datum check on tidal flooding (item E)', () => {
  const tidal = (id: string, status: string, note: string) => analysis({ analysis_id: id, components: [{ component: 'tidal', status: 'ok' }], tidal_datum_check: { status, note } });
  const unclaimed = { ...base, flood_components: { ...base.flood_components!, tidal: { ...base.flood_components!.tidal!, analysed: false } } } as Methodology;

  it('adds the note of each analysis whose MHHW differs from the stations nearby, the item still verified', () => {
    const result = check('tidal_depth', base, evidence({ analyses: [tidal('fa_1', 'differs', 'Melbourne Causeway is 0.525 m below.'), tidal('fa_2', 'agrees', 'within 0.1 m')] }));
    expect(result).toEqual({ status: 'verified', contradictions: [], detail: 'The 2 linked analyses produced tidal flooding results. Analysis fa_1, local datum check: Melbourne Causeway is 0.525 m below.' });
    expect(check('tidal_depth', unclaimed, evidence({ analyses: [tidal('fa_1', 'differs', 'n')] }))).toEqual({ status: 'attested', contradictions: [], detail: 'The 1 linked analysis produced tidal flooding results. Analysis fa_1, local datum check: n' });
  });

  it('shows two notes, each cut at 400 characters, and counts the rest', () => {
    const long = 'c'.repeat(401);
    const analyses = [tidal('fa_1', 'differs', long), tidal('fa_2', 'differs', 'x'), tidal('fa_3', 'differs', 'y'), tidal('fa_4', 'differs', 'z')];
    expect(check('tidal_depth', base, evidence({ analyses })).detail)
      .toBe(`The 4 linked analyses produced tidal flooding results. Analysis fa_1, local datum check: ${'c'.repeat(400)}… Analysis fa_2, local datum check: x 2 more analyses found the local MHHW different.`);
    expect(check('tidal_depth', base, evidence({ analyses: [tidal('fa_1', 'differs', 'c'.repeat(400))] })).detail).toBe(`The 1 linked analysis produced tidal flooding results. Analysis fa_1, local datum check: ${'c'.repeat(400)}`);
  });

  it('adds nothing to the other components', () => {
    const surge = analysis({ components: [{ component: 'surge', status: 'ok' }], tidal_datum_check: { status: 'differs', note: 'n' } });
    expect(check('storm_surge', base, evidence({ analyses: [surge] })).detail).toBe('The 1 linked analysis produced storm surge results.');
  });
});

describe('gauges (item M)', () => {
  const single = (id: string, reason: string) => analysis({ analysis_id: id, gauges: ['8724580'], gauge_selection: { method: 'single_gauge', reason } });

  it('shows a reason of up to 400 characters whole, a longer one cut with an ellipsis, and counts the choices not shown', () => {
    const stations = { ...base, tide_gauges: { station_ids: ['8724580'], single_gauge_rationale: 'far apart' } } as Methodology;
    const exact = 'a'.repeat(400);
    const long = 'b'.repeat(401);
    const result = check('tide_gauges', stations, evidence({ analyses: [single('fa_1', exact), single('fa_2', long), single('fa_3', 'c'), single('fa_4', 'd')] }));
    expect(result).toEqual({
      status: 'verified', contradictions: [],
      detail: `NOAA gauges 8724580 used by the 4 linked analyses. Analysis fa_1 used one gauge (8724580) by a recorded choice: ${exact} Analysis fa_2 used one gauge (8724580) by a recorded choice: ${'b'.repeat(400)}… 2 more analyses used one gauge by a recorded choice.`,
    });
    expect(check('tide_gauges', stations, evidence({ analyses: [single('fa_1', 'x'), single('fa_2', 'y')] })).detail)
      .toBe('NOAA gauges 8724580 used by the 2 linked analyses. Analysis fa_1 used one gauge (8724580) by a recorded choice: x Analysis fa_2 used one gauge (8724580) by a recorded choice: y');
  });

  it('adds the gauge cautions of each analysis that had any, after the choices, joined and cut as they are', () => {
    const stations = { ...base, tide_gauges: { station_ids: ['8720030', '8727520'] } } as Methodology;
    const cautioned = (id: string, cautions: string[]) => analysis({ analysis_id: id, gauges: ['8720030', '8727520'], gauge_selection: { method: 'inverse_distance_two_gauges', reason: 'r', cautions } });
    expect(check('tide_gauges', stations, evidence({ analyses: [cautioned('fa_1', ['Cedar Key is Gulf.', 'Far apart.']), cautioned('fa_2', [])] }))).toEqual({
      status: 'verified', contradictions: [],
      detail: 'NOAA gauges 8720030, 8727520 used by the 2 linked analyses. Analysis fa_1, gauge cautions: Cedar Key is Gulf. Far apart.',
    });
    const many = ['fa_1', 'fa_2', 'fa_3'].map((id) => cautioned(id, ['x'.repeat(300), 'y'.repeat(200)]));
    expect(check('tide_gauges', { ...base, tide_gauges: undefined } as Methodology, evidence({ analyses: [single('fa_0', 'z'), ...many] })).detail).toBe(
      `The 4 linked analyses used NOAA gauges 8724580, 8720030, 8727520. Analysis fa_0 used one gauge (8724580) by a recorded choice: z Analysis fa_1, gauge cautions: ${'x'.repeat(300)} ${'y'.repeat(99)}… Analysis fa_2, gauge cautions: ${'x'.repeat(300)} ${'y'.repeat(99)}… 1 more analyses had gauge cautions.`,
    );
  });

  it('attests without stated stations or recorded gauges', () => {
    expect(check('tide_gauges', { ...base, tide_gauges: undefined } as Methodology, evidence()).detail).toBe('The 1 linked analysis used NOAA gauges 8724580, 8723970.');
    expect(check('tide_gauges', base, evidence({ analyses: [analysis({ gauges: [] })] })).detail).toBe('No gauge recorded by the analyses.');
    expect(check('tide_gauges', base, evidence({ analyses: [] }))).toEqual({ status: 'attested', detail: NO_ANALYSES, contradictions: [] });
  });

  it('contradicts a claim of one gauge when an analysis interpolated, naming the gauges it used', () => {
    const oneGauge = { ...base, tide_gauges: { station_ids: ['8724580'], single_gauge_rationale: 'The nearest gauge is representative.' } } as Methodology;
    const interpolated = analysis({ analysis_id: 'fa_7', gauges: ['8724580', '8723970'], gauge_selection: { method: 'inverse_distance_two_gauges', reason: 'Between two gauges.' } });
    const result = check('tide_gauges', oneGauge, evidence({ analyses: [single('fa_1', 'x'), interpolated] }));
    expect(result.status).toBe('contradicted');
    expect(result.contradictions).toEqual([{ field: 'methodology.tide_gauges.single_gauge_rationale', claimed: 'one gauge', found: 'the 1 linked analysis interpolated between gauges 8724580, 8723970' }]);
  });
});

describe('planning horizons (item L)', () => {
  it('verifies the horizons the linked analyses ran, and says so', () => {
    expect(check('planning_horizons', base, evidence())).toEqual({ status: 'verified', detail: 'Horizons 2046, 2076, 2100 analysed.', contradictions: [] });
  });
});

describe('gathering the evidence', () => {
  it('reads the analyses and imports only for a named assessment', async () => {
    const calls: string[] = [];
    const deps = {
      assets: { countByCategory: async (account: string, id: string) => { calls.push(`count:${account}:${id}`); return { total: 1, by_category: { water: 1 } }; } },
      evidence: {
        putAnalysis: async () => {}, linkImport: async () => {},
        listAnalyses: async (_a: string, id: string) => { calls.push(`analyses:${id}`); return [analysis()]; },
        listImports: async (_a: string, id: string) => { calls.push(`imports:${id}`); return []; },
      },
    };
    const jurisdiction = { id: 'county:12087', display_name: 'Monroe County' };
    expect(await gatherEvidence(deps, 'acct_1', jurisdiction, 'va_1')).toEqual({ jurisdiction_id: 'county:12087', jurisdiction_name: 'Monroe County', assets: { total: 1, by_category: { water: 1 } }, analyses: [analysis()], imports: [] });
    expect(calls).toEqual(['count:acct_1:county:12087', 'analyses:va_1', 'imports:va_1']);
    calls.length = 0;
    expect(await gatherEvidence(deps, 'acct_1', jurisdiction)).toEqual({ jurisdiction_id: 'county:12087', jurisdiction_name: 'Monroe County', assets: { total: 1, by_category: { water: 1 } }, analyses: [] });
    expect(calls).toEqual(['count:acct_1:county:12087']);
  });
});
