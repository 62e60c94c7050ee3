import { depressionHierarchy, isDepression, type DepressionHierarchy } from './depressions';
import { rainForRunoffMm, runoffMm, describeRunoff, ALL_RAIN_RUNS_OFF, type RunoffModel } from './design-storm';
import { rowCellAreas, type ElevationGrid } from './elevation';
import { fillSpillMerge, statusOf, type StormPonding } from './fill-spill-merge';
import { area, length, roundTo } from './units';

/** A design storm as the caller (or the account's stored one) states it; never invented here. */
export interface DesignStorm {
  depth_mm: number;
  /** The depth as stated, when it was given in inches (depth_mm = 25.4 × depth_in). */
  depth_in?: number;
  duration_h: number;
  return_period_years: number;
  source: string;
  runoff?: RunoffModel;
  /** Set when the storm is the account's stored one for this jurisdiction (PUT /hazards/design-storms). */
  stored_for_jurisdiction?: string;
}

/** An account's design storm for a jurisdiction, used by its analyses that send none. */
export interface StoredDesignStorm {
  jurisdiction_id: string;
  jurisdiction_name: string;
  design_storm: DesignStorm;
  updated_at: string;
}

export interface DesignStormStore {
  get(accountId: string, jurisdictionId: string): Promise<StoredDesignStorm | undefined>;
  put(accountId: string, stored: StoredDesignStorm): Promise<void>;
}

/** Depressions listed per answer, largest first; the counts are always complete. */
export const MAX_LISTED_DEPRESSIONS = 25;

export const RAINFALL_SCOPE = 'Screening-level depression storage on the ground grid (fill–spill–merge, Barnes, Callaghan & Wickert 2020): the storm\'s runoff fills each depression from its own catchment and spills downstream. Not a hydraulic model: no pipes, culverts, pumps or channel conveyance, no timing, no infiltration beyond the stated runoff.';
export const DESIGN_STORM_WHERE = 'Take the 24-hour depth for the return period at the site from NOAA Atlas 14 (Precipitation Frequency Data Server, https://hdsc.nws.noaa.gov/pfds/) or the water management district\'s design storm, and send it as `rainfall` or store it with PUT /hazards/design-storms/{jurisdiction}.';

const cellCentre = (grid: ElevationGrid, cell: number) => ({ lat: roundTo(grid.north - Math.floor(cell / grid.width) * grid.cellLat, 6), lon: roundTo(grid.west + (cell % grid.width) * grid.cellLon, 6) });

/** The depressions of a NAVD88 grid; `water` marks open water (the grid's own flag when it has one). */
export function gridDepressions(grid: ElevationGrid, water = grid.water, tailwater = -Infinity): DepressionHierarchy {
  return depressionHierarchy({ values: grid.values, width: grid.width, height: grid.height, rowAreas: rowCellAreas(grid), water }, tailwater);
}

function depressionRecord(grid: ElevationGrid, h: DepressionHierarchy, node: number, runoff: RunoffModel) {
  const fillRunoffMm = h.catchment[node]! > 0 ? (1000 * h.capacity[node]!) / h.catchment[node]! : null;
  return {
    depression_id: node,
    merged_from: h.left[node]! >= 0 ? [h.left[node]!, h.right[node]!] : undefined,
    lowest_point: { ...cellCentre(grid, h.pitCell[node]!), ground_navd88: length(grid.values[h.pitCell[node]!]!) },
    capacity_m3: roundTo(h.capacity[node]!, 1),
    catchment_area_m2: roundTo(h.catchment[node]!, 0),
    spill_elevation_navd88: length(h.spill[node]!),
    fill_rain_mm: fillRunoffMm === null ? null : roundTo(rainForRunoffMm(fillRunoffMm, runoff), 1),
  };
}

/** The largest depressions by capacity, each with the rain that fills it from its own catchment. */
export function depressionList(grid: ElevationGrid, h: DepressionHierarchy, runoff: RunoffModel = ALL_RAIN_RUNS_OFF, limit = MAX_LISTED_DEPRESSIONS) {
  const nodes: number[] = [];
  for (let node = 2; node < h.count; node++) if (h.capacity[node]! > 0) nodes.push(node);
  nodes.sort((a, b) => h.capacity[b]! - h.capacity[a]!);
  return {
    count: nodes.length,
    truncated: nodes.length > limit,
    fill_rain_basis: describeRunoff(runoff),
    depressions: nodes.slice(0, limit).map((node) => depressionRecord(grid, h, node, runoff)),
  };
}

/** The lakes a storm leaves: nodes whose water surface is their own (not a parent's lake), largest first. */
function lakes(grid: ElevationGrid, p: StormPonding, runoff: RunoffModel, limit: number) {
  const h = p.hierarchy;
  const own: number[] = [];
  for (let node = 2; node < h.count; node++) {
    const parent = h.parent[node]!;
    const covered = isDepression(parent) && p.level[parent]! >= h.spill[node]!;
    if (!covered && p.stored[node]! > 0 && p.level[node]! > -Infinity) own.push(node);
  }
  own.sort((a, b) => p.stored[b]! - p.stored[a]!);
  return {
    count: own.length,
    truncated: own.length > limit,
    depressions: own.slice(0, limit).map((node) => ({
      ...depressionRecord(grid, h, node, runoff),
      stored_m3: roundTo(p.stored[node]!, 1),
      water_surface_navd88: length(p.level[node]!),
      max_depth: length(p.level[node]! - grid.values[h.pitCell[node]!]!),
      status: statusOf(p, node),
    })),
  };
}

/** A storm's runoff filled on a grid's depressions (the hierarchy is kept for the compound cases). */
export function pondStorm(grid: ElevationGrid, storm: DesignStorm, water = grid.water) {
  const hierarchy = gridDepressions(grid, water);
  const runoffModel = storm.runoff ?? ALL_RAIN_RUNS_OFF;
  const runoff = runoffMm(storm.depth_mm, runoffModel);
  return { storm, hierarchy, runoffModel, runoffMm: runoff, ponding: fillSpillMerge(hierarchy, runoff / 1000) };
}

/** The `computed` rainfall answer of a storm filled with pondStorm. */
export function describePonding(grid: ElevationGrid, pond: ReturnType<typeof pondStorm>, limit = MAX_LISTED_DEPRESSIONS) {
  const { storm, runoffModel, runoffMm: runoff, ponding: p } = pond;
  const balance = p.runoff_m3 > 0 ? (p.ponded_volume_m3 + p.to_sea_m3 + p.off_model_m3) / p.runoff_m3 : 1;
  return {
    status: 'computed' as const,
    scope: RAINFALL_SCOPE,
    design_storm: { ...storm, runoff: runoffModel, runoff_basis: describeRunoff(runoffModel), runoff_mm: roundTo(runoff, 2) },
    ponded_area: area(p.ponded_area_m2),
    ponded_volume_m3: roundTo(p.ponded_volume_m3, 1),
    max_depth: length(p.max_depth_m),
    volume_balance: {
      runoff_m3: roundTo(p.runoff_m3, 1),
      ponded_m3: roundTo(p.ponded_volume_m3, 1),
      to_open_water_m3: roundTo(p.to_sea_m3, 1),
      left_model_m3: roundTo(p.off_model_m3, 1),
      closure: roundTo(balance, 6),
    },
    ...lakes(grid, p, runoffModel, limit),
  };
}

/**
 * The rainfall component on a grid: without a storm, `needs_design_storm` with where to get one and
 * the depressions (capacity, fill_rain_mm assuming all rain runs off); with one, the ponding it leaves.
 */
export function rainfallPonding(grid: ElevationGrid, storm: DesignStorm | undefined, water = grid.water, limit = MAX_LISTED_DEPRESSIONS) {
  if (storm) return describePonding(grid, pondStorm(grid, storm, water), limit);
  const h = gridDepressions(grid, water);
  return { status: 'needs_design_storm' as const, design_storm_needed: DESIGN_STORM_WHERE, scope: RAINFALL_SCOPE, ...depressionList(grid, h, ALL_RAIN_RUNS_OFF, limit) };
}
