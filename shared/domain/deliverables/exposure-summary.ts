import type { StoredAsset } from '../assets/ports';
import { governingOverall, type ExposureComponent } from '../hazards/asset-exposure';
import { DESIGN_RETURN_PERIOD_YEARS, FLOOD_COMPONENTS, type FloodComponent } from '../hazards/vocabulary';
import type { FloodAnalysisRecord, HeightSteps } from '../hazards/analysis-record';
import type { InundationExtent } from '../hazards/inundation-extents';

/**
 * The report's exposure summary: per scenario and horizon, the components whose water it envelopes,
 * the assets exposed (a depth above 0, as the asset layer's depth columns hold it) and the area of
 * the inundation layer's polygons (measured by the caller as the layer is). Pairs whose components
 * answered the same exposed land get the reason, as a planner would ask for it.
 */

export interface ExposureCombo {
  scenario: string;
  planning_horizon: number;
  /** The components whose highest level the inundation envelopes (those with a result for the pair). */
  components: string[];
  exposed: number;
  /** Exposed land of each component, in the order of `ExposureSummary.components`. */
  areas_km2: (number | null)[];
  /** The highest design water level over the components (NAVD88 m). */
  highest_level_m: number | null;
  /** Area of the inundation layer's polygons in EPSG:3087, when they were traced. */
  map_km2: number | null;
}

export interface ExposureSummary {
  components: string[];
  combos: ExposureCombo[];
  analysed: number;
  unknownElevation: number;
  /** Cell size of the analysis grid, on which the map's polygons are traced. */
  mapCellM: number | null;
  notes: string[];
  /**
   * Assets per governing component (of their deepest flooding over the pairs summarised, from
   * `by_component`), components without one left out; empty when no asset has per-component depths.
   */
  governing: { component: ExposureComponent; assets: number }[];
}

type Combo = { scenario: string; planning_horizon: number };
const comboKey = (scenario: string, year: number) => `${scenario}|${year}`;

/**
 * The asset counts of the summary, taken one asset at a time (the inventory is read in pages and
 * never held whole): exposed assets per pair, analysed and unknown-elevation assets, and the
 * governing component of each asset's deepest flooding over the pairs summarised.
 */
export class ExposureTally {
  private readonly exposedByCombo = new Map<string, number>();
  private readonly governingCounts = new Map<ExposureComponent, number>();
  private readonly printed: Set<string>;
  analysed = 0;
  unknownElevation = 0;

  constructor(readonly combos: readonly Combo[]) {
    this.printed = new Set(combos.map((c) => comboKey(c.scenario, c.planning_horizon)));
  }

  add(asset: StoredAsset): void {
    const exposure = asset.exposure;
    if (!exposure) return;
    this.analysed++;
    if (exposure.status === 'unknown_elevation' || exposure.status === 'existing_water') this.unknownElevation++;
    // The first depth given for a pair is the asset's depth there (as the layer's column holds it).
    const seen = new Set<string>();
    for (const depth of exposure.depths) {
      const key = comboKey(depth.scenario, depth.planning_horizon);
      if (seen.has(key)) continue;
      seen.add(key);
      if ((depth.depth_ft ?? 0) > 0 && this.printed.has(key)) this.exposedByCombo.set(key, (this.exposedByCombo.get(key) ?? 0) + 1);
    }
    const component = governingOverall((exposure.by_component ?? []).filter((e) => this.printed.has(comboKey(e.scenario, e.planning_horizon))));
    if (component) this.governingCounts.set(component, (this.governingCounts.get(component) ?? 0) + 1);
  }

  exposed(combo: Combo): number {
    return this.exposedByCombo.get(comboKey(combo.scenario, combo.planning_horizon)) ?? 0;
  }

  governing(): ExposureSummary['governing'] {
    return FLOOD_COMPONENTS.filter((c) => this.governingCounts.has(c)).map((component) => ({ component, assets: this.governingCounts.get(component)! }));
  }
}

/** The summary of the pairs the tally counted, with the analysis's component results and the measured extents. */
export function exposureSummary(answer: FloodAnalysisRecord, tally: ExposureTally, extents: readonly InundationExtent[]): ExposureSummary {
  const { combos } = tally;
  const components = FLOOD_COMPONENTS.filter((c) => answer.components[c]?.length);
  const resultOf = (component: FloodComponent, scenario: string, year: number) => answer.components[component]
    ?.find((r) => r.scenario === scenario && r.planning_horizon === year && (r.return_period_years === null || r.return_period_years === DESIGN_RETURN_PERIOD_YEARS));
  const rows = combos.map((c): ExposureCombo => {
    const results = components.map((component) => resultOf(component, c.scenario, c.planning_horizon));
    const extent = extents.find((e) => e.scenario === c.scenario && e.planning_horizon === c.planning_horizon);
    const levels = results.map((r) => r?.design_level_navd88_m).filter((m): m is number => m !== null && m !== undefined);
    return {
      ...c,
      components: extent?.components ?? components.filter((_, i) => results[i]),
      exposed: tally.exposed(c),
      areas_km2: results.map((r) => r?.exposed_area_km2 ?? null),
      highest_level_m: levels.length > 0 ? Math.max(...levels) : null,
      map_km2: extent?.area_km2 ?? null,
    };
  });
  return {
    components,
    combos: rows,
    analysed: tally.analysed,
    unknownElevation: tally.unknownElevation,
    mapCellM: answer.elevation.cell_size_m,
    notes: equalAreaNotes(rows, answer.elevation.height_steps ?? undefined),
    governing: tally.governing(),
  };
}

const label = (c: ExposureCombo) => `${c.scenario.replace('_', '-')} ${c.planning_horizon}`;
const metres = (m: number) => `${m.toFixed(2)} m`;

/**
 * Scenario and horizon pairs whose every component area is the same, with why: their highest
 * design levels fall between two heights of a stepped elevation model (SRTM's whole metres), or,
 * failing that, the higher levels reach no further land the water connects to.
 */
export function equalAreaNotes(combos: readonly ExposureCombo[], steps: HeightSteps | undefined): string[] {
  const groups = new Map<string, ExposureCombo[]>();
  for (const combo of combos) {
    if (combo.areas_km2.length === 0 || combo.areas_km2.some((a) => a === null)) continue;
    const key = combo.areas_km2.join('|');
    groups.set(key, [...(groups.get(key) ?? []), combo]);
  }
  const notes: string[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const pairs = group.map(label).join(', ');
    const levels = group.map((c) => c.highest_level_m).filter((m): m is number => m !== null);
    const same = `The exposed land is the same for ${pairs}`;
    if (levels.length < group.length) {
      notes.push(`${same}: the higher water levels reach no further land connected to the water in the elevation model.`);
      continue;
    }
    const [low, high] = [Math.min(...levels), Math.max(...levels)];
    const range = low === high ? `${metres(low)} NAVD88` : `${metres(low)} to ${metres(high)} NAVD88`;
    // Land at height h is under a level above h: two levels cover the same cells when no land height
    // lies from the lower (included) to the higher. Known only below the highest height listed.
    const heights = steps?.lowest_land_levels_navd88_m ?? [];
    const top = heights[heights.length - 1] ?? Number.NEGATIVE_INFINITY;
    if (steps && high <= top && !heights.some((h) => h >= low && h < high)) {
      const below = heights.filter((h) => h < low).pop();
      const above = heights.find((h) => h >= high)!;
      const span = below === undefined ? `below the elevation model's lowest land height (${metres(above)} NAVD88)` : `between two land heights of the elevation model (${metres(below)} and ${metres(above)} NAVD88)`;
      notes.push(`${same}: their highest design water levels (${range}) all lie ${span}. Its heights come in steps of ${steps.step_m} m, with no land cell between them, so these levels cover the same cells; the steps are the model's, not the ground's.`);
    } else {
      notes.push(`${same}: their highest design water levels (${range}) reach no further land connected to the water in the elevation model.`);
    }
  }
  return notes;
}
