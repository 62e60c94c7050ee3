import { invalidField, type InputLocation } from '../errors';
import { countyByName, describeJurisdiction, JURISDICTION_ID_PATTERN, jurisdictionById, jurisdictionId, resolveJurisdiction, type County, type Jurisdiction, type JurisdictionLookup } from '../jurisdictions';
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
  const countyHint = { name: input.jurisdiction_county, field: 'jurisdiction_county', location };
  if (JURISDICTION_ID_PATTERN.test(input.jurisdiction)) {
    const county = requestedCounty(countyHint);
    const found = jurisdictionById(input.jurisdiction);
    if (!found) throw invalidField('jurisdiction', location, `No Florida jurisdiction has the id ${input.jurisdiction}.`);
    requireInCounty(found, county, countyHint);
    return applicant(found);
  }
  const lookup = lookupInCounty(input.jurisdiction, input.jurisdiction_type, countyHint);
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

/** The county a request names beside its jurisdiction, in the request's `field`. */
export interface CountyHint {
  name: string | undefined;
  field: string;
  location: InputLocation;
}

/**
 * Looks a place up by name among those of the county the request names, if it names one. That
 * county must be a Florida county the place lies in: otherwise a 400 on the hint's field, saying
 * where the place is rather than that it is nowhere.
 */
export function lookupInCounty(text: string, type: 'county' | 'municipality' | undefined, hint: CountyHint): JurisdictionLookup {
  const county = requestedCounty(hint);
  const lookup = resolveJurisdiction(text, { type, county });
  if (county && lookup.status === 'not_found') {
    const anywhere = resolveJurisdiction(text, { type });
    if (anywhere.status !== 'not_found') {
      const places = anywhere.status === 'found' ? [anywhere.jurisdiction] : anywhere.candidates;
      throw invalidField(hint.field, hint.location, `"${text}" is not in ${county.name} County: it names ${places.map((c) => describeJurisdiction(c)).join('; ')}.`);
    }
  }
  if (lookup.status === 'found') requireInCounty(lookup.jurisdiction, county, hint);
  return lookup;
}

function requestedCounty(hint: CountyHint): County | undefined {
  if (hint.name === undefined) return undefined;
  const county = countyByName(hint.name);
  if (!county) throw invalidField(hint.field, hint.location, `"${hint.name}" is not a Florida county.`);
  return county;
}

/** A county lies in itself; a municipality in each county it spans (Longboat Key: Manatee and Sarasota). */
function requireInCounty(jurisdiction: Jurisdiction, county: County | undefined, hint: CountyHint): void {
  if (!county) return;
  const inCounty = jurisdiction.type === 'county' ? jurisdiction.county.fips === county.fips : jurisdiction.municipality.county_fips_all.includes(county.fips);
  if (!inCounty) throw invalidField(hint.field, hint.location, `${describeJurisdiction(jurisdiction)} is not in ${county.name} County.`);
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
