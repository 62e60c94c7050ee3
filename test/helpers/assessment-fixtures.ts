import type { Assessment } from '../../shared/domain/assessments/model';
import type { ComplianceEvidence } from '../../shared/domain/compliance/evidence';
import type { AnalysisEvidence } from '../../shared/domain/deliverables/ports';

/**
 * Assessment bodies for tests: a methodology that satisfies every checklist item of a rule set,
 * written from DOMAIN §3 (scenario pairs and horizons per rule set), not from the product's data.
 */
export function compliantMethodology(ruleSet: '2021' | '2024', startYear = 2025) {
  const slr = ruleSet === '2021'
    ? { scenario_family: 'noaa_2017', scenarios: ['intermediate_low', 'intermediate_high'], planning_horizons: [2040, 2070] }
    : { scenario_family: 'noaa_2022', scenarios: ['intermediate_low', 'intermediate', 'high'], planning_horizons: [startYear + 20, startYear + 50, 2100] };
  return {
    critical_assets: { all_owned_or_maintained_included: true, asset_count: 412, regionally_significant_identified: true },
    dem: { source: 'NOAA OCM 2018 Florida Keys lidar DEM', year: 2018, resolution_m: 1, most_recent_available: true },
    peril_of_flood: { addressed: true },
    flood_components: {
      tidal: { analysed: true, dep_thresholds_used: true, flood_days_per_scenario_horizon: true },
      storm_surge: { analysed: true, data_source: 'fema', return_periods_years: [100, 500] },
      rainfall: { analysed: true, return_periods_years: [100, 500] },
      compound: { analysed: true },
    },
    vertical_datum: 'NAVD88',
    sea_level_rise: slr,
    tide_gauges: { station_ids: ['8724580', '8723970'] },
    deliverables: {
      report: true,
      gis_data: { format: 'file_geodatabase', coordinate_system: 'EPSG:3087', metadata: true },
      prioritized_asset_list: true,
    },
  };
}

export function newAssessmentBody(overrides: Record<string, unknown> = {}) {
  return {
    jurisdiction: 'Monroe County',
    type: 'initial',
    scope: 'full_jurisdiction',
    timeline: { start_date: '2025-01-15', target_completion_date: '2026-06-30' },
    ...overrides,
  };
}

/** A stored draft of Monroe County, as the domain functions receive it. */
export function storedAssessment(overrides: Partial<Assessment> = {}): Assessment {
  return {
    assessment_id: 'va_test',
    account_id: 'acct_1',
    jurisdiction: { id: 'county:12087', type: 'county', display_name: 'Monroe County', county_fips: '12087' },
    type: 'initial',
    scope: 'full_jurisdiction',
    timeline: { start_date: '2025-01-15', target_completion_date: '2026-06-30' },
    status: 'draft',
    phase: 'initiation',
    completion_percentage: 0,
    methodology: {},
    version: 1,
    created_date: '2025-01-15T00:00:00.000Z',
    updated_at: '2025-01-15T00:00:00.000Z',
    status_history: [{ status: 'draft', at: '2025-01-15T00:00:00.000Z' }],
    completion_adjustments: [],
    ...overrides,
  };
}

/** A flood analysis linked to Monroe County's assessment, as the evidence store keeps it. */
export const linkedAnalysis = (overrides: Partial<AnalysisEvidence> = {}): AnalysisEvidence => ({
  analysis_id: 'fa_1', assessment_id: 'va_1', analysed_at: '2026-02-01T00:00:00.000Z',
  boundary: { source: 'jurisdiction', jurisdiction_id: 'county:12087', area_km2: 3895, counties: ['Monroe'] },
  components: [{ component: 'tidal', status: 'ok' }, { component: 'surge', status: 'ok' }, { component: 'rainfall', status: 'ok' }, { component: 'compound', status: 'ok' }],
  scenarios: ['intermediate_low', 'intermediate', 'high'], planning_horizons: [2046, 2076, 2100],
  elevation: { status: 'partial', source_name: 'NOAA OCM 2018 Florida Keys lidar DEM', native_resolution: '1 m', cell_size_m: 3 },
  gauges: ['8724580', '8723970'], assets_inside: 412, assets_applied: 412, result_key: 'r', extents_key: null,
  ...overrides,
});

/** What the API holds for Monroe County: 412 assets and one linked analysis. */
export const monroeEvidence = (overrides: Partial<ComplianceEvidence> = {}): ComplianceEvidence => ({
  jurisdiction_id: 'county:12087', jurisdiction_name: 'Monroe County',
  assets: { total: 412, by_category: { community_emergency: 400, transportation: 12 } },
  analyses: [linkedAnalysis()],
  ...overrides,
});
