import type { EligibilityDeps } from '../../shared/application/grants/eligibility';
import { wiring } from '../../shared/config';

/** The state income figure the deployment is configured with. */
export const eligibilityDeps = wiring((config): EligibilityDeps => ({
  stateIncome: {
    per_capita_personal_income_usd: config.STATE_PER_CAPITA_INCOME_USD,
    year: config.STATE_PER_CAPITA_INCOME_YEAR,
    source: config.STATE_PER_CAPITA_INCOME_SOURCE,
  },
}));
