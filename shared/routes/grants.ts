import { DeadlinesSchema, EligibilityRequestSchema, EligibilityResultSchema, DeadlinesQuery } from '../schemas/grants';
import { RankingRequestSchema, RankingResultSchema } from '../schemas/ranking';
import { KEYED_ERRORS, ok } from './responses';
import { defineRoute } from './types';

export const checkGrantEligibilityRoute = defineRoute({
  id: 'checkGrantEligibility',
  method: 'POST',
  path: '/grants/eligibility',
  group: 'grants',
  auth: 'api_key',
  minTier: 'free',
  contractRow: 'E',
  tags: ['Grants'],
  summary: 'Resilient Florida grant eligibility and cost share',
  description: 'Applies s. 380.093 eligibility: a Florida county or municipality, and the financially disadvantaged small community test (population threshold by jurisdiction type, per capita income below the state figure). An ineligible or unknown jurisdiction is `eligible: false` with the reasons, not an error.',
  request: { body: EligibilityRequestSchema, maxBodyBytes: 16 * 1024 },
  responses: { 200: ok('The eligibility decision with every test applied.', EligibilityResultSchema), ...KEYED_ERRORS },
});

export const rankGrantProjectRoute = defineRoute({
  id: 'rankGrantProject',
  method: 'POST',
  path: '/grants/ranking',
  group: 'grants',
  auth: 'api_key',
  minTier: 'pro',
  contractRow: '16',
  tags: ['Grants'],
  summary: '4-tier ranking score of a proposed project',
  description: 'Scores a project against the four tiers of s. 380.093 (weights 40/30/20/10) with a versioned, data-driven rubric whose id, version and weights are echoed. Facts left out score zero and are listed in `missing_facts`; contradictory costs (requested amount above total cost, a match that with the request exceeds the total cost, negative amounts) are 400 `invalid_request` naming the field.',
  request: { body: RankingRequestSchema, maxBodyBytes: 64 * 1024 },
  responses: { 200: ok('Tier scores, total rank and the points of every criterion.', RankingResultSchema), ...KEYED_ERRORS },
});

export const listGrantDeadlinesRoute = defineRoute({
  id: 'listGrantDeadlines',
  method: 'GET',
  path: '/grants/deadlines',
  group: 'grants',
  auth: 'api_key',
  minTier: 'free',
  contractRow: '17',
  tags: ['Grants'],
  summary: 'Program deadlines: next occurrence and days remaining',
  description: 'The two fixed dates of the Resilient Florida cycle: project proposals to DEP by September 1 and the Statewide Flooding and Sea Level Rise Resilience Plan by December 1, each with its next occurrence on or after today (the Florida date; `date` asks from another day), the days remaining (0 on the day itself), what it requires and its statute reference, soonest first.',
  request: { query: DeadlinesQuery },
  responses: { 200: ok('The September 1 and December 1 deadlines.', DeadlinesSchema), ...KEYED_ERRORS },
});

export const grantRoutes = [checkGrantEligibilityRoute, rankGrantProjectRoute, listGrantDeadlinesRoute];
