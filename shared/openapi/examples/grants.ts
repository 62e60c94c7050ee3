import type { OperationExample } from './types';

/** Grant eligibility, deadlines and ranking. */
export const grantExamples: OperationExample[] = [
  {
    operationId: 'checkGrantEligibility',
    request: { body: { jurisdiction: 'Liberty County' } },
    response: {
      status: 200,
      body: {
        eligible: true,
        tier: 'financially_disadvantaged_small_community',
        cost_share_percentage: 0,
        state_share_percentage: 100,
        jurisdiction: { name: 'Liberty County', type: 'county', county: 'Liberty', county_fips: '12077' },
        state_income: {
          per_capita_personal_income_usd: 68703,
          year: 2023,
          source: 'U.S. Bureau of Economic Analysis, table CAINC1 (personal income, population, per capita personal income by county), Florida, 2023; release of 2024-11-14',
        },
        reasons: [
          {
            test: 'florida_local_government',
            passed: true,
            detail: 'Liberty County is a Florida county: an eligible applicant under s. 380.093.',
            value: 'Liberty County',
          },
        ],
      },
    },
  },
  {
    operationId: 'listGrantDeadlines',
    request: { query: { date: '2027-08-02' } },
    response: {
      status: 200,
      body: {
        data: [
          {
            id: 'project_proposals',
            name: 'Project proposals to DEP for the Statewide Flooding and Sea Level Rise Resilience Plan',
            next_date: '2027-09-01',
            days_remaining: 30,
            requirements: [
              'Submit each proposed project through DEP\'s Resilient Florida grant portal (the submission window opens July 1).',
              'A vulnerability assessment meeting s. 380.093(3) is complete, or under way, for the jurisdiction: implementation grants require one.',
              'Each project addresses risks to critical assets identified in the vulnerability assessment.',
              'State the total cost, the amount requested and the cost share (50 % for implementation projects unless the applicant is a financially disadvantaged small community).',
              'Give the project\'s readiness: design stage, permits, easements and local funding.',
            ],
            statute_ref: 's. 380.093, F.S.',
          },
        ],
        as_of: '2027-08-02',
      },
    },
  },
  {
    operationId: 'rankGrantProject',
    request: {
      body: {
        project_name: 'Lift Station 12 hardening',
        risk_reduction: { va_risks_addressed: 'full', regionally_significant_assets: 2, vulnerable_critical_asset_share: 40 },
        readiness: { design_stage: 'final', permits: 'issued' },
        costs: { total_cost: 2000000, requested_amount: 1000000, benefit_cost_ratio: 2.1 },
        matching_funds: { share_percentage: 50 },
      },
    },
    response: {
      status: 200,
      body: {
        project_name: 'Lift Station 12 hardening',
        tier1_score: 24,
        tier2_score: 12,
        tier3_score: 6,
        tier4_score: 0,
        total_rank: 42,
        tiers: [
          {
            tier: 1,
            name: 'Risk reduction',
            weight: 40,
            points: 60,
            max_points: 100,
            score: 24,
            criteria: [
              {
                id: 'va_risks_addressed',
                name: 'Degree to which the project addresses flood and sea level rise risks identified in the vulnerability assessment',
                fact: 'risk_reduction.va_risks_addressed',
                value: 'full',
                points: 30,
                max_points: 30,
                missing: false,
              },
            ],
          },
        ],
        missing_facts: [
          'risk_reduction.contributes_to_existing_mitigation',
          'current_conditions.flooding_erosion_impact',
          'readiness.easements',
          'readiness.local_funding',
          'environment.nature_based_options',
        ],
        benefit_cost_ratio: { value: 2.1, basis: 'stated' },
        rubric: {
          id: 'resilient-florida-ranking',
          version: '1.0.0',
          verification: 'reconstructed',
          source: 'Tiers, weights and criteria: s. 380.093(5), F.S. (ranking of projects for the Statewide Flooding and Sea Level Rise Resilience Plan) as summarised in DOMAIN §5. Point scales within each criterion are this API\'s reconstruction, not DEP\'s scoring sheet.',
          weights: { tier1: 40, tier2: 30, tier3: 20, tier4: 10 },
        },
      },
    },
  },
];
