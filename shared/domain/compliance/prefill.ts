import type { Methodology } from '../../schemas/compliance';
import { SLR_SCENARIOS } from './vocabulary';
import type { AnalysisEvidence, ComponentEvidence } from '../deliverables/ports';
import type { ComplianceEvidence } from './evidence';

/**
 * `POST /assessments/{id}/methodology:prefill`: the methodology fields the API can prove from its
 * own evidence (the imports and flood analyses linked to the assessment), each with the records
 * that prove it. Statements only the applicant can make (all assets included, the DEM being the
 * most recent, DEP thresholds, peril of flood, deliverables) are never filled.
 */

/** One methodology field (dotted path below `methodology`) and the evidence records behind it. */
export interface EvidenceFact {
  field: string;
  value: unknown;
  evidence_ids: string[];
}

/** Where a methodology field's value came from: the evidence records that proved it, and when. */
export interface FieldProvenance {
  source: 'evidence';
  evidence_ids: string[];
  filled_at: string;
}

export type MethodologyProvenance = Record<string, FieldProvenance>;

/** Array lengths the methodology schema allows. */
const MAX = { scenarios: SLR_SCENARIOS.length, horizons: 20, gauges: 10, models: 10, return_periods: 20, rationale: 2000 };

const unique = <T>(values: T[]) => [...new Set(values)];
const byNumber = (a: number, b: number) => a - b;
const produced = (c: ComponentEvidence) => c.status === 'ok' || c.status === 'partial';

/** The analyses that produced results of `component`, with those components. */
function producing(analyses: AnalysisEvidence[], component: string) {
  return analyses.flatMap((a) => a.components.filter((c) => c.component === component && produced(c)).map((c) => ({ analysis: a, component: c })));
}

/** The surge `data_source` the produced surge components prove: the gauge fit, or layers named NOAA or FEMA. */
function surgeSource(components: ComponentEvidence[]): Pick<EvidenceFact, 'value'> & { description?: string } | undefined {
  const known = components.filter((c) => c.source);
  if (known.length === 0 || known.length < components.length) return undefined;
  const families = unique(known.map((c) => {
    if (c.source === 'tide_gauge_gev') return 'tide_gauge_gev';
    const names = (c.source_detail ?? []).map((n) => n.toLowerCase());
    const named = (['fema', 'noaa'] as const).filter((family) => names.length > 0 && names.every((n) => n.includes(family)));
    return named.length === 1 ? named[0]! : 'other';
  }));
  if (families.length === 1 && families[0] !== 'other') return { value: families[0] };
  const description = unique(known.flatMap((c) => [c.source === 'tide_gauge_gev' ? 'GEV fit to tide-gauge annual maxima' : 'loaded surge layers', ...(c.source_detail ?? [])]));
  return { value: 'other', description: `From the linked analyses: ${description.join('; ')}`.slice(0, 500) };
}

function componentFacts(analyses: AnalysisEvidence[]): EvidenceFact[] {
  const facts: EvidenceFact[] = [];
  for (const [component, part] of [['tidal', 'tidal'], ['surge', 'storm_surge'], ['rainfall', 'rainfall'], ['compound', 'compound']] as const) {
    const found = producing(analyses, component);
    if (found.length === 0) continue;
    const ids = unique(found.map((f) => f.analysis.analysis_id));
    const field = (name: string) => `flood_components.${part}.${name}`;
    facts.push({ field: field('analysed'), value: true, evidence_ids: ids });
    const periods = unique(found.flatMap((f) => f.component.return_periods_years ?? [])).sort(byNumber).slice(0, MAX.return_periods);
    if (periods.length > 0 && (part === 'storm_surge' || part === 'rainfall')) facts.push({ field: field('return_periods_years'), value: periods, evidence_ids: ids });
    if (part === 'tidal' && found.every((f) => f.component.flood_days_reported)) facts.push({ field: field('flood_days_per_scenario_horizon'), value: true, evidence_ids: ids });
    if (part === 'storm_surge') {
      const source = surgeSource(found.map((f) => f.component));
      if (source) facts.push({ field: field('data_source'), value: source.value, evidence_ids: ids });
      if (source?.description) facts.push({ field: field('data_source_description'), value: source.description, evidence_ids: ids });
    }
  }
  return facts;
}

function gaugeFacts(analyses: AnalysisEvidence[]): EvidenceFact[] {
  const withGauges = analyses.filter((a) => a.gauges.length > 0);
  const stations = unique(withGauges.flatMap((a) => a.gauges));
  if (stations.length === 0 || stations.length > MAX.gauges) return [];
  const ids = withGauges.map((a) => a.analysis_id);
  const facts: EvidenceFact[] = [{ field: 'tide_gauges.station_ids', value: stations, evidence_ids: ids }];
  // One gauge is a recorded judgement: it is proved only when every analysis recorded it, with its reason.
  const single = withGauges.every((a) => a.gauge_selection?.method === 'single_gauge' && a.gauge_selection.reason);
  if (stations.length === 1 && single) {
    facts.push({ field: 'tide_gauges.single_gauge_rationale', value: withGauges[0]!.gauge_selection!.reason.slice(0, MAX.rationale), evidence_ids: ids });
  }
  return facts;
}

/** Every methodology field the evidence proves; none without linked imports or analyses. */
export function factsFromEvidence(evidence: ComplianceEvidence): EvidenceFact[] {
  const facts: EvidenceFact[] = [];
  const imports = (evidence.imports ?? []).filter((i) => i.status === 'complete');
  // Item B compares the count with the assets held for the jurisdiction: the linked imports brought them.
  if (imports.length > 0 && evidence.assets.total > 0) {
    const ids = imports.map((i) => i.import_id);
    facts.push({ field: 'critical_assets.asset_count', value: evidence.assets.total, evidence_ids: ids });
    facts.push({ field: 'critical_assets.categories', value: { ...evidence.assets.by_category }, evidence_ids: ids });
  }
  const analyses = evidence.analyses;
  if (analyses.length === 0) return facts;
  const allIds = analyses.map((a) => a.analysis_id);
  const covered = analyses.filter((a) => a.elevation.source_name && a.elevation.status !== 'not_covered');
  if (covered.length > 0) {
    facts.push({ field: 'dem.source', value: unique(covered.map((a) => a.elevation.source_name!)).join('; ').slice(0, 300), evidence_ids: covered.map((a) => a.analysis_id) });
    const modelIds = unique(covered.flatMap((a) => (a.elevation.elevation_model_id ? [a.elevation.elevation_model_id] : [])));
    const identified = covered.filter((a) => a.elevation.elevation_model_id);
    if (modelIds.length > 0 && modelIds.length <= MAX.models) facts.push({ field: 'dem.elevation_model_ids', value: modelIds, evidence_ids: identified.map((a) => a.analysis_id) });
  }
  facts.push(...componentFacts(analyses));
  // Every level the flood analysis computes is in NAVD88 (design_water_level_navd88).
  facts.push({ field: 'vertical_datum', value: 'NAVD88', evidence_ids: allIds });
  const scenarios = SLR_SCENARIOS.filter((s) => analyses.some((a) => a.scenarios.includes(s)));
  const horizons = unique(analyses.flatMap((a) => a.planning_horizons)).sort(byNumber);
  if (scenarios.length > 0 && horizons.length > 0 && horizons.length <= MAX.horizons) {
    // The flood analysis serves the NOAA 2022 scenarios only.
    facts.push({ field: 'sea_level_rise.scenario_family', value: 'noaa_2022', evidence_ids: allIds });
    facts.push({ field: 'sea_level_rise.scenarios', value: scenarios, evidence_ids: allIds });
    facts.push({ field: 'sea_level_rise.planning_horizons', value: horizons, evidence_ids: allIds });
  }
  facts.push(...gaugeFacts(analyses));
  return facts;
}

type Tree = Record<string, unknown>;

function valueAt(tree: Tree, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Tree)[key] : undefined), tree);
}

/** A copy of `tree` with `value` at `path`, the objects on the way copied (never shared with the input). */
function withValueAt(tree: Tree, [key, ...rest]: string[], value: unknown): Tree {
  if (rest.length === 0) return { ...tree, [key!]: value };
  const child = tree[key!];
  return { ...tree, [key!]: withValueAt(child && typeof child === 'object' ? child as Tree : {}, rest, value) };
}

export interface PrefillOutcome {
  methodology: Methodology;
  provenance: MethodologyProvenance;
  /** Fields written from evidence. */
  filled: string[];
  /** Fields the user had set, kept as they were (send `overwrite: true` to replace them). */
  kept: string[];
}

/**
 * Writes the facts into the methodology. A field the user set is kept unless `overwrite`; a field
 * filled from evidence before is refreshed. Each written field's provenance names its evidence.
 */
export function prefillMethodology(current: Methodology, provenance: MethodologyProvenance, facts: EvidenceFact[], options: { overwrite: boolean; at: string }): PrefillOutcome {
  let methodology = current as Tree;
  const next: MethodologyProvenance = { ...provenance };
  const filled: string[] = [];
  const kept: string[] = [];
  for (const fact of facts) {
    const path = fact.field.split('.');
    const userSet = valueAt(methodology, path) !== undefined && provenance[fact.field]?.source !== 'evidence';
    if (userSet && !options.overwrite) {
      kept.push(fact.field);
      continue;
    }
    methodology = withValueAt(methodology, path, fact.value);
    next[fact.field] = { source: 'evidence', evidence_ids: fact.evidence_ids, filled_at: options.at };
    filled.push(fact.field);
  }
  return { methodology: methodology as Methodology, provenance: next, filled, kept };
}

/** The provenance left after an update replaced methodology `parts` as a whole: those parts' fields are the user's now. */
export function provenanceAfterUpdate(provenance: MethodologyProvenance | undefined, parts: readonly string[]): MethodologyProvenance {
  return Object.fromEntries(Object.entries(provenance ?? {}).filter(([field]) => !parts.includes(field.split('.')[0]!)));
}
