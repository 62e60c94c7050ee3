import type { checkGrantEligibilityRoute } from '../../shared/routes/grants';
import type { RouteImplementation } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { describeJurisdiction } from '../../shared/domain/jurisdictions';
import { lookupInCounty } from '../../shared/domain/compliance/inputs';
import { decideEligibility, type StateIncomeFigure } from '../../shared/domain/grants/eligibility';
import { appConfig } from '../../shared/config';

type EligibilityRoute = typeof checkGrantEligibilityRoute;

let stateIncome: StateIncomeFigure | undefined;

function configuredStateIncome(): StateIncomeFigure {
  const config = appConfig();
  stateIncome ??= {
    per_capita_personal_income_usd: config.STATE_PER_CAPITA_INCOME_USD,
    year: config.STATE_PER_CAPITA_INCOME_YEAR,
    source: config.STATE_PER_CAPITA_INCOME_SOURCE,
  };
  return stateIncome;
}

export const checkGrantEligibility: RouteImplementation<EligibilityRoute> = async ({ body }) => {
  const lookup = lookupInCounty(body.jurisdiction, body.jurisdiction_type, { name: body.county, field: 'county', location: 'body' });
  if (lookup.status === 'ambiguous') {
    const names = lookup.candidates.map((c) => describeJurisdiction(c)).join('; ');
    throw new HttpError('invalid_request', `"${body.jurisdiction}" names more than one Florida jurisdiction: ${names}.`, {
      errors: [{ field: 'jurisdiction_type', in: 'body', message: 'Say `county` or `municipality` (and `county` for a city name used in several counties).' }],
    });
  }
  return { status: 200, body: decideEligibility(body, lookup, configuredStateIncome()) };
};
