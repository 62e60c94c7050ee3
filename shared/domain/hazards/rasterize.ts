import type { MultiPolygon, Polygon } from 'geojson';
import type { ElevationGrid } from './elevation';

// Hot loops read Math through a module binding (named apart, so no code placed ahead of this line
// meets a shadowed global): a global lookup costs about a hundred times more inside a vm context
// (the test runner's), for the same answer.
const { Math: math } = globalThis;

type GridShape = Pick<ElevationGrid, 'width' | 'height' | 'west' | 'north' | 'cellLon' | 'cellLat'>;

/**
 * Visits the cells whose centre lies inside the polygon (even-odd rule, so holes are excluded), by
 * scanline over the polygon's rows: O(rows × edges) instead of a point-in-polygon test per cell.
 */
export function forEachCellInPolygon(geometry: Polygon | MultiPolygon, grid: GridShape, visit: (index: number) => void): void {
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (const ring of rings) for (const [, lat] of ring) { minLat = math.min(minLat, lat!); maxLat = math.max(maxLat, lat!); }
  const firstRow = math.max(0, math.floor((grid.north - maxLat) / grid.cellLat));
  const lastRow = math.min(grid.height - 1, math.ceil((grid.north - minLat) / grid.cellLat));
  const crossings: number[] = [];
  for (let row = firstRow; row <= lastRow; row++) {
    const lat = grid.north - row * grid.cellLat;
    crossings.length = 0;
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [x1, y1] = ring[i]!;
        const [x2, y2] = ring[j]!;
        if ((y1! > lat) !== (y2! > lat)) crossings.push(x1! + ((lat - y1!) / (y2! - y1!)) * (x2! - x1!));
      }
    }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const first = math.max(0, math.ceil((crossings[k]! - grid.west) / grid.cellLon));
      const last = math.min(grid.width - 1, math.floor((crossings[k + 1]! - grid.west) / grid.cellLon));
      for (let col = first; col <= last; col++) visit(row * grid.width + col);
    }
  }
}

export function rasterizePolygon(geometry: Polygon | MultiPolygon, grid: GridShape): Uint8Array {
  const mask = new Uint8Array(grid.width * grid.height);
  forEachCellInPolygon(geometry, grid, (index) => { mask[index] = 1; });
  return mask;
}
