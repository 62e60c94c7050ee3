import * as z from 'zod';
import rubricV1 from '../../data/grants/ranking-rubric-v1.json';

/**
 * The ranking rule set is data (shared/data/grants/ranking-rubric-*.json), versioned, so a change
 * of points or weights is a new file rather than a code change; every response names the version.
 * The file is checked at load so a broken rubric fails at cold start, not on a request.
 */
const Scoring = z.discriminatedUnion('type', [
  z.object({ type: z.literal('boolean'), points: z.number().min(0) }),
  z.object({ type: z.literal('enum'), points: z.record(z.string(), z.number().min(0)) }),
  z.object({
    type: z.literal('bands'),
    bands: z.array(z.object({ min: z.number(), points: z.number().min(0) })).min(1)
      .refine((bands) => bands.every((band, i) => i === 0 || band.min > bands[i - 1]!.min), 'bands must ascend by min'),
  }),
]);

const Criterion = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** Dotted path of the fact in the project body. */
  fact: z.string().min(1),
  max_points: z.number().positive(),
  scoring: Scoring,
});

const RubricSchema = z.object({
  id: z.string().min(1),
  version: z.string().min(1),
  verification: z.enum(['verified', 'reconstructed']),
  source: z.string().min(1),
  tiers: z.array(z.object({
    tier: z.number().int().min(1).max(4),
    name: z.string().min(1),
    weight: z.number().positive(),
    criteria: z.array(Criterion).min(1),
  })).length(4),
}).superRefine((rubric, ctx) => {
  const weights = rubric.tiers.reduce((sum, tier) => sum + tier.weight, 0);
  if (weights !== 100) ctx.addIssue({ code: 'custom', message: `tier weights sum to ${weights}, not 100` });
  rubric.tiers.forEach((tier, i) => {
    if (tier.tier !== i + 1) ctx.addIssue({ code: 'custom', message: `tier ${i + 1} is out of order` });
    for (const criterion of tier.criteria) {
      const best = maxScoringPoints(criterion.scoring);
      if (best !== criterion.max_points) ctx.addIssue({ code: 'custom', message: `${criterion.id}: max_points ${criterion.max_points} but the scale tops at ${best}` });
    }
  });
});

export type RankingRubric = z.infer<typeof RubricSchema>;
export type RubricCriterion = z.infer<typeof Criterion>;
export type RubricScoring = z.infer<typeof Scoring>;

function maxScoringPoints(scoring: RubricScoring): number {
  if (scoring.type === 'boolean') return scoring.points;
  if (scoring.type === 'enum') return Math.max(...Object.values(scoring.points));
  return Math.max(...scoring.bands.map((band) => band.points));
}

export function parseRankingRubric(data: unknown): RankingRubric {
  return RubricSchema.parse(data);
}

/** The rubric applied to new requests. */
export const CURRENT_RANKING_RUBRIC: RankingRubric = parseRankingRubric(rubricV1);

export function rubricCriterionForFact(rubric: RankingRubric, fact: string): RubricCriterion {
  for (const tier of rubric.tiers) {
    const criterion = tier.criteria.find((c) => c.fact === fact);
    if (criterion) return criterion;
  }
  throw new Error(`The ranking rubric ${rubric.version} scores no fact ${fact}`);
}

/** The values an enum fact accepts, read from the rubric so the request schema cannot drift from it. */
export function rubricEnumValues(rubric: RankingRubric, fact: string): [string, ...string[]] {
  const { scoring } = rubricCriterionForFact(rubric, fact);
  if (scoring.type !== 'enum') throw new Error(`${fact} is not an enum fact`);
  return Object.keys(scoring.points) as [string, ...string[]];
}
