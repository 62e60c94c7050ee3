import { cellSizeMetres, rowCellAreas, type ElevationGrid } from './elevation';
import { compoundPonding, type CompoundPonding } from './fill-spill-merge';
import type { FloodModel } from './inundation';
import { describePonding, gridDepressions, pondStorm, rainfallPonding, type DesignStorm } from './rainfall-ponding';
import { area, length, roundTo } from './units';

export const COMPOUND_SCOPE = 'The storm\'s runoff filled on the depressions with the sea standing at a coastal tailwater: outlets below the tailwater cannot drain, so runoff ponds against the sea; combined with the coastal water itself (land connected to open water below the tailwater), the deeper of the two at each cell. Tidal: tailwater = the projected MHHW of the scenario and horizon; surge: the 100-year still-water level. Level-pool screening: no pipes, culverts, pumps, timing, or joint probability of rain and tide or surge; no infiltration beyond the stated runoff.';
export const BEYOND_EITHER_NOTE = 'beyond_either is the land wet in the compound case that neither the rainfall ponding alone nor the coastal water alone wets. In still-water screening it is normally zero (a depression cut off from the sea keeps its own water; one the sea reaches is under the sea\'s level): the compound depth is then the deeper of the two components at each place.';

/** What the grid is: the analysis grid over the boundary's bounding box, already resampled. */
function gridUsed(model: FloodModel) {
  const { grid } = model;
  return {
    cells: grid.values.length,
    cell_size_m: cellSizeMetres(grid),
    extent: "The analysis grid over the boundary's bounding box (catchments do not stop at the boundary).",
  };
}

/** The rainfall component on the analysis grid, with the storm's ponding kept for the compound cases. */
export function rainfallOnGrid(model: FloodModel, storm: DesignStorm | undefined) {
  if (!storm) return { answer: { ...rainfallPonding(model.grid, undefined, model.water), grid: gridUsed(model) }, pond: undefined };
  const pond = pondStorm(model.grid, storm, model.water);
  return { answer: { ...describePonding(model.grid, pond), grid: gridUsed(model) }, pond };
}

export type StormOnGrid = NonNullable<ReturnType<typeof rainfallOnGrid>['pond']>;

/**
 * The wet cells of a depth grid (depth > 0, open water carries none): the mask, their area and the
 * deepest. The one count of a ponded or compound area, so an extent's polygons and the answer's figure agree.
 */
export function wetCells(grid: ElevationGrid, depth: Float32Array) {
  const rowAreas = rowCellAreas(grid);
  const wet = new Uint8Array(depth.length);
  let area_m2 = 0, max_depth_m = 0;
  for (let i = 0; i < depth.length; i++) {
    const d = depth[i]!;
    if (!(d > 0)) continue;
    wet[i] = 1;
    area_m2 += rowAreas[Math.floor(i / grid.width)]!;
    if (d > max_depth_m) max_depth_m = d;
  }
  return { wet, area_m2, max_depth_m };
}

export type WetCells = ReturnType<typeof wetCells>;

export const COMBINED_NOTE = 'combined: the deeper of the tidal and surge cases at each cell, the compound depth the assets carry (by_component.compound) and the compound extent mapped (component_extents, the compound_flooding layer).';

/** One compound case: the storm's ponding held against `tailwater` (NAVD88 m), beside the coastal water alone. */
function describeCompound(c: CompoundPonding, tailwater: number) {
  return {
    tailwater_navd88: length(tailwater),
    extent: area(c.extent_m2),
    volume_m3: roundTo(c.volume_m3, 1),
    max_depth: length(c.max_depth_m),
    ponded_against_tailwater_m3: roundTo(c.ponding.ponded_volume_m3, 1),
    beyond_either: area(c.beyond_either_m2),
    beyond_either_share: c.extent_m2 > 0 ? roundTo(c.beyond_either_m2 / c.extent_m2, 4) : 0,
  };
}

/**
 * The compound component with a storm: per scenario × horizon, the tidal case (tailwater = the tidal
 * level of that combination) and the surge case (its 100-year still-water level) where the analysis
 * has a uniform level for them; a case without one says why.
 */
export function compoundWithStorm(
  model: FloodModel,
  pond: StormOnGrid,
  combos: { scenario: string; year: number; header: Record<string, unknown>; tidal?: number; surge?: number }[],
  /** Receives each combination's compound depth per cell (the deeper of its tidal and surge cases) and its wet cells. */
  onDepth?: (scenario: string, year: number, depth: Float32Array, wet: WetCells) => void,
) {
  const noLevel = (component: string) => ({ status: 'not_computed', reason: `The analysis has no single ${component} still-water level here (inland, no gauge basis, or loaded layers whose surface varies in space).` });
  // Each combination's depth grids live only while it is combined (memory linear in cells).
  const combined = combos.map((combo) => {
    const depths: Float32Array[] = [];
    const at = (tailwater: number) => {
      const c = compoundPonding(gridDepressions(model.grid, model.water, tailwater), pond.runoffMm / 1000, pond.ponding.depth, model.spill);
      depths.push(c.depth);
      return describeCompound(c, tailwater);
    };
    const tidal = combo.tidal === undefined ? noLevel('tidal') : at(combo.tidal);
    const surge = combo.surge === undefined ? noLevel('100-year surge') : { return_period_years: 100, ...at(combo.surge) };
    if (depths.length === 0) return { ...combo.header, tidal, surge };
    const deeper = depths.reduce((a, b) => a.map((d, i) => Math.max(d, b[i]!)));
    const wet = wetCells(model.grid, deeper);
    onDepth?.(combo.scenario, combo.year, deeper, wet);
    return { ...combo.header, tidal, surge, combined: { extent: area(wet.area_m2), max_depth: length(wet.max_depth_m) } };
  });
  const anyCase = combos.some((combo) => combo.tidal !== undefined || combo.surge !== undefined);
  return {
    status: anyCase ? 'computed' as const : 'no_data' as const,
    basis: 'depression_storage_with_tailwater',
    scope: COMPOUND_SCOPE,
    beyond_either_note: BEYOND_EITHER_NOTE,
    combined_note: COMBINED_NOTE,
    design_storm: { ...pond.storm, runoff_mm: roundTo(pond.runoffMm, 2) },
    rainfall_alone: { ponded_area: area(pond.ponding.ponded_area_m2), ponded_volume_m3: roundTo(pond.ponding.ponded_volume_m3, 1), max_depth: length(pond.ponding.max_depth_m) },
    grid: gridUsed(model),
    results: combined,
  };
}
