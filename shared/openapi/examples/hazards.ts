import type { OperationExample } from './types';

/** Tidal connection of the Key West examples: traced over the whole SRTM tile holding them. */
const KEY_WEST_CONNECTION = {
  traced_over: 'whole_model',
  extent_bbox: [-82, 24, -81, 25],
  models: ['srtm-1arcsec'],
  cell_size_m: 59,
  method: 'Tidal connection is traced over the whole extent of the elevation model(s) around the place (8-neighbour, through cells below the water level), not within the reported radius or boundary: the answer at a place does not change with the radius, which bounds only the area reported.',
};

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

export const KEY_WEST_ANALYSIS_ANSWER = {
  boundary: {
    area: {
      acres: 6669.3,
      km2: 26.9897,
    },
    bbox: [-81.81, 24.54, -81.75, 24.58],
    vertex_count: 5,
    counties: [
      {
        fips: '12087',
        name: 'Monroe',
      },
    ],
    warnings: [],
  },
  scenarios: ['intermediate_low', 'intermediate'],
  planning_horizons: [2046, 2076],
  gauge_selection: {
    method: 'inverse_distance_two_gauges',
    reason: 'Interpolated between the two closest gauges without data warnings (45.4 miles apart) by inverse distance (F.A.C. 62S-7.012(1)(b)).',
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
    cautions: [],
  },
  elevation: {
    status: 'covered',
    source: {
      name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
      vertical_datum: 'EGM96',
      native_resolution: '1 arc-second (~30 m)',
      elevation_model_id: 'srtm-1arcsec',
      resolution_m: 30,
      vertical_accuracy_m: 16,
      vertical_accuracy_basis: 'SRTM mission specification: 16 m absolute, 90 % linear error; whole-metre samples.',
      surface_model: true,
      height_step_m: 1,
    },
    sources: [
      {
        elevation_model_id: 'srtm-1arcsec',
        name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
        surface_model: true,
        share_of_cells: 1,
        vertical_offset_m: -0.265,
      },
    ],
    surface_model_flags: {
      cells: 5702,
      share_of_cells: 0.1825,
      rule: 'Surface-model (SRTM) cells more than 3 m above the lowest ground within 2 cells are flagged as probably building or canopy: their height is not ground.',
    },
    height_steps: {
      elevation_model_id: 'srtm-1arcsec',
      step_m: 1,
      lowest_land_levels_navd88_m: [0.735, 1.735, 2.735, 3.735, 4.735],
      note: 'This model\'s heights come in whole steps of 1 m: after the datum shift (-0.265 m) its land cells stand at these NAVD88 levels and at none between. Where it supplies the ground, exposed area therefore grows in steps: a water level just above one of these levels reaches at once every connected cell of that height, and two water lev…',
    },
    coverage_fraction: 1,
    cell_size_m: 29,
    vertical_datum_correction: {
      from: 'EGM96',
      applied_offset_m: -0.265,
      method: 'SRTM heights (EGM96, sea surface = 0 m) taken as heights above local mean sea level and shifted by MSL − NAVD88 from the NOAA tidal datums (1983–2001 epoch) of the selected gauges.',
      uncertainty: 'The EGM96 geoid departs from local mean sea level by up to a few decimetres and sea level rose by a few centimetres between the datum epoch (centre 1992) and the SRTM flight (2000); both are small against the SRTM vertical error of several metres over built-up and vegetated ground. Screening level o…',
    },
    connection: KEY_WEST_CONNECTION,
    asset_ground: {
      surveyed: 0,
      from_dem: 0,
      surface_model_flagged: 0,
      method: 'Ground at a point or asset: the asset\'s surveyed elevation column when its file has one (ground before first floor, NAVD88), else the elevation model at the location at its native resolution, interpolated bilinearly between the four surrounding posts. Each asset\'s water level uses its own gauge inte…',
    },
    method: 'Land cells connected (8-neighbour) to open water below the water level count as exposed, apart from land already below today\'s MHHW (existing_water). Open water is never counted as land: SRTM sea and bay cells (0 or below in the raw model) are marked before the datum shift; for DEMs without a water …',
    screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
  },
  assets: {
    inside_boundary: 0,
    source: 'The caller\'s imported assets (points).',
  },
  components: {
    tidal: {
      status: 'ok',
      mhhw_navd88: {
        m: 0.013,
        ft: 0.0427,
      },
      mhhw_source: keyWestStationMhhw(2.86),
      local_datum_check: {
        status: 'agrees',
        tolerance_m: 0.1,
        used_mhhw_navd88: {
          m: 0.0079,
          ft: 0.026,
        },
        stations_in_bbox: 1,
        range: {
          min: {
            m: 0.013,
            ft: 0.0427,
          },
          max: {
            m: 0.013,
            ft: 0.0427,
          },
        },
        differing: 0,
        stations: [
          {
            noaa_id: '8724580',
            name: 'Key West',
            lat: 24.5557,
            lon: -81.807899,
            mhhw_navd88: {
              m: 0.013,
              ft: 0.0427,
            },
            difference: {
              m: 0.0051,
              ft: 0.0166,
            },
          },
        ],
        basis: 'MHHW − NAVD88 of the NOAA reference stations (own harmonic constants and datums, 1983–2001 epoch, as the MHHW used here) from the NOAA CO-OPS station data; subordinate stations are left out, as their datums are often …',
        note: 'NOAA station Key West (8724580), the only one in the boundary\'s bounding box, has MHHW 0.013 m NAVD88, within 0.1 m of the 0.008 m taken from the sea level gauges.',
      },
      high_tide_flood_thresholds_navd88: {
        minor: {
          m: 0.5295,
          ft: 1.7374,
        },
        moderate: {
          m: 0.8241,
          ft: 2.7039,
        },
        major: {
          m: 1.1995,
          ft: 3.9355,
        },
      },
      thresholds_basis: 'NOAA (Sweet et al. 2018): minor 0.04·GT + 0.50 m, moderate 0.03·GT + 0.80 m, major 0.04·GT + 1.17 m above MHHW (GT = great diurnal range of the NOAA datums), weighted as the gauges are.',
      results: [
        {
          scenario: 'intermediate_low',
          scenario_name: 'Intermediate-Low',
          planning_horizon: 2046,
          percentile: 50,
          sea_level_rise: {
            m: 0.2758,
            ft: 0.9048,
          },
          design_water_level_navd88: {
            m: 0.3109,
            ft: 1.0199,
          },
          design_water_level_basis: 'Projected MHHW: MHHW (NAVD88, 1983–2001 epoch) + rise 1992→2000 + projected rise since 2000.',
          depth_above_minor_threshold: {
            m: 0,
            ft: 0,
          },
          tidal_flood_days_per_year: {
            minor: 11.7,
            year: 2046,
            by_gauge: [
              {
                noaa_id: '8724580',
                name: 'Key West, FL',
                days: 11.2,
                observed_mean_2007_2016: 0,
                floored_at_observed_mean: false,
                nontidal_sd_m: 0.068,
                calibrated_on_observed_days: false,
                basis: 'observed_daily_max_peaks',
              },
            ],
            method: 'Sweet et al. (2018, NOAA TR NOS CO-OPS 086; 2022): the distribution of daily highest water levels shifted by sea level rise, counted against the NOAA minor threshold (0.04·GT + 0.50 m above MHHW) less the rise 1992→2000 and the projected rise since 2000. Where a UHSLC peak record covers the gauge (b…',
          },
          exposed_area: {
            acres: 0,
            km2: 0,
          },
          exposed_assets: {
            count: 0,
            assets_without_elevation: 0,
            truncated: false,
            assets: [],
          },
          existing_water: {
            today_mhhw_navd88: {
              m: 0.1797,
              ft: 0.5896,
            },
            year: 2026,
            open_water: {
              acres: 3517.09,
              km2: 14.2332,
            },
            land_below_mhhw: {
              acres: 0,
              km2: 0,
            },
            assets: 0,
          },
        },
      ],
    },
    surge: {
      status: 'ok',
      basis: 'tide_gauge_statistics',
      label: 'Research product: a stationary GEV distribution fitted by this API (maximum likelihood) to the annual maximum hourly water levels of a tide gauge (University of Hawaii Sea Level Center data to 2018, annual maxima compiled by T. Wong), not a NOAA or FEMA storm surge model and not a base flood elevati…',
      gauge: {
        noaa_id: '8724580',
        name: 'Key West, FL',
        distance_km: 3,
        surge_regime: 'keys',
        record: '1913–2018 (102 annual maxima)',
        record_max_above_annual_msl: {
          m: 1.154,
          ft: 3.7861,
        },
        gev_parameters: {
          mu_m: 0.55796,
          sigma_m: 0.04265,
          xi: 0.2569,
          method: 'Maximum likelihood, fitted by this API to the annual maxima.',
        },
      },
      conversion: 'Return level above the annual mean sea level (z = μ + σ/ξ·((−ln(1 − 1/T))^−ξ − 1)) + this location\'s MSL − NAVD88 (-0.265 m, NOAA datums of the selected gauges, 1983–2001 epoch) + rise 1992→2000 (0.027 m) + projected rise since 2000.',
      current_conditions: [
        {
          return_period_years: 100,
          annual_exceedance_probability: 0.01,
          year: 2026,
          design_water_level_navd88: {
            m: 0.8444,
            ft: 2.7703,
          },
          sea_level_rise_since_2000: {
            m: 0.1494,
            ft: 0.4902,
          },
          note: 'On the sea level of 2026: rise since 2000 of the NOAA 2022 Intermediate scenario (median) at the selected gauges, 149 mm: the statute\'s initial (current 100-year) event.',
        },
      ],
      noaa_official_1pct: {
        source: 'NOAA CO-OPS extreme water levels, Key West 8724580 (1 % annual exceedance probability level above MHHW)',
        above_mhhw: {
          m: 0.74,
          ft: 2.4278,
        },
        navd88: {
          m: 0.753,
          ft: 2.4705,
        },
        note: 'NOAA\'s published level, shown beside the GEV estimate; MHHW of the 1983–2001 epoch.',
      },
      results: [
        {
          scenario: 'intermediate_low',
          scenario_name: 'Intermediate-Low',
          planning_horizon: 2046,
          percentile: 50,
          sea_level_rise: {
            m: 0.2758,
            ft: 0.9048,
          },
          return_period_years: 100,
          annual_exceedance_probability: 0.01,
          design_water_level_navd88: {
            m: 0.9707,
            ft: 3.1848,
          },
          exposed_area: {
            acres: 352.01,
            km2: 1.4245,
          },
          exposed_assets: {
            count: 0,
            assets_without_elevation: 0,
            truncated: false,
            assets: [],
          },
          existing_water: {
            today_mhhw_navd88: {
              m: 0.1797,
              ft: 0.5896,
            },
            year: 2026,
            open_water: {
              acres: 3517.09,
              km2: 14.2332,
            },
            land_below_mhhw: {
              acres: 0,
              km2: 0,
            },
            assets: 0,
          },
        },
      ],
      asset_gauges: [],
    },
  },
  vertical_datum: 'NAVD88',
  units: 'Lengths in metres (m) and feet (ft, 1 ft = 0.3048 m); areas in acres and km².',
  baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.',
  datum_epoch: {
    tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
    scenario_baseline_year: 2000,
    rise_1992_to_2000: {
      m: 0.0272,
      ft: 0.0891,
    },
    method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are.',
  },
  screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
  sources: [
    {
      id: 'noaa_tr2022',
      version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
      name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
      url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
      note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
    },
  ],
  provenance: {
    datasets: [
      {
        id: 'noaa_tr2022',
        name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
        version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
      },
    ],
    gauge_rule: {
      rule: 'F.A.C. 62S-7.012(1)(b)',
      url: 'https://www.law.cornell.edu/regulations/florida/Fla-Admin-Code-Ann-R-62S-7-012',
      verification: 'verified',
      text: 'Local sea level is interpolated between "the two closest coastal tide gauges that do not have data warnings associated with them", "using the project\'s distance away from the gauges as the independent variable".',
      gauge_list_verification: 'reconstructed',
      gauge_list_note: 'The rule names 20 gauges including Dauphin Island AL, Fort Pulaski GA, Lake Worth Pier, Port Manatee and East Bay (verified); the other 15 entries are the Florida gauges of the NOAA 2022 file, taken to be the rest of the list. East Bay has no NOAA id here.',
      gauges_used: ['8720030 Fernandina Beach, FL', '8723970 Vaca Key, FL', '8724580 Key West, FL', '8725110 Naples, FL', '8725520 Fort Myers, FL'],
      gauges_excluded_for_data_warnings: [
        {
          noaa_id: '8720218',
          name: 'Mayport, FL',
          warnings: ['NOAA 2022 trajectory estimated from 20 observation-years, fewer than 30.'],
        },
      ],
      gauges_without_noaa_2022_projections: ['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL'],
    },
    statute: {
      rule: 's. 380.093(3)(d), F.S.',
      verification: 'reconstructed',
      note: 'Two closest NOAA gauges; one gauge only when they are more than 100 miles apart and that gauge is more representative (a recorded judgement).',
    },
    datum_epoch: {
      tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
      scenario_baseline_year: 2000,
      rise_1992_to_2000: {
        m: 0.0272,
        ft: 0.0891,
      },
      method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are.',
    },
  },
};

/** Where the MHHW at Key West comes from: the NOAA station there, at the answer's distance from it. */
function keyWestStationMhhw(distanceKm: number) {
  return {
    kind: 'noaa_station',
    mhhw_navd88: { m: 0.013, ft: 0.0427 },
    station: { noaa_id: '8724580', name: 'Key West', lat: 24.5557, lon: -81.807899, distance_km: distanceKm, epoch: '1983–2001' },
    note: `MHHW of NOAA station Key West (8724580), ${distanceKm.toFixed(1)} km away, 1983–2001 epoch: the nearest reference station with its own datums within 10 km, and no station within twice its distance disagrees with it by more than 0.1 m.`,
  };
}

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
          cautions: [],
        },
        baseline_year: 2000,
        quantity: 'Relative sea level change since 2000 (not an elevation; add a tidal datum such as MHHW in NAVD88 for water levels, see POST /hazards/slr-impact).',
        units: 'm and ft (1 ft = 0.3048 m)',
        interpolation: 'Years between the decadal values are interpolated linearly (`interpolated: true`).',
        baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.',
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
                p17: {
                  m: 0.2761,
                  ft: 0.9058,
                },
                p50: {
                  m: 0.3401,
                  ft: 1.1158,
                },
                p83: {
                  m: 0.4221,
                  ft: 1.3848,
                },
              },
            ],
          },
        ],
        sources: [
          {
            id: 'noaa_tr2022',
            version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
            name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
            note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
          },
        ],
        provenance: {
          datasets: [
            {
              id: 'noaa_tr2022',
              name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
              version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
            },
          ],
          gauge_rule: {
            rule: 'F.A.C. 62S-7.012(1)(b)',
            url: 'https://www.law.cornell.edu/regulations/florida/Fla-Admin-Code-Ann-R-62S-7-012',
            verification: 'verified',
            text: 'Local sea level is interpolated between "the two closest coastal tide gauges that do not have data warnings associated with them", "using the project\'s distance away from the gauges as the independent variable".',
            gauge_list_verification: 'reconstructed',
            gauge_list_note: 'The rule names 20 gauges including Dauphin Island AL, Fort Pulaski GA, Lake Worth Pier, Port Manatee and East Bay (verified); the other 15 entries are the Florida gauges of the NOAA 2022 file, taken to be the rest of the list. East Bay has no NOAA id here.',
            gauges_used: ['8720030 Fernandina Beach, FL', '8723970 Vaca Key, FL', '8724580 Key West, FL', '8725110 Naples, FL', '8725520 Fort Myers, FL'],
            gauges_excluded_for_data_warnings: [
              {
                noaa_id: '8720218',
                name: 'Mayport, FL',
                warnings: ['NOAA 2022 trajectory estimated from 20 observation-years, fewer than 30.'],
              },
            ],
            gauges_without_noaa_2022_projections: ['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL'],
          },
          statute: {
            rule: 's. 380.093(3)(d), F.S.',
            verification: 'reconstructed',
            note: 'Two closest NOAA gauges; one gauge only when they are more than 100 miles apart and that gauge is more representative (a recorded judgement).',
          },
          datum_epoch: {
            tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
            scenario_baseline_year: 2000,
            rise_1992_to_2000: {
              m: 0.027,
              ft: 0.0885,
            },
            method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are.',
          },
        },
      },
    },
  },
  {
    operationId: 'assessSlrImpact',
    request: { body: { lat: 24.5551, lon: -81.78, scenario: 'intermediate', planning_horizon: 2070, allow_surface_model: true } },
    response: {
      status: 200,
      body: {
        location: {
          lat: 24.5551,
          lon: -81.78,
        },
        scenario: 'intermediate',
        scenario_name: 'Intermediate',
        planning_horizon: 2070,
        percentile: 50,
        gauge_selection: {
          method: 'inverse_distance_two_gauges',
          reason: 'Interpolated between the two closest gauges without data warnings (45.4 miles apart) by inverse distance (F.A.C. 62S-7.012(1)(b)).',
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
          cautions: [],
        },
        elevation_change: {
          m: 0.5668,
          ft: 1.8594,
          percentiles: {
            p17: {
              m: 0.4648,
              ft: 1.5248,
            },
            p50: {
              m: 0.5668,
              ft: 1.8594,
            },
            p83: {
              m: 0.691,
              ft: 2.267,
            },
          },
          baseline_year: 2000,
        },
        mhhw_navd88: {
          m: 0.013,
          ft: 0.0427,
        },
        mhhw_source: keyWestStationMhhw(2.82),
        local_datum_check: {
          status: 'agrees',
          radius_km: 10,
          tolerance_m: 0.1,
          used_mhhw_navd88: {
            m: 0.0082,
            ft: 0.0268,
          },
          stations: [
            {
              noaa_id: '8724580',
              name: 'Key West',
              lat: 24.5557,
              lon: -81.807899,
              distance_km: 2.82,
              mhhw_navd88: {
                m: 0.013,
                ft: 0.0427,
              },
              difference: {
                m: 0.0048,
                ft: 0.0159,
              },
            },
            {
              noaa_id: '8724493',
              name: 'Boca Chica Marina',
              lat: 24.575,
              lon: -81.7083,
              distance_km: 7.58,
              mhhw_navd88: {
                m: -0.057,
                ft: -0.187,
              },
              difference: {
                m: -0.0652,
                ft: -0.2138,
              },
            },
          ],
          basis: 'MHHW − NAVD88 of the NOAA reference stations (own harmonic constants and datums, 1983–2001 epoch, as the MHHW used here) from the NOAA CO-OPS station data; subordinate stations are left out, as their datums are often …',
          note: 'NOAA station Key West (8724580), 2.8 km away, has MHHW 0.013 m NAVD88, within 0.1 m of the 0.008 m taken from the sea level gauges.',
        },
        datum_epoch: {
          tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
          scenario_baseline_year: 2000,
          rise_1992_to_2000: {
            m: 0.0272,
            ft: 0.0891,
          },
          method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are.',
        },
        projected_mhhw_navd88: {
          m: 0.6069,
          ft: 1.9912,
        },
        projected_mhhw_basis: 'MHHW (NAVD88, 1983–2001 epoch) + rise 1992→2000 + projected rise since 2000, at the selected gauges.',
        vertical_datum: 'NAVD88',
        baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.',
        elevation: {
          status: 'covered',
          source: {
            name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
            vertical_datum: 'EGM96',
            native_resolution: '1 arc-second (~30 m)',
            elevation_model_id: 'srtm-1arcsec',
            resolution_m: 30,
            vertical_accuracy_m: 16,
            vertical_accuracy_basis: 'SRTM mission specification: 16 m absolute, 90 % linear error; whole-metre samples.',
            surface_model: true,
            height_step_m: 1,
          },
          sources: [
            {
              elevation_model_id: 'srtm-1arcsec',
              name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
              surface_model: true,
              share_of_cells: 1,
              vertical_offset_m: -0.265,
            },
          ],
          surface_model_flags: {
            cells: 3035,
            share_of_cells: 0.1586,
            rule: 'Surface-model (SRTM) cells more than 3 m above the lowest ground within 2 cells are flagged as probably building or canopy: their height is not ground.',
          },
          height_steps: {
            elevation_model_id: 'srtm-1arcsec',
            step_m: 1,
            lowest_land_levels_navd88_m: [0.735, 1.735, 2.735, 3.735, 4.735],
            note: 'This model\'s heights come in whole steps of 1 m: after the datum shift (-0.265 m) its land cells stand at these NAVD88 levels and at none between. Where it supplies the ground, exposed area therefore grows in steps: a water level just above one of these levels reaches at once every connected cell of that height, and two water lev…',
          },
          point_source_id: 'srtm-1arcsec',
          connection: KEY_WEST_CONNECTION,
          coverage_fraction: 1,
          cell_size_m: 29,
          vertical_datum_correction: {
            from: 'EGM96',
            applied_offset_m: -0.265,
            method: 'SRTM heights (EGM96, sea surface = 0 m) taken as heights above local mean sea level and shifted by MSL − NAVD88 from the NOAA tidal datums (1983–2001 epoch) of the selected gauges.',
            uncertainty: 'The EGM96 geoid departs from local mean sea level by up to a few decimetres and sea level rose by a few centimetres between the datum epoch (centre 1992) and the SRTM flight (2000); both are small against the SRTM vertical error of several metres over built-up and vegetated ground. Screening level o…',
          },
          ground_method: 'Ground at a point or asset: the asset\'s surveyed elevation column when its file has one (ground before first floor, NAVD88), else the elevation model at the location at its native resolution, interpolated bilinearly between the four surrounding posts. Each asset\'s water level uses its own gauge inte…',
        },
        ground_elevation_navd88: {
          m: 1.7346,
          ft: 5.6909,
        },
        water_depth: {
          m: 0,
          ft: 0,
          inundated: false,
          existing_water: false,
        },
        inundation_area: {
          acres: 0,
          km2: 0,
          radius_km: 2,
          method: 'Land cells within the radius connected (8-neighbour) to open water through cells below the projected MHHW, less those already below today\'s MHHW (reported as existing_water). Open water is never counted: SRTM sea and bay cells (0 or below in the raw model) are marked as water before the datum shift;…',
        },
        existing_water: {
          today_mhhw_navd88: {
            m: 0.1847,
            ft: 0.606,
          },
          year: 2026,
          open_water: {
            acres: 1401.03,
            km2: 5.6698,
          },
          land_below_mhhw: {
            acres: 0,
            km2: 0,
          },
          assets: 0,
          note: 'Open water and land already reached by today\'s MHHW (same scenario, this year) within the radius; not counted in inundation_area or affected_assets.',
        },
        affected_assets: {
          count: 0,
          assets: [],
        },
        location_setting: {
          setting: 'coastal',
          note: 'Open water lies in the elevation model around the point: the tidal level applies where low ground connects to it.',
        },
        screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
        sources: [
          {
            id: 'noaa_tr2022',
            version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
            name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
            note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
          },
        ],
        provenance: {
          datasets: [
            {
              id: 'noaa_tr2022',
              name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
              version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
            },
          ],
          gauge_rule: {
            rule: 'F.A.C. 62S-7.012(1)(b)',
            url: 'https://www.law.cornell.edu/regulations/florida/Fla-Admin-Code-Ann-R-62S-7-012',
            verification: 'verified',
            text: 'Local sea level is interpolated between "the two closest coastal tide gauges that do not have data warnings associated with them", "using the project\'s distance away from the gauges as the independent variable".',
            gauge_list_verification: 'reconstructed',
            gauge_list_note: 'The rule names 20 gauges including Dauphin Island AL, Fort Pulaski GA, Lake Worth Pier, Port Manatee and East Bay (verified); the other 15 entries are the Florida gauges of the NOAA 2022 file, taken to be the rest of the list. East Bay has no NOAA id here.',
            gauges_used: ['8720030 Fernandina Beach, FL', '8723970 Vaca Key, FL', '8724580 Key West, FL', '8725110 Naples, FL', '8725520 Fort Myers, FL'],
            gauges_excluded_for_data_warnings: [
              {
                noaa_id: '8720218',
                name: 'Mayport, FL',
                warnings: ['NOAA 2022 trajectory estimated from 20 observation-years, fewer than 30.'],
              },
            ],
            gauges_without_noaa_2022_projections: ['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL'],
          },
          statute: {
            rule: 's. 380.093(3)(d), F.S.',
            verification: 'reconstructed',
            note: 'Two closest NOAA gauges; one gauge only when they are more than 100 miles apart and that gauge is more representative (a recorded judgement).',
          },
          datum_epoch: {
            tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
            scenario_baseline_year: 2000,
            rise_1992_to_2000: {
              m: 0.0272,
              ft: 0.0891,
            },
            method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are.',
          },
        },
      },
    },
  },
  {
    operationId: 'analyzeFlooding',
    request: {
      body: KEY_WEST_ANALYSIS_REQUEST,
    },
    response: {
      status: 200,
      body: KEY_WEST_ANALYSIS_ANSWER,
    },
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
    response: {
      status: 200,
      body: {
        boundary: {
          area: {
            acres: 5002.17,
            km2: 20.2431,
          },
          bbox: [-81.81, 24.54, -81.75, 24.57],
          vertex_count: 5,
          counties: [
            {
              fips: '12087',
              name: 'Monroe',
            },
          ],
          warnings: [],
        },
        scenarios: ['intermediate'],
        planning_horizons: [2050],
        gauge_selection: {
          method: 'inverse_distance_two_gauges',
          reason: 'Interpolated between the two closest gauges without data warnings (45.4 miles apart) by inverse distance (F.A.C. 62S-7.012(1)(b)).',
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
          cautions: [],
        },
        elevation: {
          status: 'covered',
          source: {
            name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
            vertical_datum: 'EGM96',
            native_resolution: '1 arc-second (~30 m)',
            elevation_model_id: 'srtm-1arcsec',
            resolution_m: 30,
            vertical_accuracy_m: 16,
            vertical_accuracy_basis: 'SRTM mission specification: 16 m absolute, 90 % linear error; whole-metre samples.',
            surface_model: true,
            height_step_m: 1,
          },
          sources: [
            {
              elevation_model_id: 'srtm-1arcsec',
              name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
              surface_model: true,
              share_of_cells: 1,
              vertical_offset_m: -0.265,
            },
          ],
          surface_model_flags: {
            cells: 3984,
            share_of_cells: 0.17,
            rule: 'Surface-model (SRTM) cells more than 3 m above the lowest ground within 2 cells are flagged as probably building or canopy: their height is not ground.',
          },
          height_steps: {
            elevation_model_id: 'srtm-1arcsec',
            step_m: 1,
            lowest_land_levels_navd88_m: [0.735, 1.735, 2.735, 3.735, 4.735],
            note: 'This model\'s heights come in whole steps of 1 m: after the datum shift (-0.265 m) its land cells stand at these NAVD88 levels and at none between. Where it supplies the ground, exposed area therefore grows in steps: a water level just above one of these levels reaches at once every connected cell of…',
          },
          coverage_fraction: 1,
          cell_size_m: 29,
          vertical_datum_correction: {
            from: 'EGM96',
            applied_offset_m: -0.265,
            method: 'SRTM heights (EGM96, sea surface = 0 m) taken as heights above local mean sea level and shifted by MSL − NAVD88 from the NOAA tidal datums (1983–2001 epoch) of the selected gauges.',
            uncertainty: 'The EGM96 geoid departs from local mean sea level by up to a few decimetres and sea level rose by a few centimetres between the datum epoch (centre 1992) and the SRTM flight (2000); both are small against the SRTM vertical error of several metres over built-up and vegetated ground. Screening level o…',
          },
          connection: KEY_WEST_CONNECTION,
          asset_ground: {
            surveyed: 0,
            from_dem: 0,
            surface_model_flagged: 0,
            method: 'Ground at a point or asset: the asset\'s surveyed elevation column when its file has one (ground before first floor, NAVD88), else the elevation model at the location at its native resolution, interpolated bilinearly between the four surrounding posts. Each asset\'s water level uses its own gauge inte…',
          },
          method: 'Land cells connected (8-neighbour) to open water below the water level count as exposed, apart from land already below today\'s MHHW (existing_water). Open water is never counted as land: SRTM sea and bay cells (0 or below in the raw model) are marked before the datum shift; for DEMs without a water …',
          screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
        },
        assets: {
          inside_boundary: 0,
          source: 'The caller\'s imported assets (points).',
        },
        components: {
          rainfall: {
            status: 'computed',
            scope: 'Screening-level depression storage on the ground grid (fill–spill–merge, Barnes, Callaghan & Wickert 2020): the storm\'s runoff fills each depression from its own catchment and spills downstream. Not a hydraulic model: no pipes, culverts, pumps or channel conveyance, no timing, no infiltration beyond…',
            design_storm: {
              duration_h: 24,
              return_period_years: 100,
              source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour (example value: read yours from PFDS)',
              depth_mm: 330.2,
              depth_in: 13,
              runoff: {
                curve_number: 85,
              },
              runoff_basis: 'NRCS curve number 85: S = 25400/CN − 254 mm, Ia = 0.2 S, Q = (P − Ia)² / (P + 0.8 S)',
              runoff_mm: 281.9,
            },
            ponded_area: {
              acres: 226.08,
              km2: 0.9149,
            },
            ponded_volume_m3: 709782.2,
            max_depth: {
              m: 2.949,
              ft: 9.6752,
            },
            volume_balance: {
              runoff_m3: 3169987.5,
              ponded_m3: 709782.2,
              to_open_water_m3: 2402593.6,
              left_model_m3: 57611.7,
              closure: 1,
            },
            count: 124,
            truncated: true,
            depressions: [
              {
                depression_id: 337,
                merged_from: [336, 334],
                lowest_point: {
                  lat: 24.554722,
                  lon: -81.770278,
                  ground_navd88: {
                    m: 0.7346,
                    ft: 2.4101,
                  },
                },
                capacity_m3: 215689.3,
                catchment_area_m2: 381805,
                spill_elevation_navd88: {
                  m: 1.7346,
                  ft: 5.6909,
                },
                fill_rain_mm: 615.6,
                stored_m3: 109948.6,
                water_surface_navd88: {
                  m: 1.2443,
                  ft: 4.0825,
                },
                max_depth: {
                  m: 0.5098,
                  ft: 1.6724,
                },
                status: 'partial',
              },
            ],
            grid: {
              cells: 23653,
              cell_size_m: 29,
              extent: 'The analysis grid over the boundary\'s bounding box (catchments do not stop at the boundary).',
            },
          },
        },
        inundation_extents: [],
        component_extents: [
          {
            component: 'rainfall',
            scenario: null,
            planning_horizon: null,
            storm: { return_period_years: 100, depth_mm: 330.2, duration_h: 24 },
            area_km2: 0.9149,
            area_m2: 914910.65,
            max_depth_m: 2.949,
            geometry: {
              type: 'MultiPolygon',
              coordinates: [
                [[[-81.759306, 24.569444], [-81.759306, 24.569722], [-81.759444, 24.569861], [-81.759583, 24.569722], [-81.759583, 24.569444], [-81.759444, 24.569306], [-81.759306, 24.569444]]],
              ],
            },
          },
        ],
        vertical_datum: 'NAVD88',
        units: 'Lengths in metres (m) and feet (ft, 1 ft = 0.3048 m); areas in acres and km².',
        baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.',
        datum_epoch: {
          tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
          scenario_baseline_year: 2000,
          rise_1992_to_2000: {
            m: 0.0272,
            ft: 0.0891,
          },
          method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are; for a gauge with a data warning (a trajectory from fewer than 30 years of record, which can run negativ…',
        },
        screening_level: 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.',
        sources: [
          {
            id: 'noaa_tr2022',
            version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
            name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
            url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
            note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
          },
        ],
        provenance: {
          datasets: [
            {
              id: 'noaa_tr2022',
              name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
              version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
            },
          ],
          gauge_rule: {
            rule: 'F.A.C. 62S-7.012(1)(b)',
            url: 'https://www.law.cornell.edu/regulations/florida/Fla-Admin-Code-Ann-R-62S-7-012',
            verification: 'verified',
            text: 'Local sea level is interpolated between "the two closest coastal tide gauges that do not have data warnings associated with them", "using the project\'s distance away from the gauges as the independent variable".',
            gauge_list_verification: 'reconstructed',
            gauge_list_note: 'The rule names 20 gauges including Dauphin Island AL, Fort Pulaski GA, Lake Worth Pier, Port Manatee and East Bay (verified); the other 15 entries are the Florida gauges of the NOAA 2022 file, taken to be the rest of the list. East Bay has no NOAA id here.',
            gauges_used: [
              '8720030 Fernandina Beach, FL',
              '8723970 Vaca Key, FL',
              '8724580 Key West, FL',
              '8725110 Naples, FL',
              '8725520 Fort Myers, FL',
            ],
            gauges_excluded_for_data_warnings: [
              {
                noaa_id: '8720218',
                name: 'Mayport, FL',
                warnings: ['NOAA 2022 trajectory estimated from 20 observation-years, fewer than 30.'],
              },
            ],
            gauges_without_noaa_2022_projections: ['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL'],
          },
          statute: {
            rule: 's. 380.093(3)(d), F.S.',
            verification: 'reconstructed',
            note: 'Two closest NOAA gauges; one gauge only when they are more than 100 miles apart and that gauge is more representative (a recorded judgement).',
          },
          datum_epoch: {
            tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
            scenario_baseline_year: 2000,
            rise_1992_to_2000: {
              m: 0.0272,
              ft: 0.0891,
            },
            method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are; for a gauge with a data warning (a trajectory from fewer than 30 years of record, which can run negativ…',
          },
        },
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
        allow_surface_model: true,
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
            location: {
              lat: null,
              lon: null,
              county: null,
              county_fips: null,
              scope: 'state',
            },
            magnitude: {
              incident_type: 'Hurricane',
              declaration_type: 'Major Disaster',
            },
            distance_km: null,
          },
        ],
        next_cursor: 'eyJkIjoiMjAyMy0wOC0yNyIsImkiOiJmZW1hOkVNLTM1OTYifQ',
        location: {
          query: 'City of Key West',
          lat: 24.55524,
          lon: -81.78163,
          distance_from: 'point',
        },
        radius_km: 50,
        sources: [
          {
            id: 'hurdat2',
            version: 'hurdat2-1851-2024-040425 (via Benjreggio/HurdatFlorida @ 6d2f4bfe)',
            name: 'NHC HURDAT2 Atlantic best tracks 1851–2024, Florida landfalls 1900–2024 (HurdatFlorida derivation)',
            url: 'https://www.nhc.noaa.gov/data/#hurdat',
            note: 'Landfall position = best-track point at the landfall time.',
          },
        ],
        provenance: {
          datasets: [
            {
              id: 'hurdat2',
              name: 'NHC HURDAT2 Atlantic best tracks 1851–2024, Florida landfalls 1900–2024 (HurdatFlorida derivation)',
              version: 'hurdat2-1851-2024-040425 (via Benjreggio/HurdatFlorida @ 6d2f4bfe)',
            },
          ],
          gauge_rule: {
            rule: 'F.A.C. 62S-7.012(1)(b)',
            url: 'https://www.law.cornell.edu/regulations/florida/Fla-Admin-Code-Ann-R-62S-7-012',
            verification: 'verified',
            text: 'Local sea level is interpolated between "the two closest coastal tide gauges that do not have data warnings associated with them", "using the project\'s distance away from the gauges as the independent variable".',
            gauge_list_verification: 'reconstructed',
            gauge_list_note: 'The rule names 20 gauges including Dauphin Island AL, Fort Pulaski GA, Lake Worth Pier, Port Manatee and East Bay (verified); the other 15 entries are the Florida gauges of the NOAA 2022 file, taken to be the rest of the list. East Bay has no NOAA id here.',
            gauges_used: ['8720030 Fernandina Beach, FL', '8723970 Vaca Key, FL', '8724580 Key West, FL', '8725110 Naples, FL', '8725520 Fort Myers, FL'],
            gauges_excluded_for_data_warnings: [
              {
                noaa_id: '8720218',
                name: 'Mayport, FL',
                warnings: ['NOAA 2022 trajectory estimated from 20 observation-years, fewer than 30.'],
              },
            ],
            gauges_without_noaa_2022_projections: ['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL'],
          },
          statute: {
            rule: 's. 380.093(3)(d), F.S.',
            verification: 'reconstructed',
            note: 'Two closest NOAA gauges; one gauge only when they are more than 100 miles apart and that gauge is more representative (a recorded judgement).',
          },
          datum_epoch: null,
        },
      },
    },
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
    response: {
      status: 200,
      body: {
        jurisdiction_id: 'county:12087',
        jurisdiction_name: 'Monroe County',
        design_storm: {
          duration_h: 24,
          return_period_years: 100,
          source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour (example value: read yours from PFDS)',
          depth_mm: 330.2,
          depth_in: 13,
          runoff: { curve_number: 85 },
        },
        updated_at: '2026-11-23T15:04:05.000Z',
        used_by: 'Flood analyses of this jurisdiction (`jurisdiction` in the body) that send no `rainfall`; echoed in their rainfall and compound components with its source.',
      },
    },
  },
  {
    operationId: 'getDesignStorm',
    request: { params: { jurisdiction: 'Monroe County' } },
    response: {
      status: 200,
      body: {
        jurisdiction_id: 'county:12087',
        jurisdiction_name: 'Monroe County',
        design_storm: {
          duration_h: 24,
          return_period_years: 100,
          source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour (example value: read yours from PFDS)',
          depth_mm: 330.2,
          depth_in: 13,
          runoff: { curve_number: 85 },
        },
        updated_at: '2026-11-23T15:04:05.000Z',
        used_by: 'Flood analyses of this jurisdiction (`jurisdiction` in the body) that send no `rainfall`; echoed in their rainfall and compound components with its source.',
      },
    },
  },
];
