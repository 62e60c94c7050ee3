import { lookupInCounty } from '../../domain/compliance/inputs';
import { InvalidInputError } from '../../domain/errors';
import { decideEligibility, type EligibilityInput, type StateIncomeFigure } from '../../domain/grants/eligibility';
import { describeJurisdiction } from '../../domain/jurisdictions';

/** What the eligibility decision reads besides the request: the state figure it compares with. */
export interface EligibilityDeps {
  stateIncome: StateIncomeFigure;
}

/** The request: the jurisdiction's name, with its type and county where a name fits several. */
export type EligibilityRequest = EligibilityInput & { jurisdiction_type?: 'county' | 'municipality'; county?: string };

/** The grant eligibility of a named jurisdiction; a name that fits several must say which. */
export function checkEligibility(deps: EligibilityDeps, input: EligibilityRequest) {
  const lookup = lookupInCounty(input.jurisdiction, input.jurisdiction_type, { name: input.county, field: 'county', location: 'body' });
  if (lookup.status === 'ambiguous') {
    const names = lookup.candidates.map((c) => describeJurisdiction(c)).join('; ');
    throw new InvalidInputError(`"${input.jurisdiction}" names more than one Florida jurisdiction: ${names}.`, [
      { field: 'jurisdiction_type', in: 'body', message: 'Say `county` or `municipality` (and `county` for a city name used in several counties).' },
    ]);
  }
  return decideEligibility(input, lookup, deps.stateIncome);
}
