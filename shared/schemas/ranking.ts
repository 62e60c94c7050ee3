import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CURRENT_RANKING_RUBRIC, rubricEnumValues } from '../domain/grants/ranking-rubric';
import { usd } from '../domain/grants/usd';

// Enum facts accept exactly the values the current rubric scores.
const scale = (fact: string, description: string) => z.enum(rubricEnumValues(CURRENT_RANKING_RUBRIC, fact)).optional().describe(description);
const Money = onFirstUse(() => z.number().min(0).max(1e12));
const Percent = onFirstUse(() => z.number().min(0).max(100));

export const RankingRequestSchema = onFirstUse(() => z.object({
  project_name: z.string().trim().min(1).max(200).optional(),
  risk_reduction: z.object({
    va_risks_addressed: scale('risk_reduction.va_risks_addressed', 'How far the project addresses the flood and sea level rise risks identified in the vulnerability assessment.'),
    regionally_significant_assets: z.number().int().min(0).max(100_000).optional().describe('Number of regionally significant assets whose risk the project reduces.'),
    vulnerable_critical_asset_share: Percent().optional().describe('Percent of the critical assets in the project area that the vulnerability assessment found vulnerable.'),
    contributes_to_existing_mitigation: z.boolean().optional().describe('Adds new or enhanced structures, or restoration and revegetation, to an existing flood mitigation project that reduces upland damage costs.'),
  }).strict().optional(),
  current_conditions: z.object({
    flooding_erosion_impact: scale('current_conditions.flooding_erosion_impact', 'How much flooding and erosion currently affect the project area.'),
  }).strict().optional(),
  readiness: z.object({
    design_stage: scale('readiness.design_stage', 'Readiness for the construction phase.'),
    permits: scale('readiness.permits', 'Status of the required permits.'),
    easements: scale('readiness.easements', 'Status of any needed easement acquisition.'),
    local_funding: scale('readiness.local_funding', 'Availability of local funding sources.'),
  }).strict().optional(),
  environment: z.object({
    nature_based_options: z.boolean().optional().describe('Includes habitat enhancement or nature-based options for resilience.'),
    critical_habitat: z.boolean().optional().describe('Lies in state or federal critical habitat of threatened or endangered species.'),
  }).strict().optional(),
  costs: z.object({
    total_cost: Money().positive().describe('Total project cost in USD.'),
    requested_amount: Money().describe('State funding requested in USD; at most the total cost.'),
    avoided_losses: Money().optional().describe('Estimated losses avoided over the project life in USD; with the total cost it gives the benefit-cost ratio.'),
    benefit_cost_ratio: z.number().min(0).max(1000).optional().describe('Benefit-cost ratio, when already computed (wins over `avoided_losses`).'),
  }).strict(),
  matching_funds: z.object({
    share_percentage: Percent().optional().describe('Local, state and federal matching funds as a percent of the total cost; with the requested amount at most the total cost.'),
    status: scale('matching_funds.status', 'Status of the matching funding award.'),
  }).strict().optional(),
  previous_state_commitment: scale('previous_state_commitment', 'Previous state involvement: funded earlier phases or partial appropriations for this project.'),
  exceeds_building_code: z.boolean().optional().describe('Exceeds the flood-resistant construction requirements of the Florida Building Code and floodplain management regulations.'),
  innovation: z.object({
    innovative_technology: z.boolean().optional().describe('Uses innovative technologies designed to reduce project costs.'),
    regional_collaboration: z.boolean().optional().describe('Is carried out in regional collaboration.'),
  }).strict().optional(),
  financially_disadvantaged_community: z.boolean().optional().describe('Assists a financially disadvantaged community.'),
}).strict().superRefine((project, ctx) => {
  // Contradictory costs are an error, not a low score.
  const { total_cost: total, requested_amount: requested } = project.costs;
  if (requested > total) {
    ctx.addIssue({ code: 'custom', path: ['costs', 'requested_amount'], message: `The requested amount (${usd(requested)}) exceeds the total cost (${usd(total)}).` });
    return;
  }
  // The state's funding and the match together pay for the project, never more (a cent of rounding allowed).
  const share = project.matching_funds?.share_percentage;
  const match = share === undefined ? 0 : (total * share) / 100;
  if (requested + match > total + 0.01) {
    ctx.addIssue({
      code: 'custom',
      path: ['matching_funds', 'share_percentage'],
      message: `Matching funds of ${share} % of the total cost (${usd(match)}) and the requested amount (${usd(requested)}) add up to ${usd(match + requested)}, more than the total cost (${usd(total)}): with this request the match is at most ${usd(total - requested)}, ${Math.floor(((total - requested) / total) * 1000) / 10} % of the total cost.`,
    });
  }
}).openapi('RankingRequest', { description: 'A proposed project. Only `costs.total_cost` and `costs.requested_amount` are required; every fact left out scores zero and is listed in `missing_facts`.' }));

const CriterionScoreSchema = onFirstUse(() => z.object({
  id: z.string().max(80),
  name: z.string().max(300),
  fact: z.string().max(100).describe('Path of the body field the criterion reads.'),
  value: z.union([z.string().max(100), z.number(), z.boolean()]).nullable(),
  points: z.number().min(0),
  max_points: z.number().min(0),
  missing: z.boolean(),
}));

export const RankingResultSchema = onFirstUse(() => z.object({
  project_name: z.string().max(200).optional(),
  tier1_score: z.number().min(0).max(100).describe('Tier 1 (risk reduction) share of the total, 0 to its weight.'),
  tier2_score: z.number().min(0).max(100),
  tier3_score: z.number().min(0).max(100),
  tier4_score: z.number().min(0).max(100),
  total_rank: z.number().min(0).max(100).describe('Sum of the four tier scores (0–100).'),
  tiers: z.array(z.object({
    tier: z.number().int().min(1).max(4),
    name: z.string().max(200),
    weight: z.number(),
    points: z.number().min(0),
    max_points: z.number().min(0),
    score: z.number().min(0).describe('points / max_points × weight'),
    criteria: z.array(CriterionScoreSchema()).max(20),
  })).length(4),
  missing_facts: z.array(z.string().max(100)).max(40).describe('Facts the body left out; each scored zero.'),
  benefit_cost_ratio: z.object({
    value: z.number(),
    basis: z.enum(['stated', 'avoided_losses_over_total_cost']),
  }).nullable(),
  rubric: z.object({
    id: z.string().max(80),
    version: z.string().max(40),
    verification: z.string().max(40).describe('`reconstructed`: the point scales are this API\'s reading of the statute, not DEP\'s score sheet.'),
    source: z.string().max(1000),
    weights: z.object({ tier1: z.number(), tier2: z.number(), tier3: z.number(), tier4: z.number() }),
  }),
}).openapi('RankingResult'));
