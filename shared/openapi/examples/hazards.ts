import type { OperationExample } from './types';

/** A flood analysis of a square of Key West (tidal and surge): documented below, linked to an assessment in the prefill example. */
export const KEY_WEST_ANALYSIS_REQUEST = {
  boundary_geojson: {
    type: 'Polygon',
    coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.58], [-81.81, 24.58], [-81.81, 24.54]]],
  },
  components: ['tidal', 'surge'],
  scenarios: ['intermediate_low', 'intermediate'],
  planning_horizons: [2046, 2076],
  // Key West has no bare-earth model bundled: the example accepts SRTM, a surface model.
  allow_surface_model: true,
};

/** Sea level rise and flooding at Key West. */
export const hazardExamples: OperationExample[] = [
  {
    operationId: 'getSlrScenarios',
    request: { query: { gauge_id: '8724580', time_horizon: '2050', scenario: 'intermediate' } },
    response: { status: 200 },
  },
  {
    operationId: 'assessSlrImpact',
    request: { body: { lat: 24.5551, lon: -81.78, scenario: 'intermediate', planning_horizon: 2070, allow_surface_model: true } },
    response: { status: 200 },
  },
  {
    operationId: 'analyzeFlooding',
    request: {
      body: KEY_WEST_ANALYSIS_REQUEST,
    },
    response: { status: 200 },
  },
  {
    operationId: 'analyzeFlooding',
    request: {
      body: {
        boundary_geojson: {
          type: 'Polygon',
          coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.57], [-81.81, 24.57], [-81.81, 24.54]]],
        },
        components: ['rainfall'],
        scenarios: ['intermediate'],
        planning_horizons: [2050],
        allow_surface_model: true,
        include_extents: true,
        rainfall: {
          depth_in: 13,
          duration_h: 24,
          return_period_years: 100,
          source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour (example value: read yours from PFDS)',
          curve_number: 85,
        },
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'analyzeFlooding',
    setup: true,
    request: {
      body: {
        boundary_geojson: {
          type: 'Polygon',
          coordinates: [[[-81.8, 24.55], [-81.6, 24.55], [-81.6, 24.65], [-81.8, 24.65], [-81.8, 24.55]]],
        },
        components: ['tidal', 'surge', 'rainfall', 'compound'],
        scenarios: ['intermediate_low', 'intermediate'],
        planning_horizons: [2046, 2076],
        allow_surface_model: true,
      },
    },
    response: { status: 202 },
  },
  {
    operationId: 'getHazardJob',
    request: { params: { job_id: 'hjob_3727643285960212' } },
    response: { status: 200 },
  },
  {
    operationId: 'listFloodEvents',
    request: { query: { location: 'Key West', date_range: '2017-01-01..2024-12-31', radius_km: '50', limit: '2' } },
    response: { status: 200 },
  },
  {
    operationId: 'putDesignStorm',
    request: {
      params: { jurisdiction: 'Monroe County' },
      body: {
        depth_in: 13,
        duration_h: 24,
        return_period_years: 100,
        source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour (example value: read yours from PFDS)',
        curve_number: 85,
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'getDesignStorm',
    request: { params: { jurisdiction: 'Monroe County' } },
    response: { status: 200 },
  },
];
