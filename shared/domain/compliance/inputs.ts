import { invalidField, type InputLocation } from '../errors';
import { countyByName, describeJurisdiction, JURISDICTION_ID_PATTERN, jurisdictionById, jurisdictionId, resolveJurisdiction, type County, type Jurisdiction } from '../jurisdictions';
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
 * candidates' ids. A `jurisdiction_county` must be a Florida county that the jurisdiction lies in.
 */
export function resolveApplicant(input: ApplicantInput, location: InputLocation = 'body', disambiguate: 'fields' | 'ids' = location === 'body' ? 'fields' : 'ids'): AssessmentJurisdiction {
  const inCounty = input.jurisdiction_county === undefined ? undefined : countyByName(input.jurisdiction_county);
  if (input.jurisdiction_county !== undefined && !inCounty) {
    throw invalidField('jurisdiction_county', location, `"${input.jurisdiction_county}" is not a Florida county.`);
  }
  const jurisdiction = JURISDICTION_ID_PATTERN.test(input.jurisdiction) ? byId(input.jurisdiction, location) : byName(input, inCounty, location, disambiguate);
  if (inCounty && !liesIn(jurisdiction, inCounty)) {
    throw invalidField('jurisdiction_county', location, `${describeJurisdiction(jurisdiction)} is not in ${inCounty.name} County.`);
  }
  return applicant(jurisdiction);
}

function byId(id: string, location: InputLocation): Jurisdiction {
  const found = jurisdictionById(id);
  if (!found) throw invalidField('jurisdiction', location, `No Florida jurisdiction has the id ${id}.`);
  return found;
}

function byName(input: ApplicantInput, inCounty: County | undefined, location: InputLocation, disambiguate: 'fields' | 'ids'): Jurisdiction {
  let lookup = resolveJurisdiction(input.jurisdiction, { type: input.jurisdiction_type, county: inCounty?.name });
  if (lookup.status === 'not_found' && inCounty) {
    // Say where the name is instead of that it is nowhere.
    lookup = resolveJurisdiction(input.jurisdiction, { type: input.jurisdiction_type });
    if (lookup.status !== 'not_found') {
      const places = lookup.status === 'found' ? [lookup.jurisdiction] : lookup.candidates;
      throw invalidField('jurisdiction_county', location, `"${input.jurisdiction}" is not in ${inCounty.name} County: it names ${places.map((c) => describeJurisdiction(c)).join('; ')}.`);
    }
  }
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
  return lookup.jurisdiction;
}

/** A county lies in itself; a municipality in each county it spans (Longboat Key: Manatee and Sarasota). */
function liesIn(jurisdiction: Jurisdiction, county: County): boolean {
  return jurisdiction.type === 'county' ? jurisdiction.county.fips === county.fips : jurisdiction.municipality.county_fips_all.includes(county.fips);
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
