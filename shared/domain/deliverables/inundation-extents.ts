import type { MultiPolygon } from 'geojson';
import type { AnalysedSurfaces } from '../hazards/analysed-surfaces';
import type { WaterSurface } from '../hazards/flood-surfaces';
import { isOpenWater, maskToMultiPolygon } from '../hazards/inundation';
import { rowCellAreas } from '../hazards/elevation';

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
  const { grid } = model;
  const areas = rowCellAreas(grid);
  const extents: InundationExtent[] = [];
  for (const group of [...groups.values()].sort((a, b) => a.year - b.year || a.scenario.localeCompare(b.scenario))) {
    const flooded = new Uint8Array(grid.values.length);
    let area = 0;
    for (let i = 0; i < flooded.length; i++) {
      if (!mask[i]) continue;
      const ground = grid.values[i]!;
      if (Number.isNaN(ground) || isOpenWater(model, i)) continue;
      if (group.surfaces.some((surface) => surface.levelAtCell(i) > ground)) {
        flooded[i] = 1;
        area += areas[Math.floor(i / grid.width)]!;
      }
    }
    extents.push({
      scenario: group.scenario,
      planning_horizon: group.year,
      components: group.components.sort(),
      area_km2: Math.round(area / 1e4) / 100,
      area_m2: area,
      geometry: maskToMultiPolygon(grid, flooded),
    });
  }
  return extents;
}
