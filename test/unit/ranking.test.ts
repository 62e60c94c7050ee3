import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { rankProject } from '../../shared/domain/grants/ranking';
import { CURRENT_RANKING_RUBRIC, parseRankingRubric } from '../../shared/domain/grants/ranking-rubric';
import { RankingRequestSchema } from '../../shared/schemas/ranking';
import { createGroupHandler } from '../../shared/http/pipeline';
import { grantRoutes } from '../../shared/routes/grants';
import { rankGrantProject } from '../../functions/grants/handler';

const rubricFile = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/grants/ranking-rubric-v1.json'), 'utf8'));

const rank = (body: unknown) => rankProject(RankingRequestSchema().parse(body), CURRENT_RANKING_RUBRIC);

describe('ranking rubric v1', () => {
  it('is the documented rule set: weights 40/30/20/10, reconstructed, 100 points per tier', () => {
    expect(rubricFile.verification).toBe('reconstructed');
    expect(rubricFile.tiers.map((t: { weight: number }) => t.weight)).toEqual([40, 30, 20, 10]);
    for (const tier of rubricFile.tiers) {
      expect(tier.criteria.reduce((sum: number, c: { max_points: number }) => sum + c.max_points, 0)).toBe(100);
    }
  });

  it('refuses a rubric whose weights do not add up to 100 or whose max_points disagree with its scale', () => {
    const badWeights = structuredClone(rubricFile);
    badWeights.tiers[3].weight = 20;
    expect(() => parseRankingRubric(badWeights)).toThrow(/weights sum to 110/);
    const badMax = structuredClone(rubricFile);
    badMax.tiers[0].criteria[0].max_points = 31;
    expect(() => parseRankingRubric(badMax)).toThrow(/max_points 31/);
  });
});

describe('rankProject: worked examples computed by hand from ranking-rubric-v1.json', () => {
  it('a mixed project', () => {
    const result = rank({
      project_name: 'Riverside Drive living shoreline',
      risk_reduction: { va_risks_addressed: 'substantial', regionally_significant_assets: 2, vulnerable_critical_asset_share: 40, contributes_to_existing_mitigation: false },
      current_conditions: { flooding_erosion_impact: 'moderate' },
      readiness: { design_stage: 'final', permits: 'applied', easements: 'not_required', local_funding: 'committed' },
      environment: { nature_based_options: true },
      costs: { total_cost: 2_000_000, requested_amount: 1_000_000, avoided_losses: 3_400_000 },
      matching_funds: { share_percentage: 30, status: 'applied' },
      exceeds_building_code: true,
      financially_disadvantaged_community: false,
    });
    // Tier 1: substantial 20 + 2 assets (band ≥1) 15 + 40 % (band ≥25) 15 + no contribution 0 = 50 of 100 → 50/100 × 40 = 20.
    expect(result.tier1_score).toBe(20);
    // Tier 2: moderate 14 + final 10 + applied 5 + not_required 10 + committed 10 + nature-based 10
    //         + critical habitat missing 0 + BCR 3.4M/2.0M = 1.7 (band ≥1.5) 15 = 74 → 74/100 × 30 = 22.2.
    expect(result.tier2_score).toBe(22.2);
    expect(result.benefit_cost_ratio).toEqual({ value: 1.7, basis: 'avoided_losses_over_total_cost' });
    // Tier 3: 30 % match (band ≥25) 20 + applied 5 + previous commitment missing 0 + exceeds code 30 = 55 → 55/100 × 20 = 11.
    expect(result.tier3_score).toBe(11);
    // Tier 4: innovation facts missing 0 + 0, not disadvantaged 0 → 0.
    expect(result.tier4_score).toBe(0);
    // Total: 20 + 22.2 + 11 + 0 = 53.2.
    expect(result.total_rank).toBe(53.2);
    expect(result.missing_facts).toEqual([
      'environment.critical_habitat',
      'previous_state_commitment',
      'innovation.innovative_technology',
      'innovation.regional_collaboration',
    ]);
    expect(result.project_name).toBe('Riverside Drive living shoreline');
    const tier1 = result.tiers[0]!;
    expect(tier1).toMatchObject({ tier: 1, weight: 40, points: 50, max_points: 100, score: 20 });
    expect(tier1.criteria.find((c) => c.id === 'regionally_significant_assets')).toMatchObject({ value: 2, points: 15, max_points: 25, missing: false });
    expect(result.rubric).toMatchObject({ id: 'resilient-florida-ranking', version: '1.0.0', verification: 'reconstructed', weights: { tier1: 40, tier2: 30, tier3: 20, tier4: 10 } });
  });

  it('a project with only its costs scores zero and lists all 19 facts as missing', () => {
    const result = rank({ costs: { total_cost: 500_000, requested_amount: 250_000 } });
    expect([result.tier1_score, result.tier2_score, result.tier3_score, result.tier4_score, result.total_rank]).toEqual([0, 0, 0, 0, 0]);
    // 4 + 8 + 4 + 3 criteria in the four tiers.
    expect(result.missing_facts).toHaveLength(19);
    expect(result.missing_facts).toContain('costs.benefit_cost_ratio');
    expect(result.benefit_cost_ratio).toBeNull();
  });

  it('a project with every top answer scores each tier its full weight and 100 in total', () => {
    const result = rank({
      risk_reduction: { va_risks_addressed: 'full', regionally_significant_assets: 3, vulnerable_critical_asset_share: 75, contributes_to_existing_mitigation: true },
      current_conditions: { flooding_erosion_impact: 'severe' },
      readiness: { design_stage: 'construction_ready', permits: 'issued', easements: 'acquired', local_funding: 'committed' },
      environment: { nature_based_options: true, critical_habitat: true },
      costs: { total_cost: 1_000_000, requested_amount: 500_000, benefit_cost_ratio: 2 },
      matching_funds: { share_percentage: 50, status: 'awarded' },
      previous_state_commitment: 'partially_appropriated',
      exceeds_building_code: true,
      innovation: { innovative_technology: true, regional_collaboration: true },
      financially_disadvantaged_community: true,
    });
    // Every criterion at its max_points: 100 points in each tier → score = weight.
    expect([result.tier1_score, result.tier2_score, result.tier3_score, result.tier4_score]).toEqual([40, 30, 20, 10]);
    expect(result.total_rank).toBe(100);
    expect(result.missing_facts).toEqual([]);
  });

  it('band edges and a stated benefit-cost ratio', () => {
    const result = rank({
      risk_reduction: { va_risks_addressed: 'partial', regionally_significant_assets: 1, vulnerable_critical_asset_share: 74.9 },
      costs: { total_cost: 1_000_000, requested_amount: 0, avoided_losses: 500_000, benefit_cost_ratio: 2 },
      innovation: { regional_collaboration: true },
    });
    // Tier 1: partial 10 + 1 asset (band ≥1) 15 + 74.9 % (band ≥50, under 75) 20 + contribution missing 0 = 45 → 45/100 × 40 = 18.
    expect(result.tier1_score).toBe(18);
    // Tier 2: only the BCR; the stated 2 wins over 0.5M/1.0M = 0.5 → band ≥2 → 20 → 20/100 × 30 = 6.
    expect(result.tier2_score).toBe(6);
    expect(result.benefit_cost_ratio).toEqual({ value: 2, basis: 'stated' });
    // Tier 4: regional collaboration 25 → 25/100 × 10 = 2.5.
    expect(result.tier4_score).toBe(2.5);
    // Total: 18 + 6 + 0 + 2.5 = 26.5.
    expect(result.total_rank).toBe(26.5);
  });

  it('a benefit-cost ratio under 1 earns nothing', () => {
    // BCR 900k / 1.0M = 0.9 → band ≥0 → 0 points; not missing.
    const result = rank({ costs: { total_cost: 1_000_000, requested_amount: 500_000, avoided_losses: 900_000 } });
    const criterion = result.tiers[1]!.criteria.find((c) => c.id === 'cost_effectiveness')!;
    expect(criterion).toMatchObject({ value: 0.9, points: 0, missing: false });
    expect(result.missing_facts).not.toContain('costs.benefit_cost_ratio');
  });
});

describe('RankingRequestSchema', () => {
  const fields = (body: unknown) => {
    const parsed = RankingRequestSchema().safeParse(body);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
  };

  it('refuses a requested amount above the total cost, naming the field', () => {
    expect(fields({ costs: { total_cost: 100, requested_amount: 101 } })).toEqual(['costs.requested_amount']);
    expect(fields({ costs: { total_cost: 100, requested_amount: 100 } })).toEqual([]);
    const parsed = RankingRequestSchema().safeParse({ costs: { total_cost: 2_000_000, requested_amount: 2_000_000.5 } });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message)).toEqual(['The requested amount ($2,000,000.50) exceeds the total cost ($2,000,000).']);
  });

  it('refuses a match that with the requested amount pays for more than the project, saying how much match fits', () => {
    const issues = (body: unknown) => {
      const parsed = RankingRequestSchema().safeParse(body);
      return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
    };
    // 1.5 M requested of 2 M leaves 0.5 M (25 %) for the match; 50 % is 1 M.
    expect(issues({ costs: { total_cost: 2_000_000, requested_amount: 1_500_000 }, matching_funds: { share_percentage: 50 } })).toEqual([[
      'matching_funds.share_percentage',
      'Matching funds of 50 % of the total cost ($1,000,000) and the requested amount ($1,500,000) add up to $2,500,000, more than the total cost ($2,000,000): with this request the match is at most $500,000, 25 % of the total cost.',
    ]]);
    // Exactly the rest of the cost is a match, and so is one cent of rounding above it.
    expect(fields({ costs: { total_cost: 2_000_000, requested_amount: 1_500_000 }, matching_funds: { share_percentage: 25 } })).toEqual([]);
    expect(fields({ costs: { total_cost: 3, requested_amount: 2 }, matching_funds: { share_percentage: 33.3334 } })).toEqual([]);
    expect(fields({ costs: { total_cost: 3, requested_amount: 2 }, matching_funds: { share_percentage: 33.7 } })).toEqual(['matching_funds.share_percentage']);
    expect(fields({ costs: { total_cost: 2_000_000, requested_amount: 1_500_000 }, matching_funds: { status: 'awarded' } })).toEqual([]);
    // A requested amount above the total is named alone: the match cannot be judged against it.
    expect(fields({ costs: { total_cost: 100, requested_amount: 101 }, matching_funds: { share_percentage: 10 } })).toEqual(['costs.requested_amount']);
  });

  it('refuses negative costs, a zero total cost, unknown scale values, unknown fields and missing costs', () => {
    expect(fields({ costs: { total_cost: -5, requested_amount: 0 } })).toContain('costs.total_cost');
    expect(fields({ costs: { total_cost: 0, requested_amount: 0 } })).toContain('costs.total_cost');
    expect(fields({ costs: { total_cost: 10, requested_amount: -1 } })).toContain('costs.requested_amount');
    expect(fields({ costs: { total_cost: 10, requested_amount: 1, avoided_losses: -1 } })).toEqual(['costs.avoided_losses']);
    expect(fields({ costs: { total_cost: 10, requested_amount: 1 }, readiness: { design_stage: 'shovel_ready' } })).toEqual(['readiness.design_stage']);
    expect(fields({ costs: { total_cost: 10, requested_amount: 1 }, risk_reduction: { vulnerable_critical_asset_share: 120 } })).toEqual(['risk_reduction.vulnerable_critical_asset_share']);
    const unknown = RankingRequestSchema().safeParse({ costs: { total_cost: 10, requested_amount: 1 }, colour: 'blue' });
    expect(unknown.success ? [] : unknown.error.issues.map((issue) => issue.code === 'unrecognized_keys' && issue.keys)).toEqual([['colour']]);
    expect(fields({})).toEqual(['costs']);
  });
});

describe('POST /grants/ranking through the pipeline', () => {
  // Every route of the group needs an implementation; only ranking is called here.
  const notCalled = async () => ({ status: 500 });
  const handler = createGroupHandler(grantRoutes, { rankGrantProject, checkGrantEligibility: notCalled, listGrantDeadlines: notCalled }, {
    usage: () => ({ consume: async () => ({ used: 1, allowed: true }), used: async () => 1 }),
    clock: () => new Date('2026-05-01T12:00:00Z'),
  });
  const call = (body: unknown) => handler({
    httpMethod: 'POST',
    resource: '/grants/ranking',
    path: '/grants/ranking',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', stage: 'api', authorizer: { accountId: 'acct', tier: 'pro', keyHash: 'h' } },
  } as unknown as APIGatewayProxyEvent, {} as Context);

  it('answers 400 invalid_request naming costs.requested_amount for contradictory costs', async () => {
    const res = await call({ costs: { total_cost: 1000, requested_amount: 5000 } });
    expect(res.statusCode).toBe(400);
    const problem = JSON.parse(res.body);
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'costs.requested_amount', in: 'body' })]);
  });

  it('answers 200 with the scores', async () => {
    const res = await call({ costs: { total_cost: 1000, requested_amount: 500 }, financially_disadvantaged_community: true });
    expect(res.statusCode).toBe(200);
    // Tier 4: disadvantaged 50 of 100 → 50/100 × 10 = 5; nothing else scores.
    expect(JSON.parse(res.body)).toMatchObject({ tier4_score: 5, total_rank: 5 });
  });
});
