import type { StoredAsset } from '../assets/ports';
import { governingOverall, type ExposureComponent } from '../hazards/asset-exposure';
import { DESIGN_RETURN_PERIOD_YEARS, FLOOD_COMPONENTS } from '../hazards/vocabulary';
import type { InundationExtent } from './inundation-extents';

/**
 * The report's exposure summary: per scenario and horizon, the components whose water it envelopes,
 * the assets exposed (a depth above 0, as the asset layer's depth columns hold it) and the area of
 * the inundation layer's polygons (measured by the caller as the layer is). Pairs whose components
 * answered the same exposed land get the reason, as a planner would ask for it.
 */

/** The parts of a stored flood-analysis answer the summary reads. */
export interface AnswerExposure {
  components?: Record<string, { results?: ComponentResult[] } | undefined>;
  elevation?: {
    cell_size_m?: number;
    height_steps?: { step_m: number; lowest_land_levels_navd88_m: number[] };
  };
}

interface ComponentResult {
  scenario: string;
  planning_horizon: number;
  return_period_years?: number;
  design_water_level_navd88?: { m: number };
  exposed_area?: { km2: number };
}

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

function governingCounts(assets: readonly StoredAsset[], combos: readonly { scenario: string; planning_horizon: number }[]): ExposureSummary['governing'] {
  const printed = new Set(combos.map((c) => `${c.scenario}|${c.planning_horizon}`));
  const counts = new Map<ExposureComponent, number>();
  for (const asset of assets) {
    const component = governingOverall((asset.exposure?.by_component ?? []).filter((e) => printed.has(`${e.scenario}|${e.planning_horizon}`)));
    if (component) counts.set(component, (counts.get(component) ?? 0) + 1);
  }
  return FLOOD_COMPONENTS.filter((c) => counts.has(c)).map((component) => ({ component, assets: counts.get(component)! }));
}

export function exposureSummary(
  answer: AnswerExposure,
  combos: readonly { scenario: string; planning_horizon: number }[],
  assets: readonly StoredAsset[],
  extents: readonly InundationExtent[],
): ExposureSummary {
  const components = FLOOD_COMPONENTS.filter((c) => answer.components?.[c]?.results?.length);
  const resultOf = (component: string, scenario: string, year: number) => answer.components?.[component]?.results
    ?.find((r) => r.scenario === scenario && r.planning_horizon === year && (r.return_period_years === undefined || r.return_period_years === DESIGN_RETURN_PERIOD_YEARS));
  const rows = combos.map((c): ExposureCombo => {
    const results = components.map((component) => resultOf(component, c.scenario, c.planning_horizon));
    const extent = extents.find((e) => e.scenario === c.scenario && e.planning_horizon === c.planning_horizon);
    const levels = results.map((r) => r?.design_water_level_navd88?.m).filter((m): m is number => m !== undefined);
    return {
      ...c,
      components: extent?.components ?? components.filter((_, i) => results[i]),
      exposed: assets.filter((a) => (a.exposure?.depths.find((d) => d.scenario === c.scenario && d.planning_horizon === c.planning_horizon)?.depth_ft ?? 0) > 0).length,
      areas_km2: results.map((r) => r?.exposed_area?.km2 ?? null),
      highest_level_m: levels.length > 0 ? Math.max(...levels) : null,
      map_km2: extent?.area_km2 ?? null,
    };
  });
  return {
    components,
    combos: rows,
    analysed: assets.filter((a) => a.exposure).length,
    unknownElevation: assets.filter((a) => a.exposure?.status === 'unknown_elevation' || a.exposure?.status === 'existing_water').length,
    mapCellM: answer.elevation?.cell_size_m ?? null,
    notes: equalAreaNotes(rows, answer.elevation?.height_steps),
    governing: governingCounts(assets, combos),
  };
}

const label = (c: ExposureCombo) => `${c.scenario.replace('_', '-')} ${c.planning_horizon}`;
const metres = (m: number) => `${m.toFixed(2)} m`;

/**
 * Scenario and horizon pairs whose every component area is the same, with why: their highest
 * design levels fall between two heights of a stepped elevation model (SRTM's whole metres), or,
 * failing that, the higher levels reach no further land the water connects to.
 */
export function equalAreaNotes(combos: readonly ExposureCombo[], steps: { step_m: number; lowest_land_levels_navd88_m: number[] } | undefined): string[] {
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
