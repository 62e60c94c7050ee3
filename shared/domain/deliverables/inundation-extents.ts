import { contours } from 'd3-contour';
import type { MultiPolygon, Position } from 'geojson';
import type { AnalysedSurfaces } from '../hazards/flood-analysis';
import type { WaterSurface } from '../hazards/flood-surfaces';
import { isOpenWater } from '../hazards/inundation';
import { rowCellAreas } from '../hazards/elevation';

/**
 * The inundated land of one flood analysis per scenario × horizon, as polygons: cells of the
 * boundary's mask, not open water, where the highest design level of the components analysed
 * (the compound envelope) lies above the ground — the same cells the analysis counts as exposed
 * area. Traced with d3-contour around the cell mask, so edges follow the elevation grid.
 */
export interface InundationExtent {
  scenario: string;
  planning_horizon: number;
  components: string[];
  area_km2: number;
  geometry: MultiPolygon;
}

const COMPONENTS = new Set(['tidal', 'surge', 'rainfall']);
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

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
    const flooded = new Float64Array(grid.values.length);
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
    const traced = contours().size([grid.width, grid.height]).thresholds([0.5])(Array.from(flooded))[0]!;
    // d3-contour puts cell (col, row) on the unit square [col, col+1] × [row, row+1]; grid.west/north are cell centres.
    const toLonLat = ([x, y]: Position): Position => [round6(grid.west + (x! - 0.5) * grid.cellLon), round6(grid.north - (y! - 0.5) * grid.cellLat)];
    extents.push({
      scenario: group.scenario,
      planning_horizon: group.year,
      components: group.components.sort(),
      area_km2: Math.round(area / 1e4) / 100,
      geometry: { type: 'MultiPolygon', coordinates: traced.coordinates.map((polygon) => polygon.map((ring) => ring.map(toLonLat))) },
    });
  }
  return extents;
}
