import { randomBytes } from 'node:crypto';
import { ConflictError, InvalidInputError } from '../errors';
import type { BlobStore } from '../../ports';
import type { AssessmentStore } from '../assessments/ports';
import type { AssetStore } from '../assets/ports';
import { applyExposurePages, type AppliedSummary } from '../hazards/exposure-application';
import type { AnalysedSurfaces } from '../hazards/flood-analysis';
import { componentExtents, inundationExtents, type ComponentExtent, type InundationExtent } from '../hazards/inundation-extents';
import { jurisdictionBoundary } from './jurisdiction-boundary';
import type { OfficialBoundary } from '../jurisdiction-boundaries';
import type { AnalysisEvidence, ComponentEvidence, EvidenceStore } from './ports';

/**
 * What a flood analysis does beyond its answer: with `apply_to_assets` it writes every analysed
 * asset's exposure and vulnerability onto the asset (a page of assets at a time), and with `assessment_id` it
 * records what it ran as the assessment's evidence (with its answer and inundation extents for
 * the deliverables).
 */
export interface AnalysisLink {
  assessment_id?: string;
  apply_to_assets?: boolean;
  boundary_source: 'jurisdiction' | 'boundary_geojson';
  jurisdiction_id: string | null;
}

export interface AnalysisLinkDeps {
  assessments: Pick<AssessmentStore, 'get'>;
  evidence: EvidenceStore;
  blobs: BlobStore;
  assets: Pick<AssetStore, 'list' | 'applyExposures'>;
  clock: () => Date;
}

/** `component_extents` is stored beside `extents` (its key follows from the analysis, as evidence kept before it has none). */
export const evidenceDocumentKey = (accountId: string, assessmentId: string, analysisId: string, name: 'result' | 'extents' | 'component_extents') =>
  `evidence/${accountId}/${assessmentId}/${analysisId}/${name}.json`;

/** 404 for an assessment of another account or none; 409 for a submitted (frozen) one. */
export async function requireLinkableAssessment(deps: Pick<AnalysisLinkDeps, 'assessments'>, accountId: string, assessmentId: string): Promise<void> {
  const assessment = await deps.assessments.get(accountId, assessmentId);
  if (!assessment) {
    throw new InvalidInputError(`No assessment ${assessmentId} in this account.`, [{ field: 'assessment_id', in: 'body', message: 'Unknown assessment' }]);
  }
  if (assessment.status === 'submitted') throw new ConflictError(`Assessment ${assessmentId} was submitted and is frozen; no analysis can be added to its evidence.`);
}

export type { AppliedSummary };

export class AnalysisFollowUp {
  private analysed: AnalysedSurfaces | undefined;
  private extents: InundationExtent[] | undefined;
  private componentExtents: ComponentExtent[] | undefined;
  private readonly analysedAt: string;

  constructor(private readonly deps: AnalysisLinkDeps, private readonly accountId: string, readonly analysisId: string, private readonly link: AnalysisLink) {
    this.analysedAt = deps.clock().toISOString();
  }

  get active(): boolean {
    return Boolean(this.link.apply_to_assets || this.link.assessment_id);
  }

  /** The hook the analysis calls with its surfaces. */
  readonly onSurfaces = (analysed: AnalysedSurfaces): void => {
    if (this.link.apply_to_assets) {
      this.analysed = analysed;
    }
    if (this.link.assessment_id) {
      this.extents = inundationExtents(analysed);
      this.componentExtents = componentExtents(analysed);
    }
  };

  /** Writes exposures and evidence after the analysis; returns the fields added to its answer. */
  async finish(result: Record<string, unknown>): Promise<Record<string, unknown>> {
    const applied = this.link.apply_to_assets ? await this.applyToAssets() : null;
    const fields = {
      analysis_id: this.analysisId,
      assessment_id: this.link.assessment_id ?? null,
      ...(applied ? { applied_to_assets: applied } : {}),
    };
    if (this.link.assessment_id) await this.recordEvidence(this.link.assessment_id, { ...result, ...fields }, applied);
    return fields;
  }

  private applyToAssets(): Promise<AppliedSummary> {
    const meta = { analysisId: this.analysisId, assessmentId: this.link.assessment_id ?? null, analysedAt: this.analysedAt };
    return applyExposurePages(this.deps.assets, this.accountId, this.analysed, meta, this.deps.clock());
  }

  private async recordEvidence(assessmentId: string, answer: Record<string, unknown>, applied: AppliedSummary | null): Promise<void> {
    const resultKey = evidenceDocumentKey(this.accountId, assessmentId, this.analysisId, 'result');
    await this.deps.blobs.put(resultKey, JSON.stringify(answer), 'application/json');
    let extentsKey: string | null = null;
    if (this.extents) {
      extentsKey = evidenceDocumentKey(this.accountId, assessmentId, this.analysisId, 'extents');
      await this.deps.blobs.put(extentsKey, JSON.stringify(this.extents), 'application/json');
    }
    if (this.componentExtents) {
      await this.deps.blobs.put(evidenceDocumentKey(this.accountId, assessmentId, this.analysisId, 'component_extents'), JSON.stringify(this.componentExtents), 'application/json');
    }
    await this.deps.evidence.putAnalysis(this.accountId, evidenceOf(answer, {
      analysisId: this.analysisId, assessmentId, analysedAt: this.analysedAt, link: this.link, applied, resultKey, extentsKey,
    }));
  }
}

interface ComponentShape {
  status?: string;
  basis?: string;
  local_datum_check?: { status?: string; note?: string };
  gauge?: { noaa_id?: string; name?: string };
  layers?: { source?: string; name?: string }[];
  results?: { return_period_years?: number; tidal_flood_days_per_year?: unknown }[];
}

/** Answer bases by the name the checklist gives their source: the gauge statistics are what they are, a GEV fit. */
const SOURCE_OF_BASIS: Record<string, string> = { tide_gauge_statistics: 'tide_gauge_gev', loaded_layers: 'loaded_layers' };

/** A component's outcome with where its levels came from and the events it produced (read defensively). */
function componentEvidence(component: string, value: ComponentShape | undefined): ComponentEvidence {
  const source = value?.basis ? SOURCE_OF_BASIS[value.basis] ?? value.basis : undefined;
  const detail = source === 'tide_gauge_gev'
    ? [value?.gauge?.noaa_id ? `NOAA ${value.gauge.noaa_id}${value.gauge.name ? ` ${value.gauge.name}` : ''}` : ''].filter(Boolean)
    : [...new Set((value?.layers ?? []).map((l) => l.source ?? l.name ?? '').filter(Boolean))];
  const periods = [...new Set((value?.results ?? []).map((r) => r.return_period_years).filter((rp): rp is number => typeof rp === 'number'))].sort((a, b) => a - b);
  return {
    component,
    status: value?.status ?? 'unknown',
    ...(source ? { source, source_detail: detail } : {}),
    ...(periods.length > 0 ? { return_periods_years: periods } : {}),
    ...(component === 'tidal' && value?.results?.length ? { flood_days_reported: value.results.every((r) => r.tidal_flood_days_per_year) } : {}),
  };
}

interface ResultShape {
  boundary?: { area?: { km2?: number }; counties?: { name?: string; fips?: string }[] | string[] };
  scenarios?: string[];
  planning_horizons?: number[];
  components?: Record<string, ComponentShape>;
  elevation?: { status?: string; source?: { name?: string; native_resolution?: string; elevation_model_id?: string }; cell_size_m?: number };
  gauge_selection?: { method?: string; reason?: string; gauges?: { noaa_id?: string }[]; cautions?: unknown };
  assets?: { inside_boundary?: number };
}

/** The evidence summary of an analysis answer (read defensively: the answer is the hazards module's). */
export function evidenceOf(answer: Record<string, unknown>, meta: {
  analysisId: string; assessmentId: string; analysedAt: string; link: AnalysisLink; applied: AppliedSummary | null; resultKey: string; extentsKey: string | null;
}): AnalysisEvidence {
  const result = answer as ResultShape;
  const counties = (result.boundary?.counties ?? []).map((c) => (typeof c === 'string' ? c : c.name ?? c.fips ?? '')).filter(Boolean);
  const datumCheck = result.components?.tidal?.local_datum_check;
  const selection = result.gauge_selection;
  const cautions = Array.isArray(selection?.cautions) ? selection.cautions.filter((c): c is string => typeof c === 'string') : [];
  return {
    analysis_id: meta.analysisId,
    assessment_id: meta.assessmentId,
    analysed_at: meta.analysedAt,
    boundary: { source: meta.link.boundary_source, jurisdiction_id: meta.link.jurisdiction_id, area_km2: result.boundary?.area?.km2 ?? null, counties },
    components: Object.entries(result.components ?? {}).map(([component, value]) => componentEvidence(component, value)),
    scenarios: result.scenarios ?? [],
    planning_horizons: result.planning_horizons ?? [],
    elevation: {
      status: result.elevation?.status ?? 'unknown',
      source_name: result.elevation?.source?.name ?? null,
      native_resolution: result.elevation?.source?.native_resolution ?? null,
      cell_size_m: result.elevation?.cell_size_m ?? null,
      ...(result.elevation?.source?.elevation_model_id ? { elevation_model_id: result.elevation.source.elevation_model_id } : {}),
    },
    gauges: (selection?.gauges ?? []).map((g) => g.noaa_id ?? '').filter(Boolean),
    ...(selection?.method ? { gauge_selection: { method: selection.method, reason: selection.reason ?? '', ...(cautions.length > 0 ? { cautions } : {}) } } : {}),
    ...(datumCheck?.status ? { tidal_datum_check: { status: datumCheck.status, note: datumCheck.note ?? '' } } : {}),
    assets_inside: result.assets?.inside_boundary ?? 0,
    assets_applied: meta.applied?.assets_written ?? null,
    result_key: meta.resultKey,
    extents_key: meta.extentsKey,
  };
}

/**
 * The area an analysis request names (a drawn boundary, or a county or municipality: the account's
 * `official` boundary for it when it stored one) and its links.
 */
export function analysisTarget(body: { boundary_geojson?: unknown; jurisdiction?: string; assessment_id?: string; apply_to_assets?: boolean }, official?: OfficialBoundary): { geometry: unknown; link: AnalysisLink } {
  const flags = { assessment_id: body.assessment_id, apply_to_assets: body.apply_to_assets };
  if (body.jurisdiction !== undefined) {
    const { jurisdiction, geometry } = jurisdictionBoundary({ jurisdiction: body.jurisdiction }, official);
    return { geometry, link: { ...flags, boundary_source: 'jurisdiction', jurisdiction_id: jurisdiction.id } };
  }
  return { geometry: body.boundary_geojson, link: { ...flags, boundary_source: 'boundary_geojson', jurisdiction_id: null } };
}

/**
 * Runs an analysis with its links: the follow-up hooks into the analysis and, once it is done,
 * writes exposures and evidence and adds their fields to the answer. Without links, the answer
 * is the analysis's own.
 */
export async function runLinkedAnalysis<R extends object>(
  deps: AnalysisLinkDeps,
  accountId: string,
  link: AnalysisLink | undefined,
  analyse: (onSurfaces: ((analysed: AnalysedSurfaces) => void) | undefined) => Promise<R>,
): Promise<R> {
  const followUp = link ? new AnalysisFollowUp(deps, accountId, `fa_${randomBytes(12).toString('base64url')}`, link) : undefined;
  if (!followUp?.active) return analyse(undefined);
  const result = await analyse(followUp.onSurfaces);
  return { ...result, ...(await followUp.finish(result as Record<string, unknown>)) };
}
