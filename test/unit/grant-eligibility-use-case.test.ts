import { checkEligibility } from '../../shared/application/grants/eligibility';
import { InvalidInputError } from '../../shared/domain/errors';

const deps = { stateIncome: { per_capita_personal_income_usd: 60_000, year: 2023, source: 'a test figure' } };

describe('grant eligibility use case', () => {
  it('refuses a name that is both a county and a city until its type is given, naming the field to add', () => {
    const refusal = (() => { try { checkEligibility(deps, { jurisdiction: 'Alachua', project_type: 'planning' }); } catch (error) { return error; } })();
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect((refusal as InvalidInputError).issues).toEqual([expect.objectContaining({ field: 'jurisdiction_type', in: 'body' })]);
    expect((refusal as Error).message).toMatch(/^"Alachua" names more than one Florida jurisdiction: /);
    const decided = checkEligibility(deps, { jurisdiction: 'Alachua', jurisdiction_type: 'county', project_type: 'planning' });
    expect(decided.jurisdiction).toMatchObject({ type: 'county', county_fips: '12001' });
  });
});
