import { factsFromEvidence, prefillMethodology, provenanceAfterUpdate } from '../../shared/domain/compliance/prefill';
import type { ImportEvidence } from '../../shared/domain/deliverables/ports';
import { linkedAnalysis, monroeEvidence } from '../helpers/assessment-fixtures';

/** The methodology the API can prove from hand-built evidence records, and how it is merged. */
const AT = '2026-02-02T00:00:00.000Z';
const completeImport = (id: string, assets: number): ImportEvidence => ({ import_id: id, filename: `${id}.csv`, status: 'complete', asset_count: assets, created_at: AT });

const twoAnalyses = () => monroeEvidence({
  imports: [completeImport('imp_a', 400), { ...completeImport('imp_b', 0), status: 'failed', asset_count: null }, completeImport('imp_c', 12)],
  analyses: [
    linkedAnalysis({
      analysis_id: 'fa_1', elevation: { status: 'partial', source_name: 'NOAA OCM 2018 Florida Keys lidar DEM', native_resolution: '1 m', cell_size_m: 3, elevation_model_id: 'dem_keys2018' }, scenarios: ['intermediate', 'intermediate_low'], planning_horizons: [2076, 2046],
      components: [
        { component: 'tidal', status: 'ok', flood_days_reported: true },
        { component: 'surge', status: 'ok', source: 'tide_gauge_gev', source_detail: ['NOAA 8724580 Key West'], return_periods_years: [10, 100] },
        { component: 'rainfall', status: 'no_data' },
      ],
    }),
    linkedAnalysis({
      analysis_id: 'fa_2', scenarios: ['high'], planning_horizons: [2100, 2046], gauges: ['8723970'],
      elevation: { status: 'not_covered', source_name: 'SRTM 1 arc-second', native_resolution: null, cell_size_m: null },
      components: [{ component: 'surge', status: 'partial', source: 'tide_gauge_gev', source_detail: ['NOAA 8723970 Vaca Key'], return_periods_years: [500] }],
    }),
  ],
});

const valueOf = (facts: ReturnType<typeof factsFromEvidence>) => Object.fromEntries(facts.map((f) => [f.field, f.value]));
const idsOf = (facts: ReturnType<typeof factsFromEvidence>) => Object.fromEntries(facts.map((f) => [f.field, f.evidence_ids]));

describe('what the evidence proves', () => {
  it('maps linked imports and analyses to methodology fields, each with its evidence ids', () => {
    const facts = factsFromEvidence(twoAnalyses());
    expect(valueOf(facts)).toEqual({
      'critical_assets.asset_count': 412,
      'critical_assets.categories': { community_emergency: 400, transportation: 12 },
      // fa_2 had no elevation coverage: its model is no evidence of the DEM used.
      'dem.source': 'NOAA OCM 2018 Florida Keys lidar DEM',
      'dem.elevation_model_ids': ['dem_keys2018'],
      'flood_components.tidal.analysed': true,
      'flood_components.tidal.flood_days_per_scenario_horizon': true,
      'flood_components.storm_surge.analysed': true,
      'flood_components.storm_surge.return_periods_years': [10, 100, 500],
      'flood_components.storm_surge.data_source': 'tide_gauge_gev',
      vertical_datum: 'NAVD88',
      'sea_level_rise.scenario_family': 'noaa_2022',
      'sea_level_rise.scenarios': ['intermediate_low', 'intermediate', 'high'],
      'sea_level_rise.planning_horizons': [2046, 2076, 2100],
      'tide_gauges.station_ids': ['8724580', '8723970'],
    });
    const ids = idsOf(facts);
    expect(ids['critical_assets.asset_count']).toEqual(['imp_a', 'imp_c']);
    expect(ids['dem.source']).toEqual(['fa_1']);
    expect(ids['dem.elevation_model_ids']).toEqual(['fa_1']);
    expect(ids['flood_components.tidal.analysed']).toEqual(['fa_1']);
    expect(ids['flood_components.storm_surge.analysed']).toEqual(['fa_1', 'fa_2']);
    expect(ids.vertical_datum).toEqual(['fa_1', 'fa_2']);
  });

  it('names mixed surge sources as "other" with a description; FEMA layers alone as fema', () => {
    const mixed = factsFromEvidence(monroeEvidence({ analyses: [linkedAnalysis({ components: [
      { component: 'surge', status: 'ok', source: 'tide_gauge_gev', source_detail: ['NOAA 8724580 Key West'] },
    ] }), linkedAnalysis({ analysis_id: 'fa_2', components: [{ component: 'surge', status: 'ok', source: 'loaded_layers', source_detail: ['FEMA FIS 2021'] }] })] }));
    expect(valueOf(mixed)['flood_components.storm_surge.data_source']).toBe('other');
    expect(valueOf(mixed)['flood_components.storm_surge.data_source_description']).toBe('From the linked analyses: GEV fit to tide-gauge annual maxima; NOAA 8724580 Key West; loaded surge layers; FEMA FIS 2021');
    const fema = factsFromEvidence(monroeEvidence({ analyses: [linkedAnalysis({ components: [{ component: 'surge', status: 'ok', source: 'loaded_layers', source_detail: ['FEMA FIS 2021', 'fema coastal study'] }] })] }));
    expect(valueOf(fema)['flood_components.storm_surge.data_source']).toBe('fema');
  });

  it('proves a single gauge with its recorded reason only when every analysis recorded that choice', () => {
    const single = (id: string) => linkedAnalysis({ analysis_id: id, gauges: ['8720030'], gauge_selection: { method: 'single_gauge', reason: 'Fernandina Beach shares the coast.' } });
    expect(valueOf(factsFromEvidence(monroeEvidence({ analyses: [single('fa_1'), single('fa_2')] })))['tide_gauges.single_gauge_rationale']).toBe('Fernandina Beach shares the coast.');
    const nearest = linkedAnalysis({ analysis_id: 'fa_3', gauges: ['8720030'], gauge_selection: { method: 'nearest', reason: 'within 50 km' } });
    expect(valueOf(factsFromEvidence(monroeEvidence({ analyses: [single('fa_1'), nearest] })))).not.toHaveProperty(['tide_gauges.single_gauge_rationale']);
  });

  it('proves nothing without linked imports or analyses (assets held alone are not linked evidence)', () => {
    expect(factsFromEvidence(monroeEvidence({ analyses: [], imports: [] }))).toEqual([]);
    expect(factsFromEvidence(monroeEvidence({ analyses: [], imports: [{ ...completeImport('imp_a', 0), status: 'processing', asset_count: null }] }))).toEqual([]);
  });
});

describe('filling the methodology', () => {
  const facts = factsFromEvidence(twoAnalyses());

  it('fills empty fields with their provenance and keeps what the user set', () => {
    const user = { dem: { source: 'NOAA OCM 2018 lidar', year: 2018, most_recent_available: true }, flood_components: { storm_surge: { analysed: true, data_source: 'fema' as const } } };
    const outcome = prefillMethodology(user, {}, facts, { overwrite: false, at: AT });
    expect(outcome.kept).toEqual(['dem.source', 'flood_components.storm_surge.analysed', 'flood_components.storm_surge.data_source']);
    expect(outcome.methodology.dem).toEqual({ ...user.dem, elevation_model_ids: ['dem_keys2018'] });
    expect(outcome.methodology.flood_components).toEqual({
      tidal: { analysed: true, flood_days_per_scenario_horizon: true },
      storm_surge: { analysed: true, data_source: 'fema', return_periods_years: [10, 100, 500] },
    });
    expect(outcome.methodology.critical_assets).toEqual({ asset_count: 412, categories: { community_emergency: 400, transportation: 12 } });
    expect(outcome.filled).toHaveLength(facts.length - 3);
    expect(outcome.provenance['sea_level_rise.scenarios']).toEqual({ source: 'evidence', evidence_ids: ['fa_1', 'fa_2'], filled_at: AT });
    expect(outcome.provenance).not.toHaveProperty(['dem.source']);
    expect(user.flood_components.storm_surge).toEqual({ analysed: true, data_source: 'fema' });
  });

  it('replaces user values with overwrite, and refreshes its own earlier fills without it', () => {
    const user = { vertical_datum: 'MHHW' as const };
    expect(prefillMethodology(user, {}, facts, { overwrite: true, at: AT }).methodology.vertical_datum).toBe('NAVD88');
    const earlier = prefillMethodology({}, {}, facts, { overwrite: false, at: '2026-01-01T00:00:00.000Z' });
    const again = prefillMethodology(earlier.methodology, earlier.provenance, facts, { overwrite: false, at: AT });
    expect(again.kept).toEqual([]);
    expect(again.provenance.vertical_datum!.filled_at).toBe(AT);
  });

  it('an update of a methodology part makes its fields the user\'s again', () => {
    const { provenance } = prefillMethodology({}, {}, facts, { overwrite: false, at: AT });
    const left = provenanceAfterUpdate(provenance, ['sea_level_rise', 'vertical_datum']);
    expect(Object.keys(left).filter((field) => field.startsWith('sea_level_rise') || field === 'vertical_datum')).toEqual([]);
    expect(left['critical_assets.asset_count']).toEqual(provenance['critical_assets.asset_count']);
  });
});
