import type { ChecklistStatus, CheckStatus, Methodology, MissingItem, Scope } from '../../schemas/compliance';
import { describeSetting, itemsFor, requiredHorizons, ruleSetFor, scenarioRequirements, type CheckSpec, type RuleItem, type RuleSet, type SimpleCheckKind } from './rule-sets';
import type { SettingDecision } from './setting';
import { crossCheck, type ComplianceEvidence, type EvidenceCheck } from './evidence';

/** What the checklist reads: an assessment's scope and methodology (stored or still a draft). */
export interface ComplianceInput {
  scope?: Scope;
  scope_rationale?: string;
  methodology?: Methodology;
}

interface Outcome {
  status: CheckStatus;
  reason: string;
}

const pass = (reason: string): Outcome => ({ status: 'pass', reason });
const fail = (reason: string): Outcome => ({ status: 'fail', reason });
/** Conditional items ("if applicable", "to the extent practicable") are satisfied by a rationale too. */
const byRationale = (rationale: string | undefined, missing: string): Outcome => (rationale
  ? { status: 'conditional', reason: `Not performed; rationale given: ${rationale.slice(0, 300)}` }
  : fail(missing));

const missingAll = (values: number[], required: number[]) => required.filter((value) => !values.includes(value));

type SurgeStatement = NonNullable<NonNullable<Methodology['flood_components']>['storm_surge']>;

/**
 * Item G. The statute (as reconstructed) asks for storm surge "from NOAA or FEMA data", at least the
 * current 100-year event; it names no method and no product. A source outside those words is not
 * failed for being stated truthfully: it is `conditional` (DEP decides), saying what it is. The
 * API's own surge is a GEV fit to tide-gauge annual maxima (observations of NOAA gauges, compiled
 * by the University of Hawaii), not a NOAA or FEMA surge product, and is named as such.
 */
function stormSurge(surge: SurgeStatement | undefined, { min_return_period_years: minimum, accepted_sources: sources }: Extract<CheckSpec, { kind: 'storm_surge' }>): Outcome {
  const accepted = sources.map((s) => s.toUpperCase()).join(' or ');
  const rule = `DEP accepts storm surge from ${accepted} data, at least the current ${minimum}-year event (s. 380.093(3)(d), reconstructed wording)`;
  if (!surge?.analysed) return fail(`Storm surge not analysed. ${rule}.`);
  const largest = Math.max(0, ...(surge.return_periods_years ?? []));
  if (largest < minimum) return fail(`${rule}; ${largest ? `the analysis stated goes up to the ${largest}-year event` : 'no return period is stated (return_periods_years)'}.`);
  const source = surge.data_source;
  if (!source) return fail(`${rule}; the data source is not stated (data_source).`);
  if (sources.includes(source)) return pass(`${rule}: ${source.toUpperCase()} data up to the ${largest}-year event.`);
  if (source !== 'tide_gauge_gev' && !surge.data_source_description) return fail(`${rule}; with data_source "${source}", say what the data are (data_source_description).`);
  const what = source === 'tide_gauge_gev'
    ? 'a GEV fit to tide-gauge annual maxima (observations of NOAA gauges, not a NOAA or FEMA surge product)'
    : `"${surge.data_source_description!.slice(0, 200)}"`;
  return {
    status: 'conditional',
    reason: `${rule}. This analysis used ${what} up to the ${largest}-year event: it meets the event requirement; whether DEP accepts this source as ${accepted} data is DEP's decision and not verified here. To meet the source requirement as worded, load ${accepted} surge layers and re-run the analysis.`,
  };
}

interface Context {
  ruleSet: RuleSet;
  date: string;
}

type SpecOf<K extends CheckSpec['kind']> = K extends SimpleCheckKind ? { kind: SimpleCheckKind } : Extract<CheckSpec, { kind: K }>;
type Check<K extends CheckSpec['kind']> = (input: ComplianceInput, spec: SpecOf<K>, context: Context) => Outcome;

const CHECKS: { [K in CheckSpec['kind']]: Check<K> } = {
  scope: ({ scope, scope_rationale }) => {
    if (scope === 'full_jurisdiction') return pass('Covers the entire jurisdiction.');
    if (scope === 'partial') {
      return scope_rationale
        ? pass('A smaller area with a rationale; DEP must approve it.')
        : fail('Partial scope without scope_rationale.');
    }
    return fail('Scope not stated.');
  },
  critical_assets: ({ methodology }) => {
    const assets = methodology?.critical_assets;
    if (!assets) return fail('No critical asset inventory recorded.');
    if (assets.all_owned_or_maintained_included === undefined) return fail('Not stated whether all owned or maintained critical assets are included (all_owned_or_maintained_included).');
    if (!assets.all_owned_or_maintained_included) return fail('Not all owned or maintained critical assets are included.');
    if (!assets.asset_count) return fail('The inventory lists no critical assets.');
    return pass(`${assets.asset_count} critical assets, all owned or maintained ones included.`);
  },
  dem: ({ methodology }) => {
    const dem = methodology?.dem;
    if (!dem) return fail('No DEM recorded.');
    const named = `${dem.source}${dem.year ? ` (${dem.year})` : ''}`;
    if (!dem.most_recent_available) return fail(`${named} is not stated to be the most recent publicly available DEM.`);
    return pass(`${named}, the most recent publicly available DEM.`);
  },
  peril_of_flood: ({ methodology }) => {
    const peril = methodology?.peril_of_flood;
    if (peril?.addressed) return pass('Peril of flood plan amendments addressed.');
    return byRationale(peril?.rationale, 'Peril of flood plan amendments neither addressed nor explained.');
  },
  tidal_depth: ({ methodology }) => {
    const tidal = methodology?.flood_components?.tidal;
    if (!tidal?.analysed) return fail('Tidal flooding depth not analysed.');
    if (!tidal.dep_thresholds_used) return fail('Tidal flooding analysed without DEP thresholds.');
    return pass('Tidal flooding depth analysed with DEP thresholds.');
  },
  tidal_flood_days: ({ methodology }) => {
    const tidal = methodology?.flood_components?.tidal;
    if (tidal?.flood_days_per_scenario_horizon) return pass('Tidal flood days reported per scenario and horizon.');
    return byRationale(tidal?.flood_days_rationale, 'Tidal flood days per scenario and horizon neither reported nor explained.');
  },
  storm_surge: ({ methodology }, spec) => stormSurge(methodology?.flood_components?.storm_surge, spec),
  rainfall: ({ methodology }, { required_return_periods_years: required }) => {
    const rainfall = methodology?.flood_components?.rainfall;
    const storms = required.map((years) => `${years}-year`).join(' and ');
    if (rainfall?.analysed) {
      const missing = missingAll(rainfall.return_periods_years ?? [], required);
      if (missing.length === 0) return pass(`Rainfall-induced flooding analysed for the ${storms} storms.`);
      if (!rainfall.rationale) return fail(`Rainfall-induced flooding lacks the ${missing.join(' and ')}-year storm.`);
      return { status: 'conditional', reason: `The ${missing.join(' and ')}-year storm not analysed; rationale given: ${rainfall.rationale.slice(0, 300)}` };
    }
    return byRationale(rainfall?.rationale, `Rainfall-induced flooding (${storms} storms) neither analysed nor explained.`);
  },
  compound: ({ methodology }) => {
    const compound = methodology?.flood_components?.compound;
    if (compound?.analysed) return pass('Compound flooding analysed.');
    return byRationale(compound?.rationale, 'Compound flooding neither analysed nor explained.');
  },
  vertical_datum: ({ methodology }, { datum }) => {
    if (!methodology?.vertical_datum) return fail('Vertical datum not stated.');
    return methodology.vertical_datum === datum ? pass(`Analyses in ${datum}.`) : fail(`Analyses are in ${methodology.vertical_datum}, not ${datum}.`);
  },
  slr_scenarios: ({ methodology }, { min_count: minCount }, { ruleSet, date }) => {
    const required = scenarioRequirements(ruleSet, date);
    const slr = methodology?.sea_level_rise;
    if (!slr) return fail('Sea level rise scenarios not stated.');
    if (slr.scenario_family !== required.scenario_family) return fail(`Rule set ${ruleSet.rule_set} requires the ${required.scenario_family} scenarios, not ${slr.scenario_family}.`);
    const used = new Set(slr.scenarios);
    const missing = required.required_scenarios.filter((scenario) => !used.has(scenario));
    if (missing.length > 0) return fail(`Missing required scenario(s): ${missing.join(', ')}.`);
    if (used.size < minCount) return fail(`At least ${minCount} scenarios are required.`);
    return pass(`${used.size} ${slr.scenario_family} scenarios including ${required.required_scenarios.join(' and ')}.`);
  },
  planning_horizons: ({ methodology }, { min_count: minCount }, { ruleSet, date }) => {
    const required = requiredHorizons(ruleSet, date);
    const horizons = [...new Set(methodology?.sea_level_rise?.planning_horizons ?? [])];
    if (horizons.length === 0) return fail('Planning horizons not stated.');
    const missing = missingAll(horizons, required);
    if (missing.length > 0) return fail(`Missing required planning horizon(s): ${missing.join(', ')}.`);
    if (horizons.length < minCount) return fail(`At least ${minCount} planning horizons are required.`);
    return pass(`Planning horizons ${horizons.sort().join(', ')} include ${required.join(' and ')}.`);
  },
  tide_gauges: ({ methodology }, { min_gauges: minGauges }) => {
    const gauges = methodology?.tide_gauges;
    const stations = [...new Set(gauges?.station_ids ?? [])];
    if (stations.length >= minGauges) return pass(`Interpolated between NOAA gauges ${stations.join(', ')}.`);
    if (stations.length === 1 && gauges?.single_gauge_rationale) return pass(`Single NOAA gauge ${stations[0]} with a rationale.`);
    if (stations.length === 1) return fail('One gauge used without single_gauge_rationale (allowed only when the two closest are more than 100 miles apart).');
    return fail('No NOAA tide gauges stated.');
  },
  deliverables: ({ methodology }, { preferred_coordinate_systems: preferred, geographic_coordinate_systems: geographic }) => {
    const deliverables = methodology?.deliverables;
    const missing: string[] = [];
    if (!deliverables?.report) missing.push('report of findings');
    const gis = deliverables?.gis_data;
    if (!gis) missing.push('GIS data');
    else {
      if (gis.format === 'other') missing.push('GIS data in a format DEP\'s mapping tool reads');
      if (geographic.includes(gis.coordinate_system)) missing.push(`GIS data projected (${gis.coordinate_system} is geographic; DEP uses ${preferred[0]})`);
      if (!gis.metadata) missing.push('GIS metadata');
    }
    if (!deliverables?.prioritized_asset_list) missing.push('prioritized list of impacted critical assets');
    if (!methodology?.critical_assets?.regionally_significant_identified) missing.push('regionally significant assets identified in the list');
    if (missing.length > 0) return fail(`Missing: ${missing.join('; ')}.`);
    const note = preferred.includes(gis!.coordinate_system) ? '' : ` Note: DEP's statewide layers use ${preferred[0]}.`;
    return pass(`Report, GIS data (${gis!.format}, ${gis!.coordinate_system}, with metadata) and prioritized asset list.${note}`);
  },
};

export interface ComplianceEvaluation {
  compliant: boolean;
  missing_items: MissingItem[];
  dep_checklist_status: ChecklistStatus;
}

function evaluateItem(item: RuleItem, input: ComplianceInput, context: Context): Outcome {
  const check = CHECKS[item.check.kind] as Check<CheckSpec['kind']>;
  return check(input, item.check as never, context);
}

const UNCHECKED: EvidenceCheck = { status: 'attested', detail: 'Validated without an assessment: only the statement was checked (send assessment_id to check it against the API\'s evidence).', contradictions: [] };

/** A claim the evidence contradicts fails, whatever the methodology attests. */
function withEvidence(outcome: Outcome, check: EvidenceCheck): Outcome {
  return check.status === 'contradicted' ? fail(`Contradicted by the API's evidence: ${check.detail}`) : outcome;
}

/**
 * Evaluates every checklist item of the rule set in force on `assessmentDate` that the
 * jurisdiction's setting requires (a noncoastal one skips the tidal and surge items), cross-checked
 * against `evidence` (what the API holds and ran) when given. The one home of compliance:
 * `POST /compliance/validate`, `GET /assessments/{id}` and the submit gate call it.
 */
export function evaluateCompliance(input: ComplianceInput, assessmentDate: string, setting: SettingDecision, evidence?: ComplianceEvidence): ComplianceEvaluation {
  const ruleSet = ruleSetFor(assessmentDate);
  const context = { ruleSet, date: assessmentDate };
  const items = itemsFor(ruleSet, assessmentDate, setting.setting);
  const checks = evidence ? crossCheck(items.map((item) => item.check.kind), input.methodology ?? {}, evidence) : undefined;
  const results = items.map((item) => {
    const check = checks?.get(item.check.kind) ?? UNCHECKED;
    return { item, check, outcome: withEvidence(evaluateItem(item, input, context), check) };
  });
  const count = (status: CheckStatus) => results.filter((r) => r.outcome.status === status).length;
  const failed = results.filter((r) => r.outcome.status === 'fail');
  return {
    compliant: failed.length === 0,
    missing_items: failed.map(({ item, outcome }) => ({
      item: item.id,
      statute_ref: item.statute_ref,
      requirement: item.requirement,
      how_to_satisfy: item.how_to_satisfy,
      reason: outcome.reason,
    })),
    dep_checklist_status: {
      rule_set: ruleSet.rule_set,
      label: ruleSet.label,
      assessment_date: assessmentDate,
      scenario_requirements: scenarioRequirements(ruleSet, assessmentDate),
      coastal_setting: describeSetting(ruleSet, assessmentDate, setting),
      compliant: failed.length === 0,
      passed: count('pass'),
      failed: failed.length,
      conditional: count('conditional'),
      contradictions: results.flatMap(({ item, check }) => check.contradictions.map((c) => ({ item: item.id, ...c }))),
      evidence_summary: evidence ? {
        jurisdiction_id: evidence.jurisdiction_id,
        assets_held: evidence.assets.total,
        assets_by_category: evidence.assets.by_category,
        analyses: evidence.analyses.map((a) => ({
          analysis_id: a.analysis_id, analysed_at: a.analysed_at, components: a.components, scenarios: a.scenarios,
          planning_horizons: a.planning_horizons, elevation_source: a.elevation.source_name, gauges: a.gauges, gauge_selection: a.gauge_selection ?? null,
        })),
      } : null,
      items: results.map(({ item, outcome, check }) => ({
        item: item.id,
        title: item.title,
        statute_ref: item.statute_ref,
        status: outcome.status,
        reason: outcome.reason,
        conditional: item.conditional,
        verification: item.verification,
        evidence: { status: check.status, detail: check.detail },
      })),
    },
  };
}
