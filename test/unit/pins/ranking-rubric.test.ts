import { rankProject } from '../../../shared/domain/grants/ranking';
import { CURRENT_RANKING_RUBRIC } from '../../../shared/domain/grants/ranking-rubric';
import { RankingRequestSchema } from '../../../shared/schemas/ranking';

/**
 * Ranking (DOMAIN §5, s. 380.093(5)): four tiers weighted 40 / 30 / 20 / 10 % of the total. Inside
 * each tier the v1 rubric (reconstructed; shared/data/SOURCES.md) gives 100 points, split over its
 * criteria as below, with the points at the top of each scale and at the band edges. A changed
 * scale is a new rubric version, so any change here must come with one.
 */
const WEIGHTS = { 1: 40, 2: 30, 3: 20, 4: 10 } as const;

type Tier = keyof typeof WEIGHTS;
/** [tier, fact path, maximum points, [value, points] probes: the top of the scale first]. */
const CRITERIA: [Tier, string, number, [unknown, number][]][] = [
  [1, 'risk_reduction.va_risks_addressed', 30, [['full', 30], ['substantial', 20], ['partial', 10], ['none', 0]]],
  [1, 'risk_reduction.regionally_significant_assets', 25, [[3, 25], [2, 15], [1, 15], [0, 0]]],
  [1, 'risk_reduction.vulnerable_critical_asset_share', 25, [[75, 25], [74.9, 20], [50, 20], [49.9, 15], [25, 15], [24.9, 8], [10, 8], [9.9, 0]]],
  [1, 'risk_reduction.contributes_to_existing_mitigation', 20, [[true, 20], [false, 0]]],
  [2, 'current_conditions.flooding_erosion_impact', 20, [['severe', 20], ['moderate', 14], ['minor', 7], ['none', 0]]],
  [2, 'readiness.design_stage', 15, [['construction_ready', 15], ['final', 10], ['preliminary', 5], ['conceptual', 0]]],
  [2, 'readiness.permits', 10, [['issued', 10], ['not_required', 10], ['applied', 5], ['not_started', 0]]],
  [2, 'readiness.easements', 10, [['acquired', 10], ['not_required', 10], ['in_progress', 5], ['not_started', 0]]],
  [2, 'readiness.local_funding', 10, [['committed', 10], ['identified', 5], ['none', 0]]],
  [2, 'environment.nature_based_options', 10, [[true, 10], [false, 0]]],
  [2, 'environment.critical_habitat', 5, [[true, 5], [false, 0]]],
  [2, 'costs.benefit_cost_ratio', 20, [[2, 20], [1.99, 15], [1.5, 15], [1.49, 10], [1, 10], [0.99, 0]]],
  [3, 'matching_funds.share_percentage', 30, [[50, 30], [49.9, 20], [25, 20], [24.9, 10], [10, 10], [9.9, 0]]],
  [3, 'matching_funds.status', 10, [['awarded', 10], ['applied', 5], ['identified', 2], ['none', 0]]],
  [3, 'previous_state_commitment', 30, [['partially_appropriated', 30], ['previous_phase_funded', 20], ['none', 0]]],
  [3, 'exceeds_building_code', 30, [[true, 30], [false, 0]]],
  [4, 'innovation.innovative_technology', 25, [[true, 25], [false, 0]]],
  [4, 'innovation.regional_collaboration', 25, [[true, 25], [false, 0]]],
  [4, 'financially_disadvantaged_community', 50, [[true, 50], [false, 0]]],
];

const COSTS = { total_cost: 1_000_000, requested_amount: 500_000 };

function projectWith(fact: string, value: unknown): Record<string, unknown> {
  const project: Record<string, unknown> = { costs: { ...COSTS } };
  const keys = fact.split('.');
  let node = project;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]!] = value;
  return project;
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const both = typeof value === 'object' && value !== null && typeof merged[key] === 'object';
    merged[key] = both ? deepMerge(merged[key] as Record<string, unknown>, value as Record<string, unknown>) : value;
  }
  return merged;
}

const rank = (body: Record<string, unknown>) => rankProject(RankingRequestSchema().parse(body), CURRENT_RANKING_RUBRIC);
const tierScores = (result: ReturnType<typeof rank>) => [result.tier1_score, result.tier2_score, result.tier3_score, result.tier4_score];
const round2 = (value: number) => Math.round(value * 100) / 100;

describe('pins: ranking weights', () => {
  it('weights the tiers 40 / 30 / 20 / 10 and says so', () => {
    const empty = rank({ costs: COSTS });
    expect(empty.rubric.weights).toEqual({ tier1: 40, tier2: 30, tier3: 20, tier4: 10 });
    expect(empty.tiers.map((t) => t.weight)).toEqual([40, 30, 20, 10]);
  });

  it('scores a project with nothing to show 0 in every tier', () => {
    const empty = rank({ costs: COSTS });
    expect([...tierScores(empty), empty.total_rank]).toEqual([0, 0, 0, 0, 0]);
  });

  it('scores a project at the top of every scale 40 + 30 + 20 + 10 = 100', () => {
    const best = CRITERIA.reduce((project, [, fact, , probes]) => deepMerge(project, projectWith(fact, probes[0]![0])), { costs: { ...COSTS } } as Record<string, unknown>);
    const result = rank(best);
    expect(tierScores(result)).toEqual([40, 30, 20, 10]);
    expect(result.total_rank).toBe(100);
    expect(result.missing_facts).toEqual([]);
  });

  it('gives each tier 100 points in all', () => {
    const result = rank({ costs: COSTS });
    for (const tier of [1, 2, 3, 4] as const) {
      const maxima = CRITERIA.filter(([t]) => t === tier).reduce((sum, [, , max]) => sum + max, 0);
      expect([tier, maxima, result.tiers[tier - 1]!.max_points]).toEqual([tier, 100, 100]);
    }
    expect(result.tiers.flatMap((t) => t.criteria.map((c) => c.fact)).sort()).toEqual(CRITERIA.map(([, fact]) => fact).sort());
  });
});

describe('pins: per-criterion maxima and scale edges', () => {
  const probes = CRITERIA.flatMap(([tier, fact, max, values]) => values.map(([value, points]) => [fact, String(value), tier, max, value, points] as const));
  it.each(probes)('%s = %s', (fact, _label, tier, max, value, points) => {
    const result = rank(projectWith(fact, value));
    const criterion = result.tiers[tier - 1]!.criteria.find((c) => c.fact === fact)!;
    expect([criterion.points, criterion.max_points]).toEqual([points, max]);
    expect(tierScores(result)[tier - 1]).toBe(round2((points / 100) * WEIGHTS[tier]));
    expect(result.total_rank).toBe(round2((points / 100) * WEIGHTS[tier]));
  });

  it('derives the benefit-cost ratio from avoided losses over total cost when none is stated (2.0 → 20 points)', () => {
    const result = rank({ costs: { ...COSTS, avoided_losses: 2_000_000 } });
    expect(result.benefit_cost_ratio).toEqual({ value: 2, basis: 'avoided_losses_over_total_cost' });
    expect(result.tier2_score).toBe(round2((20 / 100) * 30));
  });
});
