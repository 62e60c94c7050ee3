/**
 * Exposure of every analysed asset, from the design water surfaces of one flood analysis, and the
 * vulnerability score it feeds (DOMAIN §7):
 *
 *   depth(scenario, horizon)  = the deepest of the components' depths at the asset (`by_component`:
 *                               tidal, surge, rainfall, compound), ≥ 0 — the highest design water
 *                               level − ground, where the storm's ponding and the runoff held
 *                               against the sea count as levels too (surge and rainfall layers: the
 *                               100-year event)
 *   exposure                  = max over scenarios and horizons of
 *                               min(1, depth_ft / 3 ft) × horizon weight
 *                               (weight 1 within 20 years of the assessment year, 0.75 within 50, 0.5 beyond)
 *   sensitivity               = the assessor's earlier value for the asset, else the default of its category
 *   adaptive_capacity         = the assessor's earlier value for the asset, else 0 (none known)
 *   vulnerability             = exposure × sensitivity × (1 − adaptive_capacity)
 *
 * 3 ft is a screening convention of this API (about where FEMA depth-damage functions put the
 * loss of function of most facilities), not a statute figure.
 */
import type { AnalysedSurfaces, AssetSite } from './flood-analysis';
import type { WaterSurface } from './flood-surfaces';
import { isOpenWater } from './inundation';
import { FLOOD_COMPONENTS, type EXPOSURE_STATUSES, type FloodComponent, type NO_DEPTH_REASONS, type ScenarioId } from './vocabulary';
import { assetDatumCheck, type AssetDatumCheck } from './datum-check';
import { assessVulnerability, type HazardType, type VulnerabilityAssessment } from '../assets/vulnerability';

export const FULL_EXPOSURE_DEPTH_FT = 3;
export const HORIZON_WEIGHTS: readonly { within_years: number; weight: number }[] = [
  { within_years: 20, weight: 1 },
  { within_years: 50, weight: 0.75 },
  { within_years: Infinity, weight: 0.5 },
];
/** Default sensitivity (0–1) per statute category: the consequence of the asset failing. */
export const CATEGORY_SENSITIVITY: Readonly<Record<string, number>> = {
  critical_infrastructure: 0.9,
  community_emergency: 0.9,
  transportation: 0.8,
  natural_cultural_historical: 0.5,
  unclassified: 0.7,
};
export const DEFAULT_ADAPTIVE_CAPACITY = 0;

export const EXPOSURE_FORMULA = `exposure = max over scenarios and horizons of min(1, depth_ft / ${FULL_EXPOSURE_DEPTH_FT}) × horizon weight (1 within 20 years, 0.75 within 50, 0.5 beyond)`;

const FT_PER_M = 1 / 0.3048;
const ANALYSED_COMPONENTS = ['tidal', 'surge', 'rainfall'] as const;
type AnalysedComponent = (typeof ANALYSED_COMPONENTS)[number];

/**
 * Why an asset has no depth: `open_water` (the model shows water at it, so its ground is unknown),
 * `outside_model` (no elevation at it and none surveyed), `no_bare_earth` (only a surface model
 * covers it and the caller did not allow one), `not_connected` (no design water surface reaches it:
 * no tidal connection below the level over the whole model, or outside the loaded layers),
 * `above_water_level` (reached, but its ground is at or above the level).
 */
export type NoDepthReason = typeof NO_DEPTH_REASONS[number];

export interface ScenarioHorizonDepth {
  scenario: ScenarioId;
  planning_horizon: number;
  water_level_navd88_m: number | null;
  /** null when the ground elevation at the asset is unknown. */
  depth_m: number | null;
  depth_ft: number | null;
  /** The component whose level governs (highest, or deepest ponding), null when no component reaches the asset. */
  governing_component: ExposureComponent | null;
  /** Why the depth is null or 0; absent when the asset is under water. */
  reason?: NoDepthReason;
}

/** The four flood components of s. 380.093(3)(d); FLOOD_COMPONENTS is also the order a tie is decided in (see `governingComponent`). */
export type ExposureComponent = FloodComponent;
export type ComponentDepths = Record<ExposureComponent, number | null>;

/** The storm behind the rainfall and compound depths. */
export interface ComponentStorm {
  return_period_years: number;
  depth_mm: number | null;
  duration_h: number | null;
  source: string;
}

/** Each component's depth at the asset for one scenario × horizon (null: not analysed, or no ground). */
export interface ComponentDepthEntry {
  scenario: ScenarioId;
  planning_horizon: number;
  storm: ComponentStorm | null;
  depth_m: ComponentDepths;
  depth_ft: ComponentDepths;
  governing_component: ExposureComponent | null;
}

export interface AssetExposure {
  analysis_id: string;
  assessment_id: string | null;
  analysed_at: string;
  /** `existing_water`: the elevation model marks the asset's cell as open water, so its ground is unknown. */
  status: typeof EXPOSURE_STATUSES[number];
  ground_elevation_navd88_m: number | null;
  /** The ground used: `surveyed` or the elevation model's id; null without ground. */
  ground_source: string | null;
  components: AnalysedComponent[];
  depths: ScenarioHorizonDepth[];
  /** Each of the four components' depth per scenario × horizon, and the one that governs. */
  by_component: ComponentDepthEntry[];
  first_exposed_year: number | null;
  max_depth_ft: number | null;
  /** Why no depth in any scenario or horizon (absent when exposed): the reason of its depths, `above_water_level` if any was reached. */
  reason?: NoDepthReason;
  /** With tidal levels: the MHHW they stand on at the asset against the nearest NOAA station's. */
  tidal_datum_check?: AssetDatumCheck;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

interface SurfaceKey {
  component: AnalysedComponent;
  scenario: ScenarioId;
  year: number;
}

function parseKey(key: string): SurfaceKey | undefined {
  const [component, scenario, year] = key.split('|');
  if (!ANALYSED_COMPONENTS.includes(component as AnalysedComponent)) return undefined;
  return { component: component as AnalysedComponent, scenario: scenario as ScenarioId, year: Number(year) };
}

export interface ExposureMeta {
  analysisId: string;
  assessmentId: string | null;
  analysedAt: string;
}

/**
 * The exposure of one analysed site at a time: what every site shares (the surfaces keyed, the
 * scenarios × horizons, the components) is worked out once, so exposures can be computed a page
 * of assets at a time without holding them all.
 */
export function siteExposures(analysed: AnalysedSurfaces, meta: ExposureMeta): (site: AssetSite) => AssetExposure {
  const keyed = [...analysed.surfaces].flatMap(([key, surface]) => {
    const parsed = parseKey(key);
    return parsed ? [{ ...parsed, surface }] : [];
  });
  const asked = [...keyed.map((k) => ({ scenario: k.scenario, year: k.year })), ...(analysed.ponding?.scenarioHorizons ?? [])];
  const combos = [...new Map(asked.map((c) => [`${c.scenario}|${c.year}`, c])).values()]
    .sort((a, b) => a.year - b.year || a.scenario.localeCompare(b.scenario));
  // The storm's ponding on the grid is the rainfall component without a rainfall surface.
  const components = ANALYSED_COMPONENTS.filter((c) => keyed.some((k) => k.component === c) || (c === 'rainfall' && analysed.ponding !== undefined));
  return (site) => {
    const onWater = site.open_water ?? (analysed.model !== undefined && site.cell !== undefined && isOpenWater(analysed.model, site.cell));
    const ground = onWater ? undefined : site.ground;
    const byComponent = componentDepths(analysed, site, ground, keyed, combos);
    const exposure = onWater
      ? { ...exposureOf({ ...site, ground }, keyed, byComponent, components, meta, 'open_water'), by_component: byComponent, status: 'existing_water' as const }
      : { ...exposureOf(site, keyed, byComponent, components, meta, site.no_ground_reason ?? 'outside_model'), by_component: byComponent };
    const { lon, lat } = site.asset;
    return components.includes('tidal') ? { ...exposure, tidal_datum_check: assetDatumCheck({ lon, lat }, analysed.mhhwAt(lon, lat)) } : exposure;
  };
}

/** Each analysed asset's depth per scenario × horizon (the envelope of the components) and its first exposed year. */
export function assetExposures(analysed: AnalysedSurfaces, meta: ExposureMeta): Map<string, AssetExposure> {
  const exposureAt = siteExposures(analysed, meta);
  return new Map(analysed.sites.map((site) => [site.asset.asset_id, exposureAt(site)]));
}

/**
 * The component that governs: the one with the largest depth above 0. Ties go to the single
 * component before the compound one (compound governs only where the runoff held against the sea is
 * deeper than every component alone), and among single components to tidal, then surge, then
 * rainfall (the more frequent flooding first). Null when no component gives a depth above 0.
 */
export function governingComponent(depths: ComponentDepths): ExposureComponent | null {
  let governing: ExposureComponent | null = null;
  for (const component of FLOOD_COMPONENTS) {
    const depth = depths[component];
    if (depth !== null && depth > 0 && (governing === null || depth > depths[governing]!)) governing = component;
  }
  return governing;
}

/** The component governing the asset's deepest flooding over every scenario and horizon; null without a depth. */
export function governingOverall(byComponent: readonly Pick<ComponentDepthEntry, 'depth_m' | 'governing_component'>[]): ExposureComponent | null {
  let deepest: { component: ExposureComponent; depth: number } | null = null;
  for (const entry of byComponent) {
    const component = entry.governing_component;
    if (component && (deepest === null || entry.depth_m[component]! > deepest.depth)) deepest = { component, depth: entry.depth_m[component]! };
  }
  return deepest?.component ?? null;
}

const depthAbove = (level: number, ground: number) => Math.max(0, level - ground);

/**
 * Per scenario × horizon, each component's depth at the asset: tidal and surge from their design
 * surfaces, rainfall from the storm's ponding on the grid (or the rainfall layers), compound from the
 * ponding held against the coastal tailwater, never below the deepest component alone (without a storm
 * on the grid: that envelope, where two components or more were analysed). A ponded depth is the
 * ponded water surface of the asset's cell (cell ground + depth) above the asset's own ground.
 */
function componentDepths(
  analysed: AnalysedSurfaces,
  site: AssetSite,
  ground: number | undefined,
  keyed: (SurfaceKey & { surface: WaterSurface })[],
  combos: { scenario: ScenarioId; year: number }[],
): ComponentDepthEntry[] {
  const { ponding, model } = analysed;
  const cell = site.cell;
  const cellGround = cell === undefined || !model ? undefined : model.grid.values[cell];
  const pondedDepth = (depth: number | undefined) => {
    if (ground === undefined || cell === undefined || cellGround === undefined || Number.isNaN(cellGround) || depth === undefined) return null;
    return depth > 0 ? depthAbove(cellGround + depth, ground) : 0;
  };
  const storm: ComponentStorm | null = ponding
    ? { return_period_years: ponding.storm.return_period_years, depth_mm: ponding.storm.depth_mm, duration_h: ponding.storm.duration_h, source: ponding.storm.source }
    : keyed.some((k) => k.component === 'rainfall') ? { return_period_years: 100, depth_mm: null, duration_h: null, source: 'rainfall flood layers' } : null;
  return combos.map(({ scenario, year }) => {
    const surfaceDepth = (component: AnalysedComponent) => {
      const found = keyed.find((k) => k.component === component && k.scenario === scenario && k.year === year);
      if (!found || ground === undefined) return null;
      const level = found.surface.levelAtPoint(site.asset.lon, site.asset.lat, cell);
      return level === -Infinity ? 0 : depthAbove(level, ground);
    };
    const tidal = surfaceDepth('tidal');
    const surge = surfaceDepth('surge');
    const rainfall = ponding ? pondedDepth(cell === undefined ? undefined : ponding.rainfall[cell]) : surfaceDepth('rainfall');
    const singles = [tidal, surge, rainfall].filter((d): d is number => d !== null);
    const pondedCompound = ponding?.compoundAt && cell !== undefined ? pondedDepth(ponding.compoundAt(scenario, year, cell)) : null;
    const compound = pondedCompound !== null ? Math.max(pondedCompound, ...singles) : singles.length >= 2 ? Math.max(...singles) : null;
    const metres: ComponentDepths = { tidal, surge, rainfall, compound };
    const rounded = (scale: number, digits: number) => Object.fromEntries(FLOOD_COMPONENTS.map((c) => [c, metres[c] === null ? null : round(metres[c]! * scale, digits)])) as ComponentDepths;
    const depth_m = rounded(1, 3);
    return { scenario, planning_horizon: year, storm, depth_m, depth_ft: rounded(FT_PER_M, 2), governing_component: governingComponent(depth_m) };
  });
}

/**
 * The asset's depth per scenario × horizon: the highest design water surface over it, unless the
 * storm's ponding or the runoff held against the sea (`byComponent`) stands deeper there — then that
 * depth, its component and its water surface (the asset's ground + the depth).
 */
function exposureOf(
  site: AssetSite,
  keyed: (SurfaceKey & { surface: WaterSurface })[],
  byComponent: ComponentDepthEntry[],
  components: AnalysedComponent[],
  meta: ExposureMeta,
  /** Why there is no depth where the ground is unknown. */
  withoutGround: NoDepthReason,
): Omit<AssetExposure, 'by_component'> {
  const ground = site.ground;
  const depths = byComponent.map(({ scenario, planning_horizon: year, depth_m: componentDepth, governing_component: deepest }): ScenarioHorizonDepth => {
    let level = -Infinity;
    let governing: ExposureComponent | null = null;
    for (const k of keyed) {
      if (k.scenario !== scenario || k.year !== year) continue;
      const at = k.surface.levelAtPoint(site.asset.lon, site.asset.lat, site.cell);
      if (at > level) { level = at; governing = k.component; }
    }
    const deeper = ground === undefined || deepest === null ? undefined : componentDepth[deepest]!;
    if (deeper !== undefined && deeper > round(Math.max(0, level - ground!), 3)) {
      level = ground! + deeper;
      governing = deepest;
    }
    const reached = level !== -Infinity;
    const depth = ground === undefined ? null : reached ? Math.max(0, level - ground) : 0;
    const reason: NoDepthReason | undefined = ground === undefined ? withoutGround : !reached ? 'not_connected' : depth === 0 ? 'above_water_level' : undefined;
    return {
      scenario,
      planning_horizon: year,
      water_level_navd88_m: reached ? round(level, 3) : null,
      depth_m: depth === null ? null : round(depth, 3),
      depth_ft: depth === null ? null : round(depth * FT_PER_M, 2),
      governing_component: reached ? governing : null,
      ...(reason ? { reason } : {}),
    };
  });
  const exposedYears = depths.filter((d) => (d.depth_m ?? 0) > 0).map((d) => d.planning_horizon);
  const known = depths.filter((d) => d.depth_ft !== null).map((d) => d.depth_ft!);
  const reason: NoDepthReason | undefined = exposedYears.length > 0 ? undefined
    : ground === undefined ? withoutGround
      : depths.some((d) => d.reason === 'above_water_level') ? 'above_water_level' : 'not_connected';
  return {
    analysis_id: meta.analysisId,
    assessment_id: meta.assessmentId,
    analysed_at: meta.analysedAt,
    status: ground === undefined ? 'unknown_elevation' : exposedYears.length > 0 ? 'exposed' : 'not_exposed',
    ground_elevation_navd88_m: ground === undefined ? null : round(ground, 3),
    ground_source: ground === undefined ? null : site.ground_source ?? null,
    components,
    depths,
    first_exposed_year: exposedYears.length > 0 ? Math.min(...exposedYears) : null,
    max_depth_ft: known.length > 0 ? Math.max(...known) : null,
    ...(reason ? { reason } : {}),
  };
}

export function horizonWeight(planningHorizon: number, assessmentYear: number): number {
  return HORIZON_WEIGHTS.find((band) => planningHorizon - assessmentYear <= band.within_years)!.weight;
}

/** The exposure score (0–1) of the formula above; undefined when the ground elevation is unknown. */
export function exposureScore(exposure: AssetExposure, assessmentYear: number): number | undefined {
  if (exposure.status === 'unknown_elevation' || exposure.status === 'existing_water') return undefined;
  let score = 0;
  for (const d of exposure.depths) {
    if (d.depth_ft === null) continue;
    score = Math.max(score, Math.min(1, d.depth_ft / FULL_EXPOSURE_DEPTH_FT) * horizonWeight(d.planning_horizon, assessmentYear));
  }
  return round(score, 4);
}

const HAZARD_OF: Record<AnalysedComponent, HazardType> = { tidal: 'tidal_flooding', surge: 'storm_surge', rainfall: 'rainfall_flooding' };

/**
 * The asset's vulnerability from this exposure; undefined when the ground elevation is unknown
 * (the asset keeps its earlier vulnerability). Earlier assessor inputs for sensitivity and
 * adaptive capacity are kept.
 */
export function vulnerabilityFromExposure(
  exposure: AssetExposure,
  asset: { category: string; vulnerability: VulnerabilityAssessment | null },
  now: Date,
): VulnerabilityAssessment | undefined {
  const assessmentYear = now.getUTCFullYear();
  const score = exposureScore(exposure, assessmentYear);
  if (score === undefined) return undefined;
  const prior = asset.vulnerability;
  const sensitivity = prior?.sensitivity ?? CATEGORY_SENSITIVITY[asset.category] ?? CATEGORY_SENSITIVITY.unclassified!;
  const adaptiveCapacity = prior?.adaptive_capacity ?? DEFAULT_ADAPTIVE_CAPACITY;
  const worst = exposure.depths.reduce<ScenarioHorizonDepth | undefined>((best, d) => ((d.depth_ft ?? 0) > (best?.depth_ft ?? 0) ? d : best), undefined);
  const hazard: HazardType = exposure.components.length > 1 ? 'compound_flooding' : HAZARD_OF[exposure.components[0] ?? 'tidal'];
  const sensitivitySource = prior?.sensitivity != null ? 'the assessor\'s earlier value' : `the ${asset.category} default`;
  return assessVulnerability({
    hazard_type: hazard,
    scenario: worst?.scenario,
    exposure: score,
    sensitivity,
    adaptive_capacity: adaptiveCapacity,
    first_exposed_year: exposure.first_exposed_year,
    flood_depth_ft: exposure.max_depth_ft ?? undefined,
    notes: `From flood analysis ${exposure.analysis_id}: ${EXPOSURE_FORMULA}; sensitivity ${sensitivity} (${sensitivitySource}); adaptive capacity ${adaptiveCapacity}.`,
  }, now);
}
