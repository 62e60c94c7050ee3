import type { ScenarioId } from './scenarios';

/**
 * The scenario/horizon pairs the statute's rule sets ask for (DOMAIN §3). Versioned data with its
 * source and verification status, so a correction is a data change.
 */
export interface StatuteRuleSet {
  rule_set: '2021' | '2024';
  applies: string;
  scenario_family: string;
  scenarios: ScenarioId[];
  horizons: string;
  verification: 'reconstructed' | 'unverified';
  note: string;
}

export const STATUTE_RULE_SETS: readonly StatuteRuleSet[] = [
  {
    rule_set: '2021',
    applies: 'assessments before 2024-07-01',
    scenario_family: 'NOAA 2017',
    scenarios: ['intermediate_low', 'intermediate_high'],
    horizons: '2040 and 2070',
    verification: 'reconstructed',
    note: 'Names the NOAA 2017 Intermediate-Low and Intermediate-High scenarios; the NOAA 2022 values served here carry the same names but are not the same series.',
  },
  {
    rule_set: '2024',
    applies: 'assessments from 2024-07-01',
    scenario_family: 'NOAA 2022',
    scenarios: ['intermediate_low', 'intermediate'],
    horizons: '20 and 50 years after the assessment year',
    verification: 'unverified',
    note: 'Single third-party source; check against the current text of s. 380.093(3)(d).',
  },
];

const RULE_2021_HORIZONS = [2040, 2070];

export function requiredHorizons2024(assessmentYear: number): [number, number] {
  return [assessmentYear + 20, assessmentYear + 50];
}

/** The statute's default pair for a new analysis: the 2024 rule set. */
export function statuteDefaults(assessmentYear: number): { scenarios: ScenarioId[]; horizons: number[] } {
  return { scenarios: [...STATUTE_RULE_SETS[1]!.scenarios], horizons: requiredHorizons2024(assessmentYear) };
}

export function ruleSetsRequiringScenario(scenario: ScenarioId): StatuteRuleSet['rule_set'][] {
  return STATUTE_RULE_SETS.filter((r) => r.scenarios.includes(scenario)).map((r) => r.rule_set);
}

export function ruleSetsRequiringHorizon(year: number, assessmentYear: number): StatuteRuleSet['rule_set'][] {
  const sets: StatuteRuleSet['rule_set'][] = [];
  if (RULE_2021_HORIZONS.includes(year)) sets.push('2021');
  if (requiredHorizons2024(assessmentYear).includes(year)) sets.push('2024');
  return sets;
}
