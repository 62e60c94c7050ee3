import type { Methodology } from '../../schemas/compliance';
import type { AnalysisEvidence, AssetCounter, EvidenceStore, ImportEvidence, JurisdictionAssetCounts } from '../deliverables/ports';
import type { CheckSpec } from './rule-sets';

/**
 * What the API itself holds and ran for an assessment, and the cross-check of the methodology the
 * caller sent against it: a claim the evidence contradicts fails its item, whatever it attests.
 */
export interface ComplianceEvidence {
  jurisdiction_id: string;
  jurisdiction_name: string;
  assets: JurisdictionAssetCounts;
  /** Flood analyses linked to the assessment (none for a body validated without an assessment). */
  analyses: AnalysisEvidence[];
  /** Asset imports linked to the assessment; absent for a body validated without an assessment. */
  imports?: ImportEvidence[];
}

export interface Contradiction {
  field: string;
  claimed: string;
  found: string;
}

export interface EvidenceCheck {
  /** `verified`: evidence held and consistent; `contradicted`; `attested`: only the caller's statement. */
  status: 'verified' | 'contradicted' | 'attested';
  detail: string;
  contradictions: Contradiction[];
}

type Kind = CheckSpec['kind'];
/**
 * Component statuses that carry results: `computed` is rainfall ponding of a design storm (and its
 * compound cases); `needs_design_storm` (depressions only), `no_data` and `not_applicable` are not.
 */
const PRODUCED_RESULTS = new Set(['ok', 'partial', 'computed']);

const COMPONENT_OF: Partial<Record<Kind, { component: string; claim: (m: Methodology) => boolean | undefined; label: string }>> = {
  tidal_depth: { component: 'tidal', claim: (m) => m.flood_components?.tidal?.analysed, label: 'tidal flooding' },
  storm_surge: { component: 'surge', claim: (m) => m.flood_components?.storm_surge?.analysed, label: 'storm surge' },
  rainfall: { component: 'rainfall', claim: (m) => m.flood_components?.rainfall?.analysed, label: 'rainfall-induced flooding' },
  compound: { component: 'compound', claim: (m) => m.flood_components?.compound?.analysed, label: 'compound flooding' },
};

/** Details often open with "the 1 linked analysis …", written for the middle of a sentence. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const attested = (detail: string): EvidenceCheck => ({ status: 'attested', detail: sentence(detail), contradictions: [] });
const checked = (contradictions: Contradiction[], consistent: string): EvidenceCheck => (contradictions.length > 0
  ? { status: 'contradicted', detail: contradictions.map((c) => `${c.field}: claimed ${c.claimed}; ${c.found}.`).join(' '), contradictions }
  : { status: 'verified', detail: sentence(consistent), contradictions: [] });

const NO_ANALYSES = 'No flood analysis is linked to this assessment (POST /hazards/flood-analysis with assessment_id); the statement is not checked.';
const list = (values: readonly (string | number)[]) => values.join(', ');
const ran = (analyses: AnalysisEvidence[]) => `the ${analyses.length} linked analys${analyses.length === 1 ? 'is' : 'es'}`;

/** Analyses named in an item's evidence, each text cut, so the detail stays within its documented length. */
const SHOWN_CHOICES = 2;
const SHOWN_REASON_CHARS = 400;

/** The first analyses of `named`, each with its heading and text (cut), then how many more (empty when none). */
function namedAnalyses(named: AnalysisEvidence[], entry: (a: AnalysisEvidence) => [heading: string, text: string], more: string): string {
  const shown = named.slice(0, SHOWN_CHOICES).map((a) => {
    const [heading, text] = entry(a);
    return ` ${heading}: ${text.length > SHOWN_REASON_CHARS ? `${text.slice(0, SHOWN_REASON_CHARS)}…` : text}`;
  });
  const rest = named.length - shown.length;
  return `${shown.join('')}${rest > 0 ? ` ${rest} more ${more}.` : ''}`;
}

/** The single-gauge choices the linked analyses recorded, with their reasons. */
const gaugeChoices = (analyses: AnalysisEvidence[]) => namedAnalyses(
  analyses.filter((a) => a.gauge_selection?.method === 'single_gauge'),
  (a) => [`Analysis ${a.analysis_id} used one gauge (${list(a.gauges)}) by a recorded choice`, a.gauge_selection!.reason],
  'analyses used one gauge by a recorded choice',
);

/** The linked analyses whose gauge choice came with cautions (a gauge on another coast, the single-gauge exception open). */
const gaugeCautions = (analyses: AnalysisEvidence[]) => namedAnalyses(
  analyses.filter((a) => (a.gauge_selection?.cautions ?? []).length > 0),
  (a) => [`Analysis ${a.analysis_id}, gauge cautions`, a.gauge_selection!.cautions!.join(' ')],
  'analyses had gauge cautions',
);

/** The linked analyses whose tidal MHHW differs from the local NOAA stations', with the check's note. */
const datumCaveats = (analyses: AnalysisEvidence[]) => namedAnalyses(
  analyses.filter((a) => a.tidal_datum_check?.status === 'differs'),
  (a) => [`Analysis ${a.analysis_id}, local datum check`, a.tidal_datum_check!.note],
  'analyses found the local MHHW different',
);

/** The first word of a DEM's name (e.g. "SRTM"), the part a claim must name to match. */
const demToken = (name: string) => name.trim().split(/[\s(,]+/)[0]!.toLowerCase();

/** What the linked imports brought, said after the inventory check (nothing without an assessment). */
function linkedImports(imports: ImportEvidence[] | undefined): string {
  if (imports === undefined) return '';
  if (imports.length === 0) return ' No asset import is linked to this assessment (assessment_id on POST /assets/import).';
  const complete = imports.filter((i) => i.status === 'complete');
  const accepted = complete.reduce((sum, i) => sum + (i.asset_count ?? 0), 0);
  const files = imports.map((i) => `${i.filename}: ${i.status === 'complete' ? `${i.asset_count ?? 0} assets` : i.status}`).join('; ');
  return ` ${imports.length} asset import${imports.length === 1 ? '' : 's'} linked to this assessment, ${complete.length} complete with ${accepted} assets accepted (${files}).`;
}

/** What each source of surge levels is, in words, with the gauges or layers it came from. */
const SURGE_SOURCE_WORDS: Record<string, string> = {
  tide_gauge_gev: 'this API\'s GEV fit to tide-gauge annual maxima (tide_gauge_gev)',
  loaded_layers: 'loaded surge layers',
};

/**
 * The surge sources the linked analyses produced results from (evidence kept before sources were
 * recorded has none), and the claimed `data_source` set against them: NOAA or FEMA must be named by
 * a loaded layer's source, `tide_gauge_gev` must be the gauge fit; `other` is the caller's description.
 */
function withSurgeSource(check: EvidenceCheck, methodology: Methodology, analyses: AnalysisEvidence[]): EvidenceCheck {
  const produced = analyses.flatMap((a) => a.components.filter((c) => c.component === 'surge' && c.source && (c.status === 'ok' || c.status === 'partial')));
  if (produced.length === 0) return check;
  const sources = [...new Set(produced.map((c) => `${SURGE_SOURCE_WORDS[c.source!] ?? c.source}${c.source_detail?.length ? ` (${list([...new Set(c.source_detail)])})` : ''}`))];
  const found = `the surge levels of ${ran(analyses)} came from ${sources.join('; ')}`;
  const claimed = methodology.flood_components?.storm_surge;
  const source = claimed?.analysed ? claimed.data_source : undefined;
  const consistent = source === undefined || source === 'other'
    || produced.some((c) => (source === 'tide_gauge_gev'
      ? c.source === 'tide_gauge_gev'
      : c.source === 'loaded_layers' && (c.source_detail ?? []).some((name) => name.toLowerCase().includes(source))));
  if (consistent) return { ...check, detail: `${check.detail} ${sentence(found)}.` };
  const contradiction = { field: 'methodology.flood_components.storm_surge.data_source', claimed: source, found };
  return { status: 'contradicted', detail: `${check.status === 'contradicted' ? `${check.detail} ` : ''}${contradiction.field}: claimed ${source}; ${found}.`, contradictions: [...check.contradictions, contradiction] };
}

function checkKind(kind: Kind, methodology: Methodology, evidence: ComplianceEvidence): EvidenceCheck {
  const { analyses, assets } = evidence;
  switch (kind) {
    case 'critical_assets': {
      const claimed = methodology.critical_assets?.asset_count;
      const imports = linkedImports(evidence.imports);
      if (assets.total === 0) return attested(`The API holds no assets for ${evidence.jurisdiction_name}; import the inventory (POST /assets/import) to check the count.${imports}`);
      const categories = Object.entries(assets.by_category).sort().map(([c, n]) => `${c} ${n}`).join(', ');
      if (claimed === undefined) return attested(`The API holds ${assets.total} assets for ${evidence.jurisdiction_name} (${categories}).${imports}`);
      const check = checked(
        claimed === assets.total ? [] : [{ field: 'methodology.critical_assets.asset_count', claimed: String(claimed), found: `the API holds ${assets.total} assets for ${evidence.jurisdiction_name} (${categories})` }],
        `${assets.total} assets held for ${evidence.jurisdiction_name} (${categories}), as stated.`,
      );
      return { ...check, detail: `${check.detail}${imports}` };
    }
    case 'dem': {
      const dem = methodology.dem;
      const used = [...new Set(analyses.filter((a) => a.elevation.source_name && a.elevation.status !== 'not_covered').map((a) => a.elevation.source_name!))];
      if (analyses.length === 0) return attested(NO_ANALYSES);
      if (used.length === 0) return attested(`No elevation data covered ${ran(analyses)}.`);
      if (!dem) return attested(`${ran(analyses)} used ${list(used)}.`);
      const claim = dem.source.toLowerCase();
      const unmatched = used.filter((name) => !claim.includes(demToken(name)) && !name.toLowerCase().includes(claim));
      return checked(
        unmatched.length === 0 ? [] : [{ field: 'methodology.dem.source', claimed: `"${dem.source}" (${dem.year})`, found: `${ran(analyses)} used ${list(unmatched)}` }],
        `${ran(analyses)} used ${list(used)}, as stated.`,
      );
    }
    case 'tidal_depth':
    case 'storm_surge':
    case 'rainfall':
    case 'compound': {
      const spec = COMPONENT_OF[kind]!;
      if (analyses.length === 0) return attested(NO_ANALYSES);
      const outcomes = analyses.flatMap((a) => a.components.filter((c) => c.component === spec.component).map((c) => c.status));
      const produced = outcomes.some((status) => PRODUCED_RESULTS.has(status));
      const found = outcomes.length === 0 ? `${ran(analyses)} did not run it` : `${ran(analyses)} ran it without results (status ${list([...new Set(outcomes)])})`;
      const check = !spec.claim(methodology)
        ? attested(produced ? `${ran(analyses)} produced ${spec.label} results.` : `Not claimed; ${ran(analyses)} produced no ${spec.label} results.`)
        : checked(produced ? [] : [{ field: `methodology.flood_components.${spec.component === 'surge' ? 'storm_surge' : spec.component}.analysed`, claimed: 'true', found }], `${ran(analyses)} produced ${spec.label} results.`);
      if (kind === 'storm_surge') return withSurgeSource(check, methodology, analyses);
      // The tidal figures stand on the gauges' MHHW: where the stations nearby disagree, the item says so.
      return kind === 'tidal_depth' ? { ...check, detail: `${check.detail}${datumCaveats(analyses)}` } : check;
    }
    case 'slr_scenarios': {
      const slr = methodology.sea_level_rise;
      if (analyses.length === 0) return attested(NO_ANALYSES);
      const analysed = [...new Set(analyses.flatMap((a) => a.scenarios))];
      if (!slr) return attested(`${ran(analyses)} analysed ${list(analysed)} (NOAA 2022).`);
      const contradictions: Contradiction[] = [];
      if (slr.scenario_family !== 'noaa_2022') contradictions.push({ field: 'methodology.sea_level_rise.scenario_family', claimed: slr.scenario_family, found: `${ran(analyses)} used the NOAA 2022 scenarios` });
      const missing = slr.scenarios.filter((s) => !analysed.includes(s));
      if (missing.length > 0) contradictions.push({ field: 'methodology.sea_level_rise.scenarios', claimed: list(slr.scenarios), found: `${list(missing)} never analysed (${ran(analyses)}: ${list(analysed)})` });
      return checked(contradictions, `Scenarios ${list(slr.scenarios)} analysed.`);
    }
    case 'planning_horizons': {
      const horizons = methodology.sea_level_rise?.planning_horizons;
      if (analyses.length === 0) return attested(NO_ANALYSES);
      const analysed = [...new Set(analyses.flatMap((a) => a.planning_horizons))].sort();
      if (!horizons) return attested(`${ran(analyses)} analysed ${list(analysed)}.`);
      const missing = horizons.filter((h) => !analysed.includes(h));
      return checked(
        missing.length === 0 ? [] : [{ field: 'methodology.sea_level_rise.planning_horizons', claimed: list(horizons), found: `${list(missing)} never analysed (${ran(analyses)}: ${list(analysed)})` }],
        `Horizons ${list(horizons)} analysed.`,
      );
    }
    case 'tide_gauges': {
      const stations = methodology.tide_gauges?.station_ids;
      if (analyses.length === 0) return attested(NO_ANALYSES);
      const used = [...new Set(analyses.flatMap((a) => a.gauges))];
      const named = `${gaugeChoices(analyses)}${gaugeCautions(analyses)}`;
      if (!stations || used.length === 0) return attested(`${used.length > 0 ? `${ran(analyses)} used NOAA gauges ${list(used)}.` : 'No gauge recorded by the analyses.'}${named}`);
      const unused = stations.filter((s) => !used.includes(s));
      const contradictions: Contradiction[] = unused.length === 0 ? [] : [{ field: 'methodology.tide_gauges.station_ids', claimed: list(stations), found: `${ran(analyses)} used NOAA gauges ${list(used)}` }];
      // A single gauge is a recorded judgement (s. 380.093(3)(d)): claiming one while the analyses interpolated is a contradiction.
      const interpolated = analyses.filter((a) => a.gauge_selection && a.gauge_selection.method !== 'single_gauge');
      if (methodology.tide_gauges?.single_gauge_rationale && interpolated.length > 0) {
        contradictions.push({ field: 'methodology.tide_gauges.single_gauge_rationale', claimed: 'one gauge', found: `${ran(interpolated)} interpolated between gauges ${list([...new Set(interpolated.flatMap((a) => a.gauges))])}` });
      }
      return checked(contradictions, `NOAA gauges ${list(stations)} used by ${ran(analyses)}.${named}`);
    }
    default:
      return attested('The caller\'s statement; the API holds no evidence for this item.');
  }
}

/** The evidence check of each check kind the rule set uses. */
export function crossCheck(kinds: readonly Kind[], methodology: Methodology, evidence: ComplianceEvidence): Map<Kind, EvidenceCheck> {
  return new Map(kinds.map((kind) => [kind, checkKind(kind, methodology, evidence)]));
}

/** What the API holds for a jurisdiction, and the analyses linked to an assessment when one is named. */
export async function gatherEvidence(
  deps: { assets: AssetCounter; evidence: EvidenceStore },
  accountId: string,
  jurisdiction: { id: string; display_name: string },
  assessmentId?: string,
): Promise<ComplianceEvidence> {
  const [assets, analyses, imports] = await Promise.all([
    deps.assets.countByCategory(accountId, jurisdiction.id),
    assessmentId ? deps.evidence.listAnalyses(accountId, assessmentId) : Promise.resolve([]),
    assessmentId ? deps.evidence.listImports(accountId, assessmentId) : Promise.resolve(undefined),
  ]);
  return { jurisdiction_id: jurisdiction.id, jurisdiction_name: jurisdiction.display_name, assets, analyses, ...(imports ? { imports } : {}) };
}
