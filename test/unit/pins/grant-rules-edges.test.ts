import { decideEligibility, type EligibilityDecision } from '../../../shared/domain/grants/eligibility';
import { floridaDate } from '../../../shared/domain/florida-time';
import { benefitCostRatio, rankProject, type RankingProject } from '../../../shared/domain/grants/ranking';
import { CURRENT_RANKING_RUBRIC, parseRankingRubric, rubricCriterionForFact, rubricEnumValues } from '../../../shared/domain/grants/ranking-rubric';
import { resolveJurisdiction } from '../../../shared/domain/jurisdictions';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The less travelled paths of the grant rules: undecided tests, where figures come from, odd project bodies, broken rubrics. */
const STATE = { per_capita_personal_income_usd: 68703, year: 2023, source: 'BEA CAINC1 2023' };
const decide = (jurisdiction: string, extra: { population?: number; per_capita_income?: number } = {}) =>
  decideEligibility({ jurisdiction, project_type: 'implementation', ...extra }, resolveJurisdiction(jurisdiction), STATE);
const reason = (decision: EligibilityDecision, test: string) => decision.reasons.find((r) => r.test === test)!;

describe('eligibility: the combined test and where each figure comes from', () => {
  // Hastings, dissolved in 2018, has no Census population estimate (its tract-weighted income is $17,882).
  it.each([
    ['population only', { population: 5000 }, true, /Both tests pass/],
    ['income only', { per_capita_income: 30000 }, null, /Not decided/],
    ['neither', {}, null, /Not decided/],
    ['both, qualifying', { population: 5000, per_capita_income: 30000 }, true, /Both tests pass/],
    ['both, too large', { population: 50000, per_capita_income: 30000 }, false, /standard 50 % cost share/],
  ])('a municipality without a Census estimate that sends %s', (_label, figures, passed, detail) => {
    const decision = decide('Town of Hastings', figures);
    expect(reason(decision, 'financially_disadvantaged_small_community')).toMatchObject({ passed, detail: expect.stringMatching(detail) });
  });

  it('decides a county from its own figures, and says so for both tests', () => {
    const decision = decide('Monroe County');
    expect(reason(decision, 'financially_disadvantaged_small_community').passed).toBe(false);
    expect(reason(decision, 'small_community_population').source).toMatch(/Bureau of Economic Analysis/);
    expect(reason(decision, 'per_capita_income_below_state').source).toMatch(/^U\.S\. Bureau of Economic Analysis CAINC1, Monroe County/);
    expect(reason(decidePlanning('Liberty County'), 'financially_disadvantaged_small_community').passed).toBe(true);
  });

  it('names the request as the source of figures it sent, for a county as for a municipality', () => {
    for (const place of ['Monroe County', 'City of Cedar Key']) {
      const decision = decide(place, { population: 700, per_capita_income: 40000 });
      expect(reason(decision, 'small_community_population').source).toMatch(/given in the request/);
      expect(reason(decision, 'per_capita_income_below_state').source).toMatch(/^per_capita_income given in the request/);
    }
  });

  it('uses a municipality\'s own tract-weighted income when it sends none, never its county\'s', () => {
    const decision = decide('City of Key West', { population: 5000 });
    expect(reason(decision, 'per_capita_income_below_state')).toMatchObject({ threshold: 30197, source: expect.stringMatching(/^Screening approximation/) });
    expect(reason(decision, 'per_capita_income_below_state').value).not.toBe(reason(decide('Monroe County'), 'per_capita_income_below_state').value);
    expect(reason(decision, 'small_community_population')).toMatchObject({ passed: true, value: 5000 });
  });

  it('lists the Florida test first and a planning reason only for planning grants', () => {
    const implementation = decide('Liberty County');
    expect(implementation.reasons.map((r) => r.test)).toEqual(['florida_local_government', 'small_community_population', 'per_capita_income_below_state', 'financially_disadvantaged_small_community']);
    expect(implementation.reasons[0]).toMatchObject({ passed: true, value: 'Liberty County' });
    expect(decidePlanning('Liberty County').reasons.at(-1)).toMatchObject({ test: 'planning_grant', passed: true });
    expect(implementation.jurisdiction).toEqual({ name: 'Liberty County', type: 'county', county: 'Liberty', county_fips: '12077' });
  });

  it('explains an unknown place with the text it was given', () => {
    const decision = decide('Springfield, Illinois');
    expect(decision.reasons).toEqual([expect.objectContaining({ test: 'florida_local_government', passed: false, value: 'Springfield, Illinois' })]);
    expect(decision.jurisdiction).toBeNull();
    expect(decision.state_income).toEqual(STATE);
  });
});

function decidePlanning(jurisdiction: string) {
  return decideEligibility({ jurisdiction, project_type: 'planning' }, resolveJurisdiction(jurisdiction), STATE);
}

describe('ranking: benefit-cost ratio and odd bodies', () => {
  it('gives no ratio from avoided losses when the total cost is 0', () => {
    expect(benefitCostRatio({ total_cost: 0, requested_amount: 0, avoided_losses: 500 })).toBeNull();
    expect(benefitCostRatio({ total_cost: 100, requested_amount: 50 })).toBeNull();
    expect(benefitCostRatio({ total_cost: 100, requested_amount: 50, avoided_losses: 150, benefit_cost_ratio: 3 })).toEqual({ value: 3, basis: 'stated' });
  });

  it('treats a fact under a missing or non-object parent as missing', () => {
    const project = { costs: { total_cost: 1, requested_amount: 1 }, readiness: null, risk_reduction: 'all of them' } as unknown as RankingProject;
    const result = rankProject(project, CURRENT_RANKING_RUBRIC);
    expect(result.missing_facts).toEqual(expect.arrayContaining(['readiness.design_stage', 'risk_reduction.va_risks_addressed']));
    expect(result.total_rank).toBe(0);
  });

  it('scores a wrong-typed value 0 without calling it missing', () => {
    const project = { costs: { total_cost: 1, requested_amount: 1 }, risk_reduction: { regionally_significant_assets: '3', va_risks_addressed: 3, contributes_to_existing_mitigation: 'yes' } } as unknown as RankingProject;
    const criteria = rankProject(project, CURRENT_RANKING_RUBRIC).tiers[0]!.criteria;
    expect(criteria.map((c) => [c.fact, c.points, c.missing])).toEqual([
      ['risk_reduction.va_risks_addressed', 0, false],
      ['risk_reduction.regionally_significant_assets', 0, false],
      ['risk_reduction.vulnerable_critical_asset_share', 0, true],
      ['risk_reduction.contributes_to_existing_mitigation', 0, false],
    ]);
  });

  it('echoes the project name only when one was sent', () => {
    expect('project_name' in rankProject({ costs: { total_cost: 1, requested_amount: 1 } }, CURRENT_RANKING_RUBRIC)).toBe(false);
    expect(rankProject({ project_name: 'Seawall', costs: { total_cost: 1, requested_amount: 1 } }, CURRENT_RANKING_RUBRIC).project_name).toBe('Seawall');
  });
});

describe('ranking rubric: a broken rule set fails at load', () => {
  const file = JSON.parse(readFileSync(path.join(__dirname, '../../../shared/data/grants/ranking-rubric-v1.json'), 'utf8'));

  it('refuses bands that do not ascend', () => {
    const broken = structuredClone(file);
    broken.tiers[0].criteria[1].scoring.bands = [{ min: 0, points: 0 }, { min: 0, points: 25 }];
    expect(() => parseRankingRubric(broken)).toThrow(/bands must ascend/);
  });

  it('refuses tiers out of order', () => {
    const broken = structuredClone(file);
    [broken.tiers[0].tier, broken.tiers[1].tier] = [2, 1];
    expect(() => parseRankingRubric(broken)).toThrow(/tier 1 is out of order/);
  });

  it('finds criteria by fact and refuses unknown or non-enum facts', () => {
    expect(rubricCriterionForFact(CURRENT_RANKING_RUBRIC, 'readiness.permits').id).toBe('permits');
    expect(() => rubricCriterionForFact(CURRENT_RANKING_RUBRIC, 'nope')).toThrow(/scores no fact nope/);
    expect(rubricEnumValues(CURRENT_RANKING_RUBRIC, 'readiness.local_funding')).toEqual(['none', 'identified', 'committed']);
    expect(() => rubricEnumValues(CURRENT_RANKING_RUBRIC, 'exceeds_building_code')).toThrow(/not an enum fact/);
  });
});

describe('deadlines: the Florida (Eastern) day', () => {
  it('turns at midnight Eastern, not UTC (EDT is UTC-4 in September)', () => {
    expect(floridaDate(new Date('2026-09-01T03:59:59.999Z'))).toBe('2026-08-31');
    expect(floridaDate(new Date('2026-09-01T04:00:00.000Z'))).toBe('2026-09-01');
  });
});
