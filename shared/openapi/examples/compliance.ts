import type { OperationExample } from './types';

/** The checklist and a validation. */
export const complianceExamples: OperationExample[] = [
  {
    operationId: 'getComplianceChecklist',
    request: { query: { assessment_year: '2025', jurisdiction: 'Polk County' } },
    response: {
      status: 200,
      body: {
        rule_set: '2024',
        label: 'derived from s. 380.093; not DEP\'s form',
        assessment_date: '2025-07-01',
        rule_set_applies_from: '2024-07-01',
        rule_set_applies_to: null,
        verification: 'unverified',
        source: 'Florida Statutes s. 380.093(3)(c) (2021 text, verified) and s. 380.093(3)(d) (reconstructed); scenario and horizon requirements from a single third-party source (unverified); no DEP checklist text was available.',
        scenario_requirements: {
          scenario_family: 'noaa_2022',
          scenario_family_label: 'NOAA 2022 (Sweet et al. 2022, Global and Regional Sea Level Rise Scenarios for the United States)',
          required_scenarios: ['intermediate_low', 'intermediate'],
          verification: 'unverified',
          source: 'Single third-party source; not confirmed against the statute text or DEP guidance.',
          planning_horizons: [2045, 2075],
          planning_horizon_rule: '20 and 50 years after the assessment year',
        },
        coastal_setting: {
          setting: 'noncoastal',
          basis: 'Polk County lies in none of Florida\'s 35 counties whose boundary reaches the open coast (county 12105). Coastal counties: County boundary arcs shared with no other county in us-atlas counties-10m (Census cartographic boundaries 2017, clipped to the shoreline). No tidal exposure is assumed; a jurisdiction on a tidal river (e.g. the lower St. Johns) should still analyse tidal flooding and surge.',
          not_required_items: ['E', 'F', 'G'],
          variant: {
            applies_from: '2022-07-01',
            description: 'A jurisdiction without tidal exposure (noncoastal) does not analyse tidal flooding (E, F) or storm surge (G); the other items apply.',
            verification: 'reconstructed',
            source: '2022 amendment of s. 380.093(3), F.S. (SB 7053, 2022), as summarised in the project\'s domain reference §3; effective date 2022-07-01 assumed.',
          },
        },
        items: [
          {
            item: 'A',
            title: 'Entire jurisdiction or approved smaller area',
            statute_ref: 's. 380.093(3)(c)',
            requirement: 'The assessment encompasses the entire county or municipality, or a smaller area approved by DEP with a rationale.',
            evidence: ['scope', 'scope_rationale'],
            how_to_satisfy: 'Set scope to full_jurisdiction, or to partial with scope_rationale explaining the smaller area (DEP must approve it).',
            conditional: false,
            applies_from: null,
            applies_to: null,
            verification: 'verified',
            source: 's. 380.093(3)(c), 2021 text',
          },
        ],
      },
    },
  },
  {
    operationId: 'validateCompliance',
    request: { body: { jurisdiction: 'City of Key West', methodology: { vertical_datum: 'NAVD88' } } },
    response: {
      status: 200,
      body: {
        compliant: false,
        jurisdiction: 'City of Key West',
        jurisdiction_id: 'municipality:120168',
        assessment_id: null,
        missing_items: [
          {
            item: 'A',
            statute_ref: 's. 380.093(3)(c)',
            requirement: 'The assessment encompasses the entire county or municipality, or a smaller area approved by DEP with a rationale.',
            how_to_satisfy: 'Set scope to full_jurisdiction, or to partial with scope_rationale explaining the smaller area (DEP must approve it).',
            reason: 'Scope not stated.',
          },
        ],
        dep_checklist_status: {
          rule_set: '2024',
          label: 'derived from s. 380.093; not DEP\'s form',
          assessment_date: '2026-11-23',
          scenario_requirements: {
            scenario_family: 'noaa_2022',
            scenario_family_label: 'NOAA 2022 (Sweet et al. 2022, Global and Regional Sea Level Rise Scenarios for the United States)',
            required_scenarios: ['intermediate_low', 'intermediate'],
            verification: 'unverified',
            source: 'Single third-party source; not confirmed against the statute text or DEP guidance.',
            planning_horizons: [2046, 2076],
            planning_horizon_rule: '20 and 50 years after the assessment year',
          },
          coastal_setting: {
            setting: 'coastal',
            basis: 'City of Key West lies in one of Florida\'s 35 counties whose boundary reaches the open coast (county 12087). Coastal counties: County boundary arcs shared with no other county in us-atlas counties-10m (Census cartographic boundaries 2017, clipped to the shoreline).',
            not_required_items: [],
            variant: {
              applies_from: '2022-07-01',
              description: 'A jurisdiction without tidal exposure (noncoastal) does not analyse tidal flooding (E, F) or storm surge (G); the other items apply.',
              verification: 'reconstructed',
              source: '2022 amendment of s. 380.093(3), F.S. (SB 7053, 2022), as summarised in the project\'s domain reference §3; effective date 2022-07-01 assumed.',
            },
          },
          contradictions: [],
          evidence_summary: { jurisdiction_id: 'municipality:120168', assets_held: 0, assets_by_category: {}, analyses: [] },
          compliant: false,
          passed: 1,
          failed: 13,
          conditional: 0,
          items: [
            {
              item: 'A',
              title: 'Entire jurisdiction or approved smaller area',
              statute_ref: 's. 380.093(3)(c)',
              status: 'fail',
              reason: 'Scope not stated.',
              conditional: false,
              verification: 'verified',
              evidence: { status: 'attested', detail: 'The caller\'s statement; the API holds no evidence for this item.' },
            },
          ],
        },
      },
    },
  },
];
