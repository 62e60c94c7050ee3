import type { OperationExample } from './types';

/** A resident signs up, then asks for the risk at an address, the hazards at a point and a household kit (answers of the local server, shortened). */
export const v1RiskExamples: OperationExample[] = [
  {
    operationId: 'registerUser',
    setup: true,
    request: {
      body: {
        email: 'rosa.resident@example.org',
        password: 'Keys-Sea-Level-2026!',
        name: 'Rosa Resident',
        role: 'resident',
      },
    },
    response: {
      status: 201,
      body: {
        user_id: 'cc3df7e2-cad0-4da8-a953-28efc5fcce8d',
        email: 'rosa.resident@example.org',
        name: 'Rosa Resident',
        role: 'resident',
        status: 'active',
        created_at: '2026-11-23T18:39:44.620Z',
      },
    },
  },
  {
    operationId: 'login',
    setup: true,
    request: {
      body: {
        email: 'rosa.resident@example.org',
        password: 'Keys-Sea-Level-2026!',
      },
    },
    response: {
      status: 200,
      body: {
        access_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkNvZ25pdG9Mb2NhbCJ9.eyJhdXRoX3RpbWUiOjE3OTU0NTkxODQsImNsaWVudF9pZCI6IjBkcmdsM3BpdjJ6eDFmeDFocTNvN2RsaHUiLCJldmVudF9pZCI6ImRhYjE0NzY3LTU4YTYtNGM2NC05ZjJjLTIzYTBhMmZmMGUyMyIsImlhdCI6MTc5NTQ1OTE4NCwianRpIjoiZDZhNGZkMzAtZTdhYi00MzY3LWFiY2MtOWQ1Y2NiYWYxYmFhIiw…',
        id_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkNvZ25pdG9Mb2NhbCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiY2MzZGY3ZTItY2FkMC00ZGE4LWE5NTMtMjhlZmM1ZmNjZThkIiwiYXV0aF90aW1lIjoxNzk1NDU5MTg0LCJlbWFpbCI6InJvc2EucmVzaWRlbnRAZXhhbXBsZS5vcmciLCJlbWFpbF92ZXJpZmllZCI6ZmFsc2UsImV2ZW50X2lkIjoiZGFiMTQ3NjctNThhNi00YzY0LTlmMmM…',
        refresh_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiY2MzZGY3ZTItY2FkMC00ZGE4LWE5NTMtMjhlZmM1ZmNjZThkIiwiZW1haWwiOiJyb3NhLnJlc2lkZW50QGV4YW1wbGUub3JnIiwiaWF0IjoxNzk1NDU5MTg0LCJqdGkiOiI5NDY3N2QyMS00YTM0LTQxODUtOWM3NS05OTQxNTI0ZjIwZTYiLCJleHAiOjE3OTgwNTExODQsImlzcyI6Imh0dHA6Ly8xMjcuMC4wLjE…',
        token_type: 'Bearer',
        expires_in: 3600,
      },
    },
  },
  {
    operationId: 'calculateRisk',
    request: {
      query: {
        lat: '24.5551',
        lon: '-81.78',
        hazards: 'HRCN,CFLD',
      },
    },
    response: {
      status: 200,
      body: {
        location: {
          county_fips: '12087',
          county_name: 'Monroe',
          lat: 24.5551,
          lon: -81.78,
          point_basis: 'requested_point',
          matched_by: 'point_in_boundary',
          coastal: true,
          coastal_basis: 'County level: one of Florida\'s 35 counties whose boundary reaches the open coast (Census cartographic boundaries, us-atlas); a point inland in such a county is still reported coastal.',
          nri_id: 'C12087',
        },
        source: {
          dataset: 'FEMA National Risk Index',
          version: '1.19.0 (March 2023)',
          level: 'county',
          disclaimer: 'The National Risk Index (the Risk Index or the Index) and its associated data are meant for planning purposes only. This tool was created for broad nationwide comparisons and is not a substitute for localized risk assessment analysis.',
          url: 'https://hazards.fema.gov/nri/data-resources',
          note: 'County table for Florida as FEMA published it; served, never recomputed. Not a substitute for a localized risk assessment.',
          release: 'March 2023',
        },
        composite: {
          risk_value: 122306359.22103828,
          risk_score: 95.92745784282532,
          risk_rating: 'Relatively High',
          risk_state_percentile: 65.67164179104478,
          expected_annual_loss_usd: 97291381.48769379,
          expected_annual_loss: {
            score: 95.45032497678737,
            rating: 'Relatively High',
          },
          social_vulnerability: {
            score: 69.86000061035156,
            rating: 'Relatively High',
          },
          community_resilience: {
            score: 27.8799991607666,
            rating: 'Relatively Low',
          },
          community_risk_factor: 1.257114015145407,
        },
        hazards: [
          {
            code: 'CFLD',
            name: 'Coastal Flooding',
            annualized_frequency: 2.279343492853241,
            expected_annual_loss_usd: 736563.5228274373,
            expected_annual_loss_rating: 'Relatively Low',
            risk_value: 922042.0229950338,
            risk_score: 71.0261569416499,
            risk_rating: 'Relatively Low',
            period_of_record: 'Various (see documentation)',
          },
        ],
        coastal: {
          provenance: 'Computed by this API from NOAA data (not part of the FEMA National Risk Index).',
          sea_level_rise: {
            scenarios: [
              {
                scenario: 'intermediate_low',
                name: 'Intermediate-Low',
                statute_required_by: ['2021', '2024'],
                projections: [
                  {
                    year: 2046,
                    interpolated: true,
                    statute_horizon_for: ['2024'],
                    p17: {
                      m: 0.2227,
                      ft: 0.7307,
                    },
                    p50: {
                      m: 0.2758,
                      ft: 0.9048,
                    },
                    p83: {
                      m: 0.3305,
                      ft: 1.0843,
                    },
                  },
                ],
              },
            ],
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
            baseline_year: 2000,
            quantity: 'Relative sea level change since 2000 (not an elevation; add a tidal datum such as MHHW in NAVD88 for water levels, see POST /hazards/slr-impact).',
            baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.',
            assessment_year: 2026,
            statute_rule_set: '2024',
            sources: [
              {
                id: 'noaa_tr2022',
                version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
                name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
                url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
                note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
              },
            ],
          },
          high_tide_flooding: {
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
            gauges: [
              {
                noaa_id: '8724580',
                name: 'Key West, FL',
                distance_km: 2.88,
                weight: 0.9607,
                mhhw_navd88: {
                  m: 0.013,
                  ft: 0.0427,
                },
                thresholds_navd88: {
                  minor: {
                    m: 0.535,
                    ft: 1.7554,
                  },
                  moderate: {
                    m: 0.8295,
                    ft: 2.7216,
                  },
                  major: {
                    m: 1.205,
                    ft: 3.9535,
                  },
                },
                observed_flood_days: {
                  period: '1920–2016',
                  mean_days_2007_2016: 0,
                  latest_years: [
                    {
                      year: 2016,
                      days: 0,
                    },
                  ],
                },
                projected: [
                  {
                    scenario: 'intermediate_low',
                    year: 2046,
                    sea_level_rise: {
                      m: 0.2753,
                      ft: 0.9032,
                    },
                    minor_flood_days: 21.2,
                    floored_at_observed_mean: false,
                  },
                ],
              },
            ],
            projection_percentile: 50,
            method: 'Thresholds: NOAA minor/moderate/major high tide flood levels above each gauge\'s MHHW (Sweet et al. 2018), as NAVD88 heights. Observed: NOAA TR 086 annual minor flood days at the gauge. Projected, median rise: Sweet et al. (2018, NOAA TR NOS CO-OPS 086; 2022): the distribution of daily highest water …',
            sources: [
              {
                id: 'noaa_htf',
                version: 'NOAA TR NOS CO-OPS 086 (February 2018)',
                name: 'NOAA high tide flooding thresholds and historical flood days (Sweet et al. 2018, NOAA Technical Report NOS CO-OPS 086)',
                url: 'https://tidesandcurrents.noaa.gov/publications/techrpt86_PaP_of_HTFlooding.pdf',
                note: 'Minor = 0.04·GT + 0.50 m, moderate = 0.03·GT + 0.80 m, major = 0.04·GT + 1.17 m above MHHW.',
              },
            ],
          },
        },
      },
    },
  },
  {
    operationId: 'hazardsAtLocation',
    request: {
      query: {
        lat: '27.7676',
        lon: '-82.6403',
      },
    },
    response: {
      status: 200,
      body: {
        location: {
          county_fips: '12103',
          county_name: 'Pinellas',
          lat: 27.7676,
          lon: -82.6403,
          point_basis: 'requested_point',
          matched_by: 'point_in_boundary',
          coastal: true,
          coastal_basis: 'County level: one of Florida\'s 35 counties whose boundary reaches the open coast (Census cartographic boundaries, us-atlas); a point inland in such a county is still reported coastal.',
        },
        hazards: [
          {
            code: 'LTNG',
            name: 'Lightning',
            applies: true,
            rating: 'Very High',
            risk_score: 99.74259974259975,
            annualized_frequency: 244.29272170087893,
            expected_annual_loss_usd: 6286860.100870476,
            source: 'FEMA National Risk Index 1.19.0 (March 2023), county level',
          },
        ],
        sea_level_rise: {
          scenarios: [
            {
              scenario: 'intermediate_low',
              name: 'Intermediate-Low',
              statute_required_by: ['2021', '2024'],
              projections: [
                {
                  year: 2046,
                  interpolated: true,
                  statute_horizon_for: ['2024'],
                  p17: {
                    m: 0.2367,
                    ft: 0.7764,
                  },
                  p50: {
                    m: 0.2937,
                    ft: 0.9636,
                  },
                  p83: {
                    m: 0.3519,
                    ft: 1.1545,
                  },
                },
              ],
            },
          ],
          gauge_selection: {
            method: 'inverse_distance_two_gauges',
            reason: 'Interpolated between the two closest gauges without data warnings (19.6 miles apart) by inverse distance (F.A.C. 62S-7.012(1)(b)).',
            gauge_separation_miles: 19.6,
            gauges: [
              {
                noaa_id: '8726520',
                name: 'St. Petersburg, FL',
                lat: 27.76061,
                lon: -82.6269,
                distance_km: 1.53,
                distance_miles: 0.95,
                weight: 0.9515,
              },
            ],
            cautions: [],
          },
          baseline_year: 2000,
          quantity: 'Relative sea level change since 2000 (not an elevation; add a tidal datum such as MHHW in NAVD88 for water levels, see POST /hazards/slr-impact).',
          baseline: 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.',
          assessment_year: 2026,
          statute_rule_set: '2024',
          sources: [
            {
              id: 'noaa_tr2022',
              version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
              name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
              url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
              note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
            },
          ],
        },
        high_tide_flooding: {
          gauge_selection: {
            method: 'inverse_distance_two_gauges',
            reason: 'Interpolated between the two closest gauges without data warnings (19.6 miles apart) by inverse distance (F.A.C. 62S-7.012(1)(b)).',
            gauge_separation_miles: 19.6,
            gauges: [
              {
                noaa_id: '8726520',
                name: 'St. Petersburg, FL',
                lat: 27.76061,
                lon: -82.6269,
                distance_km: 1.53,
                distance_miles: 0.95,
                weight: 0.9515,
              },
            ],
            cautions: [],
          },
          gauges: [
            {
              noaa_id: '8726520',
              name: 'St. Petersburg, FL',
              distance_km: 1.53,
              weight: 0.9515,
              mhhw_navd88: {
                m: 0.238,
                ft: 0.7808,
              },
              thresholds_navd88: {
                minor: {
                  m: 0.7655,
                  ft: 2.5115,
                },
                moderate: {
                  m: 1.0586,
                  ft: 3.4732,
                },
                major: {
                  m: 1.4355,
                  ft: 4.7097,
                },
              },
              observed_flood_days: {
                period: '1920–2016',
                mean_days_2007_2016: 1.5,
                latest_years: [
                  {
                    year: 2016,
                    days: 4,
                  },
                ],
              },
              projected: [
                {
                  scenario: 'intermediate_low',
                  year: 2046,
                  sea_level_rise: {
                    m: 0.2935,
                    ft: 0.9629,
                  },
                  minor_flood_days: 45.3,
                  floored_at_observed_mean: false,
                },
              ],
            },
          ],
          projection_percentile: 50,
          method: 'Thresholds: NOAA minor/moderate/major high tide flood levels above each gauge\'s MHHW (Sweet et al. 2018), as NAVD88 heights. Observed: NOAA TR 086 annual minor flood days at the gauge. Projected, median rise: Sweet et al. (2018, NOAA TR NOS CO-OPS 086; 2022): the distribution of daily highest water …',
          sources: [
            {
              id: 'noaa_htf',
              version: 'NOAA TR NOS CO-OPS 086 (February 2018)',
              name: 'NOAA high tide flooding thresholds and historical flood days (Sweet et al. 2018, NOAA Technical Report NOS CO-OPS 086)',
              url: 'https://tidesandcurrents.noaa.gov/publications/techrpt86_PaP_of_HTFlooding.pdf',
              note: 'Minor = 0.04·GT + 0.50 m, moderate = 0.03·GT + 0.80 m, major = 0.04·GT + 1.17 m above MHHW.',
            },
          ],
        },
        hurricane_landfalls_within_100km: {
          radius_km: 100,
          count: 14,
          hurricanes: 6,
          tropical_storms: 8,
          period: 'Florida landfalls 1900–2024 (HURDAT2)',
          events: [
            {
              event_id: 'hurdat2:AL142024:202410100030',
              name: 'Milton (AL142024) Florida landfall 00:30 UTC, Manatee County',
              date: '2024-10-10',
              type: 'hurricane',
              wind_kt: 100,
              lat: 27.4,
              lon: -82.6,
              distance_km: 41.1,
            },
          ],
        },
        flood_zone: {
          status: 'unknown',
          how_to_get: 'This API has no FEMA flood map data. Look the address up on the FEMA Flood Map Service Center (https://msc.fema.gov/portal/search) or the National Flood Hazard Layer viewer, or ask the county floodplain administrator for a flood zone determination; an elevation certificate gives the building\'s eleva…',
        },
        disclaimer: 'The National Risk Index (the Risk Index or the Index) and its associated data are meant for planning purposes only. This tool was created for broad nationwide comparisons and is not a substitute for localized risk assessment analysis.',
        sources: [
          {
            id: 'fema_nri',
            name: 'FEMA National Risk Index 1.19.0 (March 2023)',
            url: 'https://hazards.fema.gov/nri/data-resources',
            note: 'County table for Florida as FEMA published it; served, never recomputed. Not a substitute for a localized risk assessment.',
          },
        ],
      },
    },
  },
  {
    operationId: 'generateSupplies',
    request: {
      query: {
        adults: '2',
        children: '1',
        pets: '1',
        hazard: 'hurricane',
      },
    },
    response: {
      status: 200,
      body: {
        household: {
          adults: 2,
          children: 1,
          infants: 0,
          pets: 1,
          people: 3,
          medical_needs: false,
          hazard: 'hurricane',
        },
        days: 7,
        items: [
          {
            id: 'water',
            group: 'basic',
            item: 'Water, for drinking and sanitation',
            quantity: 21,
            unit: 'gallons',
            why: '1 gallon per person/day: 3 people × 7 days; plus pets: "Pet food and extra water for your pet", 1 day\'s supply per pet/day for 1 pet × 7 days (pet_food_water; the sources give no volume per pet)',
            condition: null,
            source_id: 'readygov_kit',
            source_ids: ['readygov_kit', 'fdem_kit'],
            source_text: 'Water (one gallon per person per day for several days, for drinking and sanitation)',
          },
        ],
        totals: {
          water_gallons: 21,
          food_person_days: 21,
          pet_supply_days: 7,
          pet_water_days: 7,
        },
        notes: [
          'Water: 1 gallon per person per day (Ready.gov; FDEM: "a minimum of 1 gallon daily per person for 7 days") for 3 people and 7 days.',
          'Pets: the sources ask for food and extra water for each pet but give no volume; the kit counts pet-days of food and water (`pet_food_water`), not gallons.',
        ],
        sources: [
          {
            id: 'readygov_kit',
            name: 'Ready.gov "Build a Kit": Basic Disaster Supplies Kit and Additional Emergency Supplies (FEMA)',
            url: 'https://www.ready.gov/kit',
          },
        ],
      },
    },
  },
];
