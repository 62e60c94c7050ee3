import { KEY_WEST_ANALYSIS_REQUEST } from './hazards';
import { EXAMPLE_TODAY, type OperationExample } from './types';

/** An assessment of Monroe County from creation to submission. */
export const assessmentExamples: OperationExample[] = [
  {
    operationId: 'createAssessment',
    request: {
      headers: { 'Idempotency-Key': 'monroe-va-2026' },
      body: {
        jurisdiction: 'Monroe County',
        type: 'initial',
        scope: 'full_jurisdiction',
        timeline: { start_date: '2025-01-15', target_completion_date: '2026-06-30' },
      },
    },
    response: { status: 201, headers: ['ETag'] },
  },
  {
    operationId: 'getAssessment',
    request: { params: { assessment_id: 'va_98865270893462965965417601' } },
    response: { status: 200, headers: ['ETag'] },
  },
  {
    operationId: 'listAssessments',
    request: { query: { jurisdiction: 'Monroe County', limit: '10' } },
    response: { status: 200 },
  },
  {
    operationId: 'updateAssessment',
    request: {
      params: { assessment_id: 'va_98865270893462965965417601' },
      headers: { 'If-Match': '"1"' },
      body: { phase: 'data_collection', completion_percentage: 20 },
    },
    response: { status: 200, headers: ['ETag'] },
  },
  {
    operationId: 'updateAssessment',
    setup: true,
    request: {
      params: { assessment_id: 'va_98865270893462965965417601' },
      headers: { 'If-Match': '"2"' },
      body: {
        methodology: {
          critical_assets: {
            all_owned_or_maintained_included: true,
            asset_count: 412,
            regionally_significant_identified: true,
          },
          dem: {
            source: 'NOAA OCM 2018 Florida Keys lidar DEM',
            year: 2018,
            resolution_m: 1,
            most_recent_available: true,
          },
          peril_of_flood: { addressed: true },
          flood_components: {
            tidal: { analysed: true, dep_thresholds_used: true, flood_days_per_scenario_horizon: true },
            storm_surge: { analysed: true, data_source: 'fema', return_periods_years: [100, 500] },
            rainfall: { analysed: true, return_periods_years: [100, 500] },
            compound: { analysed: true },
          },
          vertical_datum: 'NAVD88',
          sea_level_rise: {
            scenario_family: 'noaa_2022',
            scenarios: ['intermediate_low', 'intermediate', 'high'],
            planning_horizons: [2045, 2075, 2100],
          },
          tide_gauges: { station_ids: ['8724580', '8723970'] },
          deliverables: {
            report: true,
            gis_data: { format: 'file_geodatabase', coordinate_system: 'EPSG:3087', metadata: true },
            prioritized_asset_list: true,
          },
        },
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'updateAssessment',
    setup: true,
    request: {
      params: { assessment_id: 'va_98865270893462965965417601' },
      headers: { 'If-Match': '"3"' },
      body: { phase: 'final_report', completion_percentage: 100 },
    },
    response: { status: 200 },
  },
  {
    operationId: 'submitAssessment',
    request: {
      params: { assessment_id: 'va_98865270893462965965417601' },
      headers: { 'Idempotency-Key': 'monroe-va-2026-submit' },
      body: {
        certification: { certifier_name: 'Ana Lopez', certifier_title: 'Chief Resilience Officer', accepted: true },
        final_report_url: 'https://monroecounty-fl.gov/va/final-report.pdf',
        gis_data_url: 'https://monroecounty-fl.gov/va/gis.zip',
      },
    },
    response: { status: 201 },
  },
  {
    operationId: 'recordDepConfirmation',
    request: {
      params: { assessment_id: 'va_98865270893462965965417601' },
      body: { confirmation_number: 'RF-VA-2026-0412', received_on: EXAMPLE_TODAY },
    },
    response: { status: 200 },
  },
  {
    operationId: 'createDeliverables',
    request: { params: { assessment_id: 'va_98865270893462965965417601' } },
    response: { status: 202, headers: ['Location'] },
  },
  {
    operationId: 'getDeliverables',
    request: { params: { assessment_id: 'va_98865270893462965965417601', deliverable_id: 'dlv_4210881482122117' } },
    response: { status: 200 },
  },
];

const PREFILLED_ID = 'va_34643480239254908762236302';

/**
 * A second Monroe County assessment with a flood analysis linked to it, then its methodology filled
 * from that evidence (after the hazard examples, as an analyst works).
 */
export const prefillExamples: OperationExample[] = [
  {
    operationId: 'createAssessment',
    setup: true,
    request: { body: { jurisdiction: 'Monroe County', type: 'initial', scope: 'full_jurisdiction', timeline: { start_date: '2025-01-15', target_completion_date: '2026-06-30' } } },
    response: { status: 201 },
  },
  {
    operationId: 'analyzeFlooding',
    setup: true,
    request: { body: { ...KEY_WEST_ANALYSIS_REQUEST, assessment_id: PREFILLED_ID } },
    response: { status: 200 },
  },
  {
    operationId: 'prefillMethodology',
    request: { params: { assessment_id: PREFILLED_ID }, headers: { 'If-Match': '"1"' }, body: {} },
    response: { status: 200, headers: ['ETag'] },
  },
];
