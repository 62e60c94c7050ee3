import { invalidField, type InputLocation } from '../errors';
import { describeJurisdiction, JURISDICTION_ID_PATTERN, jurisdictionById, jurisdictionId, resolveJurisdiction, type Jurisdiction } from '../jurisdictions';
import type { AssessmentJurisdiction } from '../assessments/model';
import { assessmentDateProblem } from './rule-sets';

/** Checks of assessment input that need the reference data or the clock, beyond the schemas. */

export interface ApplicantInput {
  jurisdiction: string;
  jurisdiction_type?: 'county' | 'municipality';
  jurisdiction_county?: string;
}

/**
 * The one resolver of the Florida county or municipality a request names (s. 380.093(3)
 * applicants), by id (`county:12087`) or by name. Unknown places and ambiguous names are 400s
 * naming the field to fix. An ambiguous name asks for `jurisdiction_type`/`jurisdiction_county`
 * where the request has those fields (`disambiguate: 'fields'`, in a body), else for one of the
 * candidates' ids.
 */
export function resolveApplicant(input: ApplicantInput, location: InputLocation = 'body', disambiguate: 'fields' | 'ids' = location === 'body' ? 'fields' : 'ids'): AssessmentJurisdiction {
  if (JURISDICTION_ID_PATTERN.test(input.jurisdiction)) {
    const found = jurisdictionById(input.jurisdiction);
    if (!found) throw invalidField('jurisdiction', location, `No Florida jurisdiction has the id ${input.jurisdiction}.`);
    return applicant(found);
  }
  const lookup = resolveJurisdiction(input.jurisdiction, { type: input.jurisdiction_type, county: input.jurisdiction_county });
  if (lookup.status === 'not_found') {
    throw invalidField('jurisdiction', location, `"${input.jurisdiction}" is not a Florida county or municipality${input.jurisdiction_type ? ` of type ${input.jurisdiction_type}` : ''}.`);
  }
  if (lookup.status === 'ambiguous') {
    const names = lookup.candidates.map((c) => describeJurisdiction(c, jurisdictionId(c))).join('; ');
    if (disambiguate === 'ids') throw invalidField('jurisdiction', location, `"${input.jurisdiction}" matches ${names}: use one of these ids.`);
    const countyAndCity = new Set(lookup.candidates.map((c) => c.type)).size > 1;
    throw countyAndCity
      ? invalidField('jurisdiction_type', location, `"${input.jurisdiction}" matches ${names}: send jurisdiction_type (county or municipality).`)
      : invalidField('jurisdiction_county', location, `"${input.jurisdiction}" matches ${names}: send jurisdiction_county.`);
  }
  return applicant(lookup.jurisdiction);
}

function applicant(jurisdiction: Jurisdiction): AssessmentJurisdiction {
  return { id: jurisdictionId(jurisdiction), type: jurisdiction.type, display_name: jurisdiction.display_name, county_fips: jurisdiction.county.fips };
}

/** An assessment date must fall where a rule set exists: 2021 up to the current year + 5. */
export function requireRuleSetDate(date: string, today: Date, field: string, location: InputLocation = 'body'): string {
  const problem = assessmentDateProblem(date, today);
  if (problem) throw invalidField(field, location, problem);
  return date;
}
