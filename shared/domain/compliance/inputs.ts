import { invalidField, type InputLocation } from '../errors';
import { jurisdictionId, resolveJurisdiction } from '../jurisdictions';
import type { AssessmentJurisdiction } from '../assessments/model';
import { assessmentDateProblem } from './rule-sets';

/** Checks of assessment input that need the reference data or the clock, beyond the schemas. */

export interface ApplicantInput {
  jurisdiction: string;
  jurisdiction_type?: 'county' | 'municipality';
  jurisdiction_county?: string;
}

/**
 * The Florida county or municipality an assessment is for (s. 380.093(3) applicants). Unknown
 * places and ambiguous names are 400s naming the field to fix; in a query, where there is no
 * `jurisdiction_type`, an ambiguous name lists the candidates' ids instead.
 */
export function resolveApplicant(input: ApplicantInput, location: InputLocation = 'body'): AssessmentJurisdiction {
  const lookup = resolveJurisdiction(input.jurisdiction, { type: input.jurisdiction_type, county: input.jurisdiction_county });
  if (lookup.status === 'not_found') {
    throw invalidField('jurisdiction', location, `"${input.jurisdiction}" is not a Florida county or municipality${input.jurisdiction_type ? ` of type ${input.jurisdiction_type}` : ''}.`);
  }
  if (lookup.status === 'ambiguous') {
    const names = lookup.candidates.map((c) => `${c.display_name} (${c.county.name} County, ${jurisdictionId(c)})`).join('; ');
    if (location !== 'body') throw invalidField('jurisdiction', location, `"${input.jurisdiction}" matches ${names}: filter by one of these ids.`);
    const countyAndCity = new Set(lookup.candidates.map((c) => c.type)).size > 1;
    throw countyAndCity
      ? invalidField('jurisdiction_type', location, `"${input.jurisdiction}" matches ${names}: send jurisdiction_type (county or municipality).`)
      : invalidField('jurisdiction_county', location, `"${input.jurisdiction}" matches ${names}: send jurisdiction_county.`);
  }
  const { jurisdiction } = lookup;
  return { id: jurisdictionId(jurisdiction), type: jurisdiction.type, display_name: jurisdiction.display_name, county_fips: jurisdiction.county.fips };
}

/** An assessment date must fall where a rule set exists: 2021 up to the current year + 5. */
export function requireRuleSetDate(date: string, today: Date, field: string, location: InputLocation = 'body'): string {
  const problem = assessmentDateProblem(date, today);
  if (problem) throw invalidField(field, location, problem);
  return date;
}
