import ruleSet2021 from '../../data/compliance/rule-set-2021.json';
import ruleSet2024 from '../../data/compliance/rule-set-2024.json';
import type { Checklist, RuleSetId, ScenarioFamily, SlrScenario, VerificationStatus } from '../../schemas/compliance';
import { settingOf, type CoastalSetting, type SettingDecision } from './setting';

/**
 * The checklist A–N lives in versioned rule sets kept as data (`shared/data/compliance/`), so a
 * reconstructed item can be corrected without a code change. A rule set applies to assessments
 * dated inside its window; an item may have versions with their own `applies_from`/`applies_to`.
 */
export type SimpleCheckKind = 'scope' | 'critical_assets' | 'dem' | 'peril_of_flood' | 'tidal_depth' | 'tidal_flood_days' | 'compound';

export type CheckSpec =
  | { kind: SimpleCheckKind }
  | { kind: 'storm_surge'; min_return_period_years: number; accepted_sources: string[] }
  | { kind: 'rainfall'; required_return_periods_years: number[] }
  | { kind: 'vertical_datum'; datum: string }
  | { kind: 'slr_scenarios'; min_count: number }
  | { kind: 'planning_horizons'; min_count: number }
  | { kind: 'tide_gauges'; min_gauges: number }
  | { kind: 'deliverables'; preferred_coordinate_systems: string[]; geographic_coordinate_systems: string[] };

export interface RuleItem {
  id: string;
  title: string;
  statute_ref: string;
  requirement: string;
  evidence: string[];
  how_to_satisfy: string;
  conditional: boolean;
  applies_from: string | null;
  applies_to: string | null;
  verification: VerificationStatus;
  source: string;
  check: CheckSpec;
}

type HorizonRule = { kind: 'fixed_years'; years: number[] } | { kind: 'years_after_assessment'; offsets_years: number[] };

export interface RuleSet {
  rule_set: RuleSetId;
  label: "derived from s. 380.093; not DEP's form";
  applies_from: string;
  applies_to: string | null;
  verification: VerificationStatus;
  source: string;
  scenario_requirements: {
    scenario_family: ScenarioFamily;
    scenario_family_label: string;
    required_scenarios: SlrScenario[];
    planning_horizons: HorizonRule;
    verification: VerificationStatus;
    source: string;
  };
  /** The 2022 amendment: items a jurisdiction without tidal exposure does not need. */
  noncoastal_variant: {
    applies_from: string;
    not_required_items: string[];
    description: string;
    verification: VerificationStatus;
    source: string;
  };
  items: RuleItem[];
}

export type { CoastalSetting };

export const RULE_SETS: readonly RuleSet[] = [ruleSet2021 as RuleSet, ruleSet2024 as RuleSet];

/** The first year with a rule set; assessments under s. 380.093(3) date from 2021. */
export const FIRST_RULE_SET_YEAR = 2021;
/** Planned assessments may be dated this many years ahead. */
export const MAX_YEARS_AHEAD = 5;

/** A year is taken at July 1, the date Florida laws usually take effect (so 2024 → rule set 2024). */
export function defaultDateOfYear(year: number): string {
  return `${year}-07-01`;
}

/** Why a date has no rule set, or undefined when it has one. */
export function assessmentDateProblem(date: string, today: Date): string | undefined {
  const year = Number(date.slice(0, 4));
  if (year < FIRST_RULE_SET_YEAR) {
    return `Assessment requirements of s. 380.093(3) apply from ${FIRST_RULE_SET_YEAR}; no rule set exists for ${year}.`;
  }
  const latest = today.getUTCFullYear() + MAX_YEARS_AHEAD;
  if (year > latest) return `${year} is too far ahead: assessments may be dated up to ${latest} (the current year + ${MAX_YEARS_AHEAD}).`;
  return undefined;
}

const within = (date: string, from: string | null, to: string | null) => (from === null || date >= from) && (to === null || date <= to);

/** The rule set in force on `date` (YYYY-MM-DD): 2021 before 2024-07-01, 2024 from then on. */
export function ruleSetFor(date: string): RuleSet {
  const found = RULE_SETS.find((set) => within(date, set.applies_from, set.applies_to));
  if (!found) throw new RangeError(`No rule set applies to ${date}`);
  return found;
}

/**
 * The item versions of the rule set that apply on `date`, in statute order (A–N); for a
 * noncoastal jurisdiction from the 2022 amendment on, without the tidal and surge items.
 */
export function itemsFor(ruleSet: RuleSet, date: string, setting: CoastalSetting = 'coastal'): RuleItem[] {
  const exempt = new Set(notRequiredItems(ruleSet, date, setting));
  return ruleSet.items.filter((item) => within(date, item.applies_from, item.applies_to) && !exempt.has(item.id));
}

/** The items a jurisdiction in `setting` does not need on `date` (the noncoastal variant from its start date). */
export function notRequiredItems(ruleSet: RuleSet, date: string, setting: CoastalSetting): string[] {
  const variant = ruleSet.noncoastal_variant;
  return setting === 'noncoastal' && date >= variant.applies_from ? variant.not_required_items : [];
}

/** The setting an answer was given for, with why and what it leaves out. */
export function describeSetting(ruleSet: RuleSet, date: string, decision: SettingDecision) {
  const variant = ruleSet.noncoastal_variant;
  return {
    ...decision,
    not_required_items: notRequiredItems(ruleSet, date, decision.setting),
    variant: { applies_from: variant.applies_from, description: variant.description, verification: variant.verification, source: variant.source },
  };
}

/** Horizons the rule set requires for an assessment dated `date`. */
export function requiredHorizons(ruleSet: RuleSet, date: string): number[] {
  const rule = ruleSet.scenario_requirements.planning_horizons;
  const year = Number(date.slice(0, 4));
  return rule.kind === 'fixed_years' ? rule.years : rule.offsets_years.map((offset) => year + offset);
}

function horizonRuleText(ruleSet: RuleSet): string {
  const rule = ruleSet.scenario_requirements.planning_horizons;
  return rule.kind === 'fixed_years'
    ? `the years ${rule.years.join(' and ')}`
    : `${rule.offsets_years.join(' and ')} years after the assessment year`;
}

export function scenarioRequirements(ruleSet: RuleSet, date: string): Checklist['scenario_requirements'] {
  const { planning_horizons: _rule, ...rest } = ruleSet.scenario_requirements;
  return { ...rest, planning_horizons: requiredHorizons(ruleSet, date), planning_horizon_rule: horizonRuleText(ruleSet) };
}

/** The checklist as `GET /compliance/checklist` serves it. */
export function checklistFor(date: string, decision: SettingDecision = settingOf(undefined)): Checklist {
  const ruleSet = ruleSetFor(date);
  return {
    rule_set: ruleSet.rule_set,
    label: ruleSet.label,
    assessment_date: date,
    rule_set_applies_from: ruleSet.applies_from,
    rule_set_applies_to: ruleSet.applies_to,
    verification: ruleSet.verification,
    source: ruleSet.source,
    scenario_requirements: scenarioRequirements(ruleSet, date),
    coastal_setting: describeSetting(ruleSet, date, decision),
    items: itemsFor(ruleSet, date, decision.setting).map(({ check: _check, id, ...item }) => ({ item: id, ...item })),
  };
}
