import type { OperationExample } from './types';

/** Grant eligibility, deadlines and ranking. */
export const grantExamples: OperationExample[] = [
  {
    operationId: 'checkGrantEligibility',
    request: { body: { jurisdiction: 'Liberty County' } },
    response: { status: 200 },
  },
  {
    operationId: 'listGrantDeadlines',
    request: { query: { date: '2027-08-02' } },
    response: { status: 200 },
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
    response: { status: 200 },
  },
];
