import type { OperationExample } from './types';

/** Sea level rise and flooding at Key West. */
export const hazardExamples: OperationExample[] = [
  {
    operationId: 'getSlrScenarios',
    request: { query: { gauge_id: '8724580', time_horizon: '2050', scenario: 'intermediate' } },
    response: {
      status: 200,
      body: {
        location: null,
        gauge_selection: {
          method: 'single_gauge',
          reason: 'Gauge requested by id.',
          gauges: [
            {
              noaa_id: '8724580',
              name: 'Key West, FL',
              lat: 24.55083,
              lon: -81.80806,
              distance_km: 0,
              distance_miles: 0,
              weight: 1,
            },
          ],
        },
        baseline_year: 2000,
        quantity: 'Relative sea level change since 2000 (not an elevation; add a tidal datum such as MHHW in NAVD88 for water levels, see POST /hazards/slr-impact).',
        units: 'm and ft (1 ft = 0.3048 m)',
        interpolation: 'Years between the decadal values are interpolated linearly (`interpolated: true`).',
        baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992); the rise between 1992 and 2000 is not added, so projected levels may be low by that amount.',
        assessment_year: 2026,
        statute_rule_sets: [
          {
            rule_set: '2021',
            applies: 'assessments before 2024-07-01',
            scenario_family: 'NOAA 2017',
            scenarios: ['intermediate_low', 'intermediate_high'],
            horizons: '2040 and 2070',
            verification: 'reconstructed',
            note: 'Names the NOAA 2017 Intermediate-Low and Intermediate-High scenarios; the NOAA 2022 values served here carry the same names but are not the same series.',
          },
        ],
        scenarios: [
          {
            scenario: 'intermediate',
            name: 'Intermediate',
            statute_required_by: ['2024'],
            projections: [
              {
                year: 2050,
                interpolated: false,
                statute_horizon_for: [],
                p17: { m: 0.276, ft: 0.9055 },
                p50: { m: 0.34, ft: 1.1155 },
                p83: { m: 0.422, ft: 1.3845 },
              },
            ],
          },
        ],
        sources: [
          {
            id: 'noaa_tr2022',
            name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
            note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
          },
        ],
      },
    },
  },
  {
    operationId: 'assessSlrImpact',
    request: { body: { lat: 24.5551, lon: -81.78, scenario: 'intermediate', planning_horizon: 2070 } },
    response: {
      status: 200,
      body: {
        location: { lat: 24.5551, lon: -81.78 },
        scenario: 'intermediate',
        scenario_name: 'Intermediate',
        planning_horizon: 2070,
        percentile: 50,
        gauge_selection: {
          method: 'inverse_distance_two_gauges',
          reason: 'Interpolated between the two closest gauges (45.4 miles apart) by inverse distance.',
          gauge_separation_miles: 45.4,
          gauges: [
            {
              noaa_id: '8724580',
              name: 'Key West, FL',
              lat: 24.55083,
              lon: -81.80806,
              distance_km: 2.88,
              distance_miles: 1.79,
              weight: 0.9607,
            },
          ],
        },
        elevation_change: {
          m: 0.5667,
          ft: 1.8592,
          percentiles: { p17: { m: 0.4647, ft: 1.5245 }, p50: { m: 0.5667, ft: 1.8592 }, p83: { m: 0.6909, ft: 2.2667 } },
          baseline_year: 2000,
        },
        mhhw_navd88: { m: 0.0082, ft: 0.0268 },
        projected_mhhw_navd88: { m: 0.5748, ft: 1.8859 },
        vertical_datum: 'NAVD88',
        baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992); the rise between 1992 and 2000 is not added, so projected levels may be low by that amount.',
        elevation: {
          status: 'covered',
          source: {
            name: 'SRTM 1 arc-second tiles (bundled, coastal Florida)',
            vertical_datum: 'EGM96',
            native_resolution: '1 arc-second (~30 m)',
          },
          coverage_fraction: 1,
          cell_size_m: 29,
          vertical_datum_correction: {
            from: 'EGM96',
            applied_offset_m: -0.265,
            method: 'SRTM heights (EGM96, sea surface = 0 m) taken as heights above local mean sea level and shifted by MSL − NAVD88 from the NOAA tidal datums (1983–2001 epoch) of the selected gauges.',
            uncertainty: 'The EGM96 geoid departs from local mean sea level by up to a few decimetres and sea level rose by a few centimetres between the datum epoch (centre 1992) and the SRTM flight (2000); both are small against the SRTM vertical error of several metres over built-up and vegetated ground. Screening level o…',
          },
        },
        ground_elevation_navd88: { m: 1.7346, ft: 5.6909 },
        water_depth: { m: 0, ft: 0, inundated: false },
        inundation_area: {
          acres: 52.22,
          km2: 0.2113,
          radius_km: 2,
          method: 'Land cells within the radius connected (8-neighbour) to open water through cells below the projected MHHW; open water = cells at or below local mean sea level.',
        },
        affected_assets: { count: 0, assets: [] },
        screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
        sources: [
          {
            id: 'noaa_tr2022',
            name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
            note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
          },
        ],
      },
    },
  },
  {
    operationId: 'analyzeFlooding',
    request: {
      body: {
        boundary_geojson: {
          type: 'Polygon',
          coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.58], [-81.81, 24.58], [-81.81, 24.54]]],
        },
        components: ['tidal', 'surge'],
        scenarios: ['intermediate_low', 'intermediate'],
        planning_horizons: [2046, 2076],
      },
    },
    response: {
      status: 200,
      body: {
        boundary: {
          area: { acres: 6669.3, km2: 26.9897 },
          bbox: [-81.81, 24.54, -81.75, 24.58],
          vertex_count: 5,
          counties: [{ fips: '12087', name: 'Monroe' }],
          warnings: [],
        },
        scenarios: ['intermediate_low', 'intermediate'],
        planning_horizons: [2046, 2076],
        gauge_selection: {
          method: 'inverse_distance_two_gauges',
          reason: 'Interpolated between the two closest gauges (45.4 miles apart) by inverse distance.',
          gauge_separation_miles: 45.4,
          gauges: [
            {
              noaa_id: '8724580',
              name: 'Key West, FL',
              lat: 24.55083,
              lon: -81.80806,
              distance_km: 3.02,
              distance_miles: 1.87,
              weight: 0.9588,
            },
          ],
        },
        elevation: {
          status: 'covered',
          source: {
            name: 'SRTM 1 arc-second tiles (bundled, coastal Florida)',
            vertical_datum: 'EGM96',
            native_resolution: '1 arc-second (~30 m)',
          },
          coverage_fraction: 1,
          cell_size_m: 29,
          vertical_datum_correction: {
            from: 'EGM96',
            applied_offset_m: -0.265,
            method: 'SRTM heights (EGM96, sea surface = 0 m) taken as heights above local mean sea level and shifted by MSL − NAVD88 from the NOAA tidal datums (1983–2001 epoch) of the selected gauges.',
            uncertainty: 'The EGM96 geoid departs from local mean sea level by up to a few decimetres and sea level rose by a few centimetres between the datum epoch (centre 1992) and the SRTM flight (2000); both are small against the SRTM vertical error of several metres over built-up and vegetated ground. Screening level o…',
          },
          method: 'Cells connected (8-neighbour) to open water below the water level count as exposed; open water = cells at or below local mean sea level.',
          screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
        },
        assets: { inside_boundary: 2, source: 'The caller\'s imported assets (points).' },
        components: {
          tidal: {
            status: 'ok',
            mhhw_navd88: { m: 0.0079, ft: 0.026 },
            high_tide_flood_thresholds_navd88: {
              minor: { m: 0.5275, ft: 1.7307 },
              moderate: { m: 0.8179, ft: 2.6835 },
              major: { m: 1.1975, ft: 3.9289 },
            },
            results: [
              {
                scenario: 'intermediate_low',
                scenario_name: 'Intermediate-Low',
                planning_horizon: 2046,
                percentile: 50,
                sea_level_rise: { m: 0.2757, ft: 0.9045 },
                design_water_level_navd88: { m: 0.2836, ft: 0.9305 },
                design_water_level_basis: 'Projected MHHW: MHHW (NAVD88) + sea level rise.',
                depth_above_minor_threshold: { m: 0, ft: 0 },
                tidal_flood_days_per_year: {
                  minor: 0,
                  year: 2046,
                  by_gauge: [{ noaa_id: '8724580', name: 'Key West, FL', days: 0 }],
                  method: 'Days whose highest predicted astronomical tide (NOAA harmonic constituents, @neaps/tide-predictor) plus the gauge\'s projected rise reaches the NOAA minor flood threshold. Weather and seasonal anomalies are not predicted, so observed counts run higher.',
                },
                exposed_area: { acres: 148.07, km2: 0.5992 },
                exposed_assets: { count: 0, assets_without_elevation: 0, truncated: false, assets: [] },
              },
            ],
          },
          surge: {
            status: 'ok',
            basis: 'tide_gauge_statistics',
            label: 'Tide-gauge statistical estimate (GEV return level), not a FEMA base flood elevation; wave setup and run-up are not included.',
            gauge: {
              noaa_id: '8724580',
              name: 'Key West, FL',
              distance_km: 3,
              record: '1913–2018 (102 annual maxima)',
              record_max_above_annual_msl: { m: 1.154, ft: 3.7861 },
            },
            conversion: 'Return level above annual mean sea level + MSL − NAVD88 of the gauge (-0.266 m, NOAA datums) + sea level rise.',
            results: [
              {
                scenario: 'intermediate_low',
                scenario_name: 'Intermediate-Low',
                planning_horizon: 2046,
                percentile: 50,
                sea_level_rise: { m: 0.2757, ft: 0.9045 },
                return_period_years: 100,
                annual_exceedance_probability: 0.01,
                design_water_level_navd88: { m: 0.9427, ft: 3.0929 },
                exposed_area: { acres: 503.08, km2: 2.0359 },
                exposed_assets: {
                  count: 1,
                  assets_without_elevation: 0,
                  truncated: false,
                  assets: [
                    {
                      asset_id: 'a_5e27f9493284bd629bd39b11',
                      name: 'Lift Station 12',
                      category: 'critical_infrastructure',
                      lat: 24.5557,
                      lon: -81.7826,
                      ground_elevation_navd88: { m: 0.7346, ft: 2.4102 },
                      water_level_navd88: { m: 0.9427, ft: 3.0929 },
                      depth: { m: 0.2081, ft: 0.6827 },
                    },
                  ],
                },
              },
            ],
          },
        },
        vertical_datum: 'NAVD88',
        units: 'Lengths in metres (m) and feet (ft, 1 ft = 0.3048 m); areas in acres and km².',
        baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992); the rise between 1992 and 2000 is not added, so projected levels may be low by that amount.',
        screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
        sources: [
          {
            id: 'noaa_tr2022',
            name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
            note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
          },
        ],
      },
    },
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
      },
    },
    response: {
      status: 202,
      body: {
        job_id: 'hjob_N2x8Qz0bH4kVtL9m',
        status: 'queued',
        job_url: 'http://127.0.0.1:3000/api/hazards/jobs/hjob_N2x8Qz0bH4kVtL9m',
        reason: 'The boundary covers 225 km²; the analysis exceeds what can be answered within the API time limit.',
      },
    },
  },
  {
    operationId: 'getHazardJob',
    request: { params: { job_id: 'hjob_N2x8Qz0bH4kVtL9m' } },
    response: {
      status: 200,
      body: {
        job_id: 'hjob_N2x8Qz0bH4kVtL9m',
        kind: 'flood_analysis',
        status: 'running',
        progress: 0.05,
        created_at: '2026-11-23T17:48:25.285Z',
        updated_at: '2026-11-23T17:48:25.344Z',
        error: null,
        result: null,
      },
    },
  },
  {
    operationId: 'listFloodEvents',
    request: { query: { location: 'Key West', date_range: '2017-01-01..2024-12-31', radius_km: '50', limit: '2' } },
    response: {
      status: 200,
      body: {
        data: [
          {
            event_id: 'fema:DR-4734',
            source: 'fema_declarations',
            date: '2023-08-27',
            end_date: '2023-09-04',
            type: 'disaster_declaration',
            name: 'Hurricane Idalia (Major Disaster 4734, declared 2023-08-31)',
            location: { lat: null, lon: null, county: null, county_fips: null, scope: 'state' },
            magnitude: { incident_type: 'Hurricane', declaration_type: 'Major Disaster' },
            distance_km: null,
          },
        ],
        next_cursor: 'eyJkIjoiMjAyMy0wOC0yNyIsImkiOiJmZW1hOkVNLTM1OTYifQ',
        location: { query: 'City of Key West', lat: 24.55524, lon: -81.78163 },
        radius_km: 50,
        sources: [
          {
            id: 'hurdat2',
            name: 'NHC HURDAT2 Atlantic best tracks 1851–2024, Florida landfalls 1900–2024 (HurdatFlorida derivation)',
            url: 'https://www.nhc.noaa.gov/data/#hurdat',
            note: 'Landfall position = best-track point at the landfall time.',
          },
        ],
      },
    },
  },
];
