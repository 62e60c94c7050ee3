import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { IsoDate } from './common';
import { DEADLINE_YEARS } from '../domain/grants/deadlines';

export const EligibilityRequestSchema = onFirstUse(() => z.object({
  jurisdiction: z.string().trim().min(2).max(120).describe('Florida county or municipality, e.g. "Liberty County", "Miami-Dade", "City of Cedar Key".'),
  jurisdiction_type: z.enum(['county', 'municipality']).optional().describe('Disambiguates names used by both a county and a city.'),
  county: z.string().trim().min(2).max(60).optional().describe('County of a municipality, when the name exists in several counties. A name that is no Florida county, or a county the jurisdiction is not in, is a 400 on this field.'),
  population: z.number().int().min(0).max(30_000_000).optional().describe('Applicant population (most recent April 1 estimate). Required for municipalities, whose population the API does not hold; for counties it overrides the BEA figure.'),
  per_capita_income: z.number().min(0).max(10_000_000).optional().describe('Applicant per capita annual income in USD. Required for municipalities; for counties it overrides the BEA figure.'),
  project_type: z.enum(['planning', 'implementation']).default('implementation').describe('Planning grants (including vulnerability assessments) are fully funded; implementation projects carry the cost share.'),
}).strict().openapi('EligibilityRequest'));

export const EligibilityReasonSchema = onFirstUse(() => z.object({
  test: z.string().max(80),
  passed: z.boolean().nullable().describe('null when the test could not be applied for lack of data.'),
  detail: z.string().max(1000),
  threshold: z.union([z.number(), z.string().max(200)]).optional(),
  value: z.union([z.number(), z.string().max(200)]).nullable().optional(),
  source: z.string().max(500).optional(),
}));

export const StateIncomeSchema = onFirstUse(() => z.object({
  per_capita_personal_income_usd: z.number(),
  year: z.number().int(),
  source: z.string().max(500),
}).openapi('StateIncomeFigure'));

export const EligibilityResultSchema = onFirstUse(() => z.object({
  eligible: z.boolean(),
  tier: z.enum(['financially_disadvantaged_small_community', 'standard']).nullable(),
  cost_share_percentage: z.number().nullable().describe('Share of project cost the applicant contributes.'),
  state_share_percentage: z.number().nullable(),
  jurisdiction: z.object({
    name: z.string().max(120),
    type: z.enum(['county', 'municipality']),
    county: z.string().max(60),
    county_fips: z.string().max(5),
  }).nullable(),
  state_income: StateIncomeSchema(),
  reasons: z.array(EligibilityReasonSchema()).max(20),
}).openapi('EligibilityResult'));

export const DeadlinesQuery = onFirstUse(() => z.object({
  date: IsoDate()
    .refine((day) => Number(day.slice(0, 4)) >= DEADLINE_YEARS.first, `s. 380.093 set these deadlines from ${DEADLINE_YEARS.first}: give a day in ${DEADLINE_YEARS.first} or later`)
    .refine((day) => Number(day.slice(0, 4)) <= DEADLINE_YEARS.last, `Give a day in ${DEADLINE_YEARS.last} or earlier`)
    .optional()
    .describe(`Compute from this day instead of today (the date in Florida), a day from ${DEADLINE_YEARS.first} to ${DEADLINE_YEARS.last}.`),
}));

export const DeadlineSchema = onFirstUse(() => z.object({
  id: z.string().max(60),
  name: z.string().max(200),
  next_date: z.string().max(10),
  days_remaining: z.number().int().min(0),
  requirements: z.array(z.string().max(500)).max(20),
  statute_ref: z.string().max(100).optional(),
}));

export const DeadlinesSchema = onFirstUse(() => z.object({
  data: z.array(DeadlineSchema()).max(10),
  as_of: z.string().max(10),
}).openapi('Deadlines'));
