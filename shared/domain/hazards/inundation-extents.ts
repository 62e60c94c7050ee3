import type { MultiPolygon } from 'geojson';
import type { AnalysedSurfaces } from './analysed-surfaces';
import type { WaterSurface } from './flood-surfaces';
import { isOpenWater, maskToMultiPolygon } from './inundation';
import { rowCellAreas } from './elevation';
import { wetCells, type WetCells } from './rainfall-component';
import type { DesignStorm } from './rainfall-ponding';
import type { FloodComponent } from './vocabulary';
import { roundTo } from './units';

/**
 * The inundated land of one flood analysis per scenario × horizon, as polygons: cells of the
 * boundary's mask, not open water, where the highest design level of the components analysed
 * (the compound envelope) lies above the ground — the same cells the analysis counts as exposed
 * area. Traced by marching squares around the cell mask (see maskToMultiPolygon), so edges follow
 * the elevation grid.
 */
export interface InundationExtent {
  scenario: string;
  planning_horizon: number;
  components: string[];
  area_km2: number;
  /** Unrounded, for answers that give acres. */
  area_m2: number;
  geometry: MultiPolygon;
}

const COMPONENTS = new Set(['tidal', 'surge', 'rainfall']);

export function inundationExtents(analysed: AnalysedSurfaces): InundationExtent[] {
  const { model, mask } = analysed;
  if (!model || !mask) return [];
  const groups = new Map<string, { scenario: string; year: number; components: string[]; surfaces: WaterSurface[] }>();
  for (const [key, surface] of analysed.surfaces) {
    const [component, scenario, year] = key.split('|') as [string, string, string];
    if (!COMPONENTS.has(component)) continue;
    const id = `${scenario}|${year}`;
    const group = groups.get(id) ?? { scenario, year: Number(year), components: [], surfaces: [] };
    group.components.push(component);
    group.surfaces.push(surface);
    groups.set(id, group);
  }
  const extents: InundationExtent[] = [];
  for (const group of [...groups.values()].sort((a, b) => a.year - b.year || a.scenario.localeCompare(b.scenario))) {
    const flooded = floodedLand(analysed, group.surfaces)!;
    extents.push({
      scenario: group.scenario,
      planning_horizon: group.year,
      components: group.components.sort(),
      area_km2: Math.round(flooded.area_m2 / 1e4) / 100,
      area_m2: flooded.area_m2,
      geometry: maskToMultiPolygon(model.grid, flooded.wet),
    });
  }
  return extents;
}

/**
 * The land of the boundary's mask (not open water, with elevation) under the highest of `surfaces`,
 * with its area and the deepest water on it; undefined without a grid.
 */
function floodedLand({ model, mask }: AnalysedSurfaces, surfaces: readonly WaterSurface[]): WetCells | undefined {
  if (!model || !mask) return undefined;
  const { grid } = model;
  const areas = rowCellAreas(grid);
  const wet = new Uint8Array(grid.values.length);
  let area_m2 = 0, max_depth_m = 0;
  for (let i = 0; i < wet.length; i++) {
    if (!mask[i]) continue;
    const ground = grid.values[i]!;
    if (Number.isNaN(ground) || isOpenWater(model, i)) continue;
    let level = -Infinity;
    for (const surface of surfaces) {
      const at = surface.levelAtCell(i);
      if (at > level) level = at;
    }
    const depth = level - ground;
    if (depth > 0) {
      wet[i] = 1;
      area_m2 += areas[Math.floor(i / grid.width)]!;
      if (depth > max_depth_m) max_depth_m = depth;
    }
  }
  return { wet, area_m2, max_depth_m };
}

/** The storm an extent stands for (rainfall and compound), as the layers and the console show it. */
export interface ExtentStorm {
  return_period_years: number;
  depth_mm: number;
  duration_h: number;
}

/**
 * One flood component's wet land as polygons: tidal and surge (the 100-year still-water level) per
 * scenario × horizon, rainfall ponding per design storm, compound per scenario × horizon with the storm.
 */
export interface ComponentExtent {
  component: FloodComponent;
  scenario: string | null;
  planning_horizon: number | null;
  storm: ExtentStorm | null;
  area_km2: number;
  /** Unrounded, for answers that give acres. */
  area_m2: number;
  max_depth_m: number;
  geometry: MultiPolygon;
}

const extentStorm = (storm: DesignStorm): ExtentStorm => ({ return_period_years: storm.return_period_years, depth_mm: storm.depth_mm, duration_h: storm.duration_h });

/**
 * Each component's extent on the analysis grid. Tidal and surge: the land of the boundary under the
 * component's level, as `inundationExtents` counts it for the envelope (existing water below today's
 * MHHW included). Rainfall and compound: the cells of the whole analysis grid (the boundary's bounding
 * box, where their catchments are filled) with a ponded, resp. compound, depth above 0 — the cells and
 * area of the rainfall answer's `ponded_area` and of the compound answer's `combined.extent`.
 */
export function componentExtents(analysed: AnalysedSurfaces): ComponentExtent[] {
  const { model } = analysed;
  if (!model) return [];
  const extent = (component: FloodComponent, scenario: string | null, year: number | null, storm: DesignStorm | undefined, cells: WetCells): ComponentExtent => ({
    component,
    scenario,
    planning_horizon: year,
    storm: storm ? extentStorm(storm) : null,
    area_km2: roundTo(cells.area_m2 / 1e6, 4),
    area_m2: cells.area_m2,
    max_depth_m: roundTo(cells.max_depth_m, 3),
    geometry: maskToMultiPolygon(model.grid, cells.wet),
  });
  const coastal: ComponentExtent[] = [];
  for (const [key, surface] of analysed.surfaces) {
    const [component, scenario, year] = key.split('|') as [string, string, string];
    if (component !== 'tidal' && component !== 'surge') continue;
    const flooded = floodedLand(analysed, [surface]);
    if (flooded) coastal.push(extent(component, scenario, Number(year), undefined, flooded));
  }
  const { ponding, compound } = analysed;
  const rainfall = ponding ? [extent('rainfall', null, null, ponding.storm, wetCells(model.grid, ponding.rainfall))] : [];
  const compounds = (compound?.cases ?? []).map((c) => extent('compound', c.scenario, c.year, compound!.storm, c.wet));
  const order: FloodComponent[] = ['tidal', 'surge', 'rainfall', 'compound'];
  return [...coastal, ...rainfall, ...compounds].sort((a, b) => order.indexOf(a.component) - order.indexOf(b.component)
    || (a.planning_horizon ?? 0) - (b.planning_horizon ?? 0) || (a.scenario ?? '').localeCompare(b.scenario ?? ''));
}
