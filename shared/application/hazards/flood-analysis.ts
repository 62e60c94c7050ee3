import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { InvalidInputError, invalidField, NotFoundError } from '../../domain/errors';
import type { FloodAnalysisBody } from '../../schemas/hazards';
import { logger } from '../../observability/logger';
import { validateBoundary, type ValidBoundary } from '../../domain/hazards/boundary';
import { analyzeFlooding, estimateFloodAnalysisWork, nativePassCells, SYNC_WORK_BUDGET, TIME_LIMITED_WORK, type FloodAnalysisRequest } from '../../domain/hazards/flood-analysis';
import type { HazardJob } from '../../domain/hazards/jobs';
import { statuteDefaults } from '../../domain/hazards/statute';
import type { FloodComponent, ScenarioId } from '../../domain/hazards/vocabulary';
import type { TidePredictor } from '../../domain/hazards/tide-flood-days';
import type { MultiPolygon, Polygon } from 'geojson';
import type { DesignStorm } from '../../domain/hazards/rainfall-ponding';
import { designStorm, storedStormFor } from './design-storms';
import { forAccount, type HazardDeps, type HazardWorkerDeps } from './ports';
import { gaugeChoiceParam } from './gauge-choice';
import { floridaYear } from './slr-impact';
import { resolveApplicant } from '../../domain/compliance/inputs';
import { analysisTarget, requireLinkableAssessment, runLinkedAnalysis, type AnalysisLink } from '../../domain/deliverables/analysis-link';
import { jobFailureOf } from '../../domain/job-failure';

/** What a job stores to replay the analysis. */
interface StoredAnalysisRequest {
  boundary_geojson: Polygon | MultiPolygon;
  components: FloodComponent[];
  scenarios: ScenarioId[];
  planning_horizons: number[];
  /** Assessment link and `apply_to_assets` (absent in jobs stored before they existed). */
  link?: AnalysisLink;
  /** Inundated extents as GeoJSON in the answer. */
  include_extents?: boolean;
  /** The caller's single-gauge choice (s. 380.093(3)(d) exception), replayed by the job. */
  gauge_choice?: { gauge_method: 'single'; representative_gauge: string; gauge_choice_reason: string };
  /** The caller's design storm, as the domain takes it (depth in mm). */
  rainfall?: DesignStorm;
  /** The caller's `allow_surface_model: true` (absent: bare earth only). */
  allow_surface_model?: true;
}

function boundaryOrError(geometry: Polygon | MultiPolygon): ValidBoundary {
  const validation = validateBoundary(geometry);
  if (!validation.ok) throw new InvalidInputError(validation.errors.map((e) => e.message).join(' '), validation.errors);
  return validation.boundary;
}

function analysisRequest(stored: StoredAnalysisRequest, boundary: ValidBoundary, now: Date): FloodAnalysisRequest {
  const centre = { lon: (boundary.bbox[0] + boundary.bbox[2]) / 2, lat: (boundary.bbox[1] + boundary.bbox[3]) / 2 };
  const selection = stored.gauge_choice ? gaugeChoiceParam(centre, stored.gauge_choice, 'body') : undefined;
  return {
    boundary, components: stored.components, scenarios: stored.scenarios, horizons: stored.planning_horizons, selection,
    currentYear: floridaYear(now), includeExtents: stored.include_extents === true, rainfall: stored.rainfall, allowSurfaceModel: stored.allow_surface_model === true,
  };
}

/** What `POST /hazards/flood-analysis` answers: the analysis, or the job it was handed to and why. */
export type FloodAnalysisOutcome = { result: unknown } | { job: { job_id: string; status: HazardJob['status'] }; reason: string };

/**
 * `POST /hazards/flood-analysis` for one account (deps from `forAccount`): answered at once when
 * the work fits the API's time limit, else recorded as a job and started.
 */
export async function floodAnalysis(deps: HazardDeps, accountId: string, body: z.output<ReturnType<typeof FloodAnalysisBody>>, now: Date): Promise<FloodAnalysisOutcome> {
  const official = body.jurisdiction === undefined ? undefined : await deps.boundaries().get(accountId, resolveApplicant({ jurisdiction: body.jurisdiction }).id);
  const target = analysisTarget(body, official);
  const boundary = boundaryOrError(target.geometry as Polygon | MultiPolygon);
  const defaults = statuteDefaults(body.assessment_year ?? now.getUTCFullYear());
  const horizons = body.planning_horizons ?? defaults.horizons;
  if (horizons.some((y) => y > 2150)) {
    const message = 'The default horizons (assessment year + 20 and + 50) pass 2150, the end of the NOAA 2022 projections; give planning_horizons.';
    throw invalidField('assessment_year', 'body', message);
  }
  // The storm sent, else the account's stored one for the jurisdiction analysed.
  const rainfall = body.rainfall ? designStorm(body.rainfall) : await storedStormFor(deps, accountId, target.link.jurisdiction_id);
  const stored: StoredAnalysisRequest = {
    boundary_geojson: boundary.geometry,
    components: body.components,
    scenarios: body.scenarios ?? defaults.scenarios,
    planning_horizons: horizons,
    link: target.link,
    ...(body.include_extents ? { include_extents: true } : {}),
    ...(body.allow_surface_model ? { allow_surface_model: true as const } : {}),
    ...(rainfall ? { rainfall } : {}),
    ...(body.gauge_method === 'single'
      ? { gauge_choice: { gauge_method: 'single' as const, representative_gauge: body.representative_gauge!, gauge_choice_reason: body.gauge_choice_reason! } }
      : {}),
  };
  if (target.link.assessment_id) await requireLinkableAssessment(deps.analysisLink(), accountId, target.link.assessment_id);
  const analysis = analysisRequest(stored, boundary, now);
  // A DEM finer than the analysis grid adds a native-resolution pass (a 1 m lidar model: a million cells a km²).
  const nativeCells = nativePassCells(deps.elevation(), boundary.bbox);
  if (estimateFloodAnalysisWork(analysis, 0, nativeCells) > SYNC_WORK_BUDGET) {
    return startJob(deps, accountId, stored, `The boundary covers ${Math.round(boundary.area_km2)} km²; the analysis exceeds what can be answered within the API time limit.`);
  }
  // The maintained count, not the inventory: deciding takes the same time for 10 assets or 100,000.
  const assetCount = await deps.assets().countAssets(accountId);
  const work = estimateFloodAnalysisWork(analysis, assetCount, nativeCells);
  if (work > SYNC_WORK_BUDGET) {
    return startJob(deps, accountId, stored, `The account has ${assetCount} assets; the analysis exceeds what can be answered within the API time limit.`);
  }
  const assets = await deps.assets().listAssets(accountId);
  const run = (progress: (fraction: number) => void, checkpoint: () => void) => runLinkedAnalysis(deps.analysisLink(), accountId, stored.link, (onSurfaces) =>
    analyzeFlooding(analysis, { elevation: deps.elevation(), layers: deps.layers(), tides: stoppingTides(deps.tides, checkpoint), assets, onSurfaces, progress }));
  const result = work > TIME_LIMITED_WORK ? await withinTimeLimit(run) : await run(() => undefined, () => undefined);
  if (result === LATE) {
    return startJob(deps, accountId, stored, 'The analysis takes longer than can be answered within the API time limit (uncached tide predictions or a loaded server).');
  }
  return { result };
}

/**
 * Time an immediate analysis may take before it is handed to a job: API Gateway ends a request at
 * 29 s, and the work estimate cannot foresee tide predictions not yet cached or a loaded machine.
 */
export const SYNC_TIME_LIMIT_MS = 15_000;
export const LATE = Symbol('late');

class AnalysisAbandoned extends Error {}

/**
 * Tide predictions that stop an abandoned analysis before it starts another year of predictions
 * (seconds of synchronous work each), so the job it was handed to gets the event loop. The check
 * comes first in a year's computation: a shared cached year is never failed half-way.
 */
function stoppingTides(tides: TidePredictor, checkpoint: () => void): TidePredictor {
  return {
    highWaters: (gauge, start, end) => tides.highWaters(gauge, start, end),
    levelsAt: async (gauge, times) => {
      checkpoint();
      return tides.levelsAt(gauge, times);
    },
  };
}

/**
 * Runs an analysis, or gives up on it once the time limit passes: the analysis then stops at its
 * next progress step, before it has stored anything, and the caller starts a job instead. Once the
 * analysis has reached its end it is always awaited, so a linked analysis is stored exactly once.
 */
export async function withinTimeLimit<R>(
  run: (progress: (fraction: number) => void, checkpoint: () => void) => Promise<R>,
  limitMs = SYNC_TIME_LIMIT_MS,
): Promise<R | typeof LATE> {
  // An object: the analysis changes the state while this function awaits.
  const analysisState: { state: 'running' | 'finishing' | 'abandoned' } = { state: 'running' };
  const checkpoint = () => {
    if (analysisState.state === 'abandoned') throw new AnalysisAbandoned('Handed to a job.');
  };
  const progress = (fraction: number) => {
    checkpoint();
    if (fraction >= 1) analysisState.state = 'finishing';
  };
  const analysis = run(progress, checkpoint);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => { timer = setTimeout(() => resolve(LATE), limitMs); });
  try {
    const first = await Promise.race([analysis, late]);
    if (first !== LATE || analysisState.state === 'finishing') return await analysis;
    analysisState.state = 'abandoned';
    analysis.catch((error: unknown) => {
      if (!(error instanceof AnalysisAbandoned)) logger.warn('Abandoned immediate flood analysis failed', { error: error as Error });
    });
    return LATE;
  } finally {
    clearTimeout(timer);
  }
}

async function startJob(deps: HazardDeps, accountId: string, stored: StoredAnalysisRequest, reason: string): Promise<FloodAnalysisOutcome> {
  const jobId = `hjob_${randomBytes(12).toString('base64url')}`;
  const now = deps.clock().toISOString();
  const job: HazardJob = {
    job_id: jobId,
    account_id: accountId,
    kind: 'flood_analysis',
    status: 'queued',
    progress: 0,
    created_at: now,
    updated_at: now,
    request_key: await deps.jobs().putDocument(accountId, jobId, 'request', stored),
    error: null,
    result_key: null,
  };
  await deps.jobs().create(job);
  await deps.jobRunner().start(job);
  return { job: { job_id: jobId, status: job.status }, reason };
}

/**
 * Runs a queued job once (the status transition is conditional), recording progress, the result
 * or a failure without internals.
 */
export async function runFloodAnalysisJob(deps: HazardWorkerDeps, job: Pick<HazardJob, 'account_id' | 'job_id'>): Promise<void> {
  const store = deps.jobs();
  const { account_id: accountId, job_id: jobId } = job;
  if (!(await store.start(accountId, jobId, 0.05, deps.clock()))) return;
  try {
    const current = await store.get(accountId, jobId);
    const stored = await store.getDocument(current!.request_key) as StoredAnalysisRequest;
    const boundary = boundaryOrError(stored.boundary_geojson);
    const assets = await deps.assets().listAssets(accountId);
    const result = await runLinkedAnalysis(deps.analysisLink(), accountId, stored.link, (onSurfaces) => analyzeFlooding(analysisRequest(stored, boundary, deps.clock()), {
      onSurfaces,
      elevation: deps.elevation(),
      layers: deps.layers(),
      tides: deps.tides,
      assets,
      progress: async (fraction) => { await store.progress(accountId, jobId, Math.min(0.95, 0.1 + fraction * 0.85), deps.clock()); },
    }));
    const resultKey = await store.putDocument(accountId, jobId, 'result', result);
    await store.finish(accountId, jobId, { result_key: resultKey }, deps.clock());
  } catch (error) {
    const refusal = jobFailureOf(error);
    if (!refusal) logger.error('Flood analysis job failed', { jobId, error: error as Error });
    await store.finish(accountId, jobId, {
      error: refusal ?? { code: 'internal_error', detail: `The analysis failed. Quote the job id ${jobId} when reporting it.` },
    }, deps.clock());
  }
}

/** A queued analysis runs with its account's elevation models, like the request that queued it. */
export async function runAccountFloodAnalysisJob(deps: HazardWorkerDeps, job: Pick<HazardJob, 'account_id' | 'job_id'>): Promise<void> {
  await runFloodAnalysisJob(await forAccount(deps, job.account_id), job);
}

/** `GET /hazards/jobs/{job_id}`: the job, with its result once it succeeded. */
export async function hazardJobView(deps: Pick<HazardDeps, 'jobs'>, accountId: string, jobId: string) {
  const job = await deps.jobs().get(accountId, jobId);
  if (!job) throw new NotFoundError(`No hazard job ${jobId}.`);
  return {
    job_id: job.job_id,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    created_at: job.created_at,
    updated_at: job.updated_at,
    error: job.error,
    result: job.status === 'succeeded' && job.result_key ? await deps.jobs().getDocument(job.result_key) : null,
  };
}
