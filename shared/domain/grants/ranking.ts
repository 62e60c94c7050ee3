import type { RankingRubric, RubricCriterion } from './ranking-rubric';

/** A project as the ranking route receives it (the request schema fixes the shapes). */
export interface RankingProject {
  project_name?: string;
  risk_reduction?: Record<string, unknown>;
  current_conditions?: Record<string, unknown>;
  readiness?: Record<string, unknown>;
  environment?: Record<string, unknown>;
  costs: { total_cost: number; requested_amount: number; avoided_losses?: number; benefit_cost_ratio?: number };
  matching_funds?: Record<string, unknown>;
  previous_state_commitment?: string;
  exceeds_building_code?: boolean;
  innovation?: Record<string, unknown>;
  financially_disadvantaged_community?: boolean;
}

export interface CriterionScore {
  id: string;
  name: string;
  fact: string;
  value: string | number | boolean | null;
  points: number;
  max_points: number;
  missing: boolean;
}

export interface TierScore {
  tier: number;
  name: string;
  weight: number;
  points: number;
  max_points: number;
  score: number;
  criteria: CriterionScore[];
}

export interface RankingResult {
  project_name?: string;
  tier1_score: number;
  tier2_score: number;
  tier3_score: number;
  tier4_score: number;
  total_rank: number;
  tiers: TierScore[];
  missing_facts: string[];
  benefit_cost_ratio: { value: number; basis: 'stated' | 'avoided_losses_over_total_cost' } | null;
  rubric: {
    id: string;
    version: string;
    verification: string;
    source: string;
    weights: { tier1: number; tier2: number; tier3: number; tier4: number };
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The stated ratio wins; otherwise avoided losses over total cost, when both are known. */
export function benefitCostRatio(costs: RankingProject['costs']): RankingResult['benefit_cost_ratio'] {
  if (costs.benefit_cost_ratio !== undefined) return { value: costs.benefit_cost_ratio, basis: 'stated' };
  if (costs.avoided_losses !== undefined && costs.total_cost > 0) {
    return { value: costs.avoided_losses / costs.total_cost, basis: 'avoided_losses_over_total_cost' };
  }
  return null;
}

function factValue(project: RankingProject, fact: string): unknown {
  let value: unknown = project;
  for (const key of fact.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function criterionPoints(criterion: RubricCriterion, value: unknown): number {
  const { scoring } = criterion;
  if (scoring.type === 'boolean') return value === true ? scoring.points : 0;
  if (scoring.type === 'enum') return typeof value === 'string' ? scoring.points[value] ?? 0 : 0;
  if (typeof value !== 'number') return 0;
  let points = 0;
  for (const band of scoring.bands) if (value >= band.min) points = band.points;
  return points;
}

/**
 * Scores a project against the rubric: within a tier, points earned over points available,
 * scaled to the tier's weight; the total rank (0–100) is the sum of the four tier scores.
 * A fact the body leaves out earns zero and is listed in `missing_facts`.
 */
export function rankProject(project: RankingProject, rubric: RankingRubric): RankingResult {
  const ratio = benefitCostRatio(project.costs);
  const facts = (fact: string) => (fact === 'costs.benefit_cost_ratio' ? ratio?.value : factValue(project, fact));
  const missing: string[] = [];

  const tiers: TierScore[] = rubric.tiers.map((tier) => {
    const criteria = tier.criteria.map((criterion): CriterionScore => {
      const value = facts(criterion.fact);
      const absent = value === undefined;
      if (absent) missing.push(criterion.fact);
      return {
        id: criterion.id,
        name: criterion.name,
        fact: criterion.fact,
        value: absent ? null : typeof value === 'number' ? round2(value) : (value as string | boolean),
        points: absent ? 0 : criterionPoints(criterion, value),
        max_points: criterion.max_points,
        missing: absent,
      };
    });
    const points = criteria.reduce((sum, c) => sum + c.points, 0);
    const maxPoints = criteria.reduce((sum, c) => sum + c.max_points, 0);
    return { tier: tier.tier, name: tier.name, weight: tier.weight, points, max_points: maxPoints, score: (points / maxPoints) * tier.weight, criteria };
  });

  const total = tiers.reduce((sum, tier) => sum + tier.score, 0);
  const weight = (n: number) => tiers[n - 1]!.weight;
  return {
    ...(project.project_name !== undefined ? { project_name: project.project_name } : {}),
    tier1_score: round2(tiers[0]!.score),
    tier2_score: round2(tiers[1]!.score),
    tier3_score: round2(tiers[2]!.score),
    tier4_score: round2(tiers[3]!.score),
    total_rank: round2(total),
    tiers: tiers.map((tier) => ({ ...tier, score: round2(tier.score) })),
    missing_facts: missing,
    benefit_cost_ratio: ratio && { value: round2(ratio.value), basis: ratio.basis },
    rubric: {
      id: rubric.id,
      version: rubric.version,
      verification: rubric.verification,
      source: rubric.source,
      weights: { tier1: weight(1), tier2: weight(2), tier3: weight(3), tier4: weight(4) },
    },
  };
}
