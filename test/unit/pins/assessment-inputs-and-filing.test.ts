import { depConfirmationOf, depConfirmationProblem, howToFile } from '../../../shared/domain/assessments/dep-filing';
import { summaryOf, type Assessment } from '../../../shared/domain/assessments/model';
import { versionOfEtag } from '../../../shared/http/if-match';
import { requireRuleSetDate, resolveApplicant } from '../../../shared/domain/compliance/inputs';
import { checklistForQuery } from '../../../shared/application/compliance/use-cases';
import { hashApiKey, looksLikeApiKey, newApiKey } from '../../../shared/domain/api-keys';
import { asHttpError } from '../../../shared/http/domain-problems';
import { storedAssessment } from '../../helpers/assessment-fixtures';

/** Applicant resolution, rule-set dates, checklist queries, DEP filing records and API keys. */
const TODAY = new Date('2026-11-23T12:00:00Z');

function problemOf(fn: () => unknown): { code: string; field: string; in: string; message: string } {
  try {
    fn();
  } catch (error) {
    const problem = asHttpError(error);
    expect(problem).toBeDefined();
    const { code, extra } = problem!;
    return { code, ...(extra.errors![0] as { field: string; in: string; message: string }) };
  }
  throw new Error('expected a refusal');
}

describe('applicants', () => {
  it('resolves a county and a municipality to their ids', () => {
    expect(resolveApplicant({ jurisdiction: 'Monroe County' })).toEqual({ id: 'county:12087', type: 'county', display_name: 'Monroe County', county_fips: '12087' });
    expect(resolveApplicant({ jurisdiction: 'Okeechobee', jurisdiction_type: 'municipality' })).toMatchObject({ type: 'municipality', display_name: 'City of Okeechobee', county_fips: '12093' });
  });

  it.each([
    [{ jurisdiction: 'Gotham' }, 'body', 'jurisdiction', '"Gotham" is not a Florida county or municipality.'],
    [{ jurisdiction: 'Key West', jurisdiction_type: 'county' as const }, 'body', 'jurisdiction', '"Key West" is not a Florida county or municipality of type county.'],
  ])('refuses an unknown place %p', (input, location, field, message) => {
    expect(problemOf(() => resolveApplicant(input, location as 'body'))).toEqual({ code: 'invalid_request', field, in: location, message });
  });

  it('asks for jurisdiction_type when a county and a city share the name', () => {
    const problem = problemOf(() => resolveApplicant({ jurisdiction: 'Okeechobee' }));
    expect(problem).toMatchObject({ field: 'jurisdiction_type', in: 'body' });
    expect(problem.message).toBe('"Okeechobee" matches Okeechobee County (county:12093); City of Okeechobee (Okeechobee County, municipality:120178): send jurisdiction_type (county or municipality).');
  });

  it('lists the candidates\' ids when the ambiguous name comes in a query', () => {
    const problem = problemOf(() => resolveApplicant({ jurisdiction: 'Okeechobee' }, 'query'));
    expect(problem).toMatchObject({ field: 'jurisdiction', in: 'query' });
    expect(problem.message).toMatch(/use one of these ids\.$/);
  });

  it('takes an id as well as a name, and names an unknown id', () => {
    expect(resolveApplicant({ jurisdiction: 'county:12087' })).toEqual(resolveApplicant({ jurisdiction: 'Monroe County' }));
    expect(resolveApplicant({ jurisdiction: 'municipality:120168' }, 'query')).toEqual(resolveApplicant({ jurisdiction: 'City of Key West' }));
    expect(problemOf(() => resolveApplicant({ jurisdiction: 'county:99999' }, 'query'))).toEqual({ code: 'invalid_request', field: 'jurisdiction', in: 'query', message: 'No Florida jurisdiction has the id county:99999.' });
  });

  it('takes a jurisdiction_county the place lies in, each county of a city that spans two', () => {
    expect(resolveApplicant({ jurisdiction: 'Key West', jurisdiction_county: 'Monroe County' })).toEqual(resolveApplicant({ jurisdiction: 'City of Key West' }));
    const longboatKey = resolveApplicant({ jurisdiction: 'Longboat Key' });
    expect(longboatKey.display_name).toBe('Town of Longboat Key');
    expect(resolveApplicant({ jurisdiction: 'Longboat Key', jurisdiction_county: 'Manatee' })).toEqual(longboatKey);
    expect(resolveApplicant({ jurisdiction: 'Longboat Key', jurisdiction_county: 'Sarasota County' })).toEqual(longboatKey);
    expect(resolveApplicant({ jurisdiction: 'county:12087', jurisdiction_county: 'Monroe' })).toEqual(resolveApplicant({ jurisdiction: 'Monroe County' }));
  });

  it.each([
    [{ jurisdiction: 'Key West', jurisdiction_county: 'Gotham County' }, 'body', '"Gotham County" is not a Florida county.'],
    [{ jurisdiction: 'Key West', jurisdiction_county: 'Leon' }, 'body', '"Key West" is not in Leon County: it names City of Key West (Monroe County).'],
    [{ jurisdiction: 'Okeechobee', jurisdiction_type: 'municipality' as const, jurisdiction_county: 'Leon' }, 'body', '"Okeechobee" is not in Leon County: it names City of Okeechobee (Okeechobee County).'],
    [{ jurisdiction: 'municipality:120168', jurisdiction_county: 'Leon' }, 'query', 'City of Key West (Monroe County) is not in Leon County.'],
    [{ jurisdiction: 'Monroe County', jurisdiction_county: 'Leon' }, 'body', 'Monroe County is not in Leon County.'],
  ])('refuses a jurisdiction_county that is no county, or not the place\'s %p', (input, location, message) => {
    expect(problemOf(() => resolveApplicant(input, location as 'body'))).toEqual({ code: 'invalid_request', field: 'jurisdiction_county', in: location, message });
  });

  it('asks for an id in a body without the type and county fields (asset imports)', () => {
    const problem = problemOf(() => resolveApplicant({ jurisdiction: 'Okeechobee' }, 'body', 'ids'));
    expect(problem).toMatchObject({ field: 'jurisdiction', in: 'body' });
    expect(problem.message).toMatch(/county:12093.*use one of these ids\.$/);
  });
});

describe('rule-set dates and checklist queries', () => {
  it.each([
    ['2021-01-01', true], ['2020-12-31', false], ['2031-12-31', true], ['2032-01-01', false],
  ])('an assessment dated %s has a rule set: %s', (date, ok) => {
    if (ok) expect(requireRuleSetDate(date, TODAY, 'timeline.start_date')).toBe(date);
    else expect(problemOf(() => requireRuleSetDate(date, TODAY, 'timeline.start_date', 'query'))).toMatchObject({ field: 'timeline.start_date', in: 'query' });
  });

  it.each([
    [{ assessment_year: 2023 }, '2021'],
    [{ assessment_year: 2024 }, '2024'],
    [{ assessment_date: '2024-06-30' }, '2021'],
    [{ assessment_date: '2024-07-01' }, '2024'],
    [{ assessment_year: 2024, assessment_date: '2024-06-30' }, '2021'],
    [{}, '2024'],
  ])('picks the rule set for %p', (query, ruleSet) => {
    expect(checklistForQuery(query, TODAY).rule_set).toBe(ruleSet);
  });

  it('refuses a date outside the year it is sent with, and names the field that is out of range', () => {
    expect(problemOf(() => checklistForQuery({ assessment_year: 2024, assessment_date: '2025-01-01' }, TODAY))).toMatchObject({ field: 'assessment_date', in: 'query' });
    expect(problemOf(() => checklistForQuery({ assessment_year: 2019 }, TODAY))).toMatchObject({ field: 'assessment_year', in: 'query' });
    expect(problemOf(() => checklistForQuery({ assessment_date: '2019-05-05' }, TODAY))).toMatchObject({ field: 'assessment_date', in: 'query' });
  });
});

describe('DEP filing records', () => {
  const submitted = (dep_filing?: { confirmation_number: string; received_on: string; recorded_at: string }): Assessment => storedAssessment({
    status: 'submitted',
    submitted_at: '2026-09-01T15:00:00.000Z',
    submission: { submission_id: 'sub_1', receipt: 'VA-12087-2026-ABCDEF12', dep_filing, manifest_key: 'k', manifest_sha256: 'h', final_report_url: 'https://x/r', gis_data_url: 'https://x/g' },
  });
  const input = { confirmation_number: 'RF-123', received_on: '2026-09-03' };

  it('is not transmitted until the county records DEP\'s number', () => {
    expect(depConfirmationOf('va_1', undefined)).toMatchObject({ status: 'not_transmitted', confirmation_number: null, received_on: null, recorded_at: null });
    expect(depConfirmationOf('va_1', { ...input, recorded_at: '2026-09-04T00:00:00Z' })).toMatchObject({ status: 'recorded', ...input, recorded_at: '2026-09-04T00:00:00Z' });
    expect(howToFile('va_1').join(' ')).toContain('/assessments/va_1/dep-confirmation');
  });

  it.each([
    ['a draft', storedAssessment(), input, 'status'],
    ['a submitted one with another number recorded', submitted({ confirmation_number: 'RF-999', received_on: '2026-09-03', recorded_at: 'x' }), input, 'confirmation_number'],
    ['a submitted one with another date recorded', submitted({ confirmation_number: 'RF-123', received_on: '2026-09-04', recorded_at: 'x' }), input, 'confirmation_number'],
    ['a receipt before the submission', submitted(), { ...input, received_on: '2026-08-31' }, 'received_on'],
    ['a receipt dated tomorrow in Florida', submitted(), { ...input, received_on: '2026-11-24' }, 'received_on'],
  ])('refuses %s', (_label, assessment, given, field) => {
    expect(depConfirmationProblem(assessment, given, TODAY)).toMatchObject({ field });
  });

  it.each([
    ['the same record again', submitted({ ...input, recorded_at: 'x' }), input],
    ['a receipt on the day of submission', submitted(), { ...input, received_on: '2026-09-01' }],
  ])('accepts %s', (_label, assessment, given) => {
    expect(depConfirmationProblem(assessment, given, TODAY)).toBeUndefined();
  });

  it('dates the receipt on the Florida calendar, not the UTC one', () => {
    const receivedToday = { ...input, received_on: '2026-11-24' };
    // 22:30 EST on 23 November is already 24 November in UTC: DEP cannot have received it yet.
    expect(depConfirmationProblem(submitted(), receivedToday, new Date('2026-11-24T03:30:00Z'))).toMatchObject({ field: 'received_on' });
    // 00:30 EST on 24 November.
    expect(depConfirmationProblem(submitted(), receivedToday, new Date('2026-11-24T05:30:00Z'))).toBeUndefined();
  });

  it('shows a submitted assessment\'s receipt and filing status in its summary', () => {
    const summary = summaryOf(submitted());
    expect(summary).toMatchObject({ submission_id: 'sub_1', receipt: 'VA-12087-2026-ABCDEF12', dep_confirmation: { status: 'not_transmitted' }, jurisdiction: 'Monroe County', jurisdiction_id: 'county:12087' });
    expect(summary).not.toHaveProperty('account_id');
    expect(summaryOf(storedAssessment())).not.toHaveProperty('submission_id');
  });

  it.each([['"4"', 4], ['W/"4"', 4], ['*', undefined], ['4', undefined], ['"x"', undefined]])('reads If-Match %s as %p', (header, version) => {
    expect(versionOfEtag(header)).toBe(version);
  });
});

describe('API keys', () => {
  it('issues vac_ keys of 32 url-safe characters, never twice the same, stored as sha256', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newApiKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect([key, looksLikeApiKey(key)]).toEqual([expect.stringMatching(/^vac_[A-Za-z0-9_-]{32}$/), true]);
    expect(hashApiKey('vac_x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
