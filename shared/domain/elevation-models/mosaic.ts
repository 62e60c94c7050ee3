import { gridCellLimit, isElevationSample } from './budget';
import { RasterError } from './raster-error';
import type { CellWindow, RasterFrame, SourceBlock } from './reproject';

/**
 * A model uploaded as several GeoTIFFs (a county's lidar delivered as tiles) is one raster: the
 * parts lie on one grid (one CRS, one cell size, origins a whole number of cells apart), so their
 * posts are posts of one larger raster, the mosaic, and the model is processed from it exactly as
 * from a single file holding the same posts. A cell is never interpolated across a seam from
 * anything but the posts themselves, and parts are never resampled on their own.
 */

/** How far (in cells) a part's origin may sit from the shared grid, and its cell size from the first part's (relative). */
const GRID_TOLERANCE = 1e-3;

/** Where one part's posts lie in the mosaic. */
export interface PartPlacement { col0: number; row0: number; width: number; height: number }

export interface Mosaic {
  frame: RasterFrame;
  placements: PartPlacement[];
}

const partName = (i: number, n: number) => `Part ${i + 1} of ${n}`;

/**
 * The one grid the parts' frames share, and where each part lies on it. Refused when a part is in
 * another CRS, has another cell size or sits off the grid (`unusable_raster`), or when the parts
 * cover a small share of their bounding grid (`resampled_grid_too_large`: parts far apart).
 */
export function mosaicOf(parts: readonly RasterFrame[]): Mosaic {
  const first = parts[0]!;
  const { dx, dy, crs } = first;
  const offsets = parts.map((part, i) => {
    if (part.crs.epsg !== crs.epsg) {
      throw new RasterError(`${partName(i, parts.length)} is in EPSG:${part.crs.epsg}, part 1 in EPSG:${crs.epsg}: the parts of one model lie on one grid (create a model per CRS).`, 'unsupported_crs');
    }
    if (Math.abs(part.dx - dx) > GRID_TOLERANCE * Math.abs(dx) || Math.abs(part.dy - dy) > GRID_TOLERANCE * Math.abs(dy)) {
      throw new RasterError(`${partName(i, parts.length)} has cells of ${part.dx} × ${Math.abs(part.dy)}, part 1 of ${dx} × ${Math.abs(dy)}: the parts of one model share one cell size (create a model per resolution).`);
    }
    const col = (part.x0 - first.x0) / dx, row = (part.y0 - first.y0) / dy;
    if (Math.abs(col - Math.round(col)) > GRID_TOLERANCE || Math.abs(row - Math.round(row)) > GRID_TOLERANCE) {
      throw new RasterError(`${partName(i, parts.length)} starts ${col.toFixed(3)} columns and ${row.toFixed(3)} rows from part 1: the parts of one model lie on one grid, a whole number of cells apart.`);
    }
    return { col: Math.round(col), row: Math.round(row) };
  });
  const minCol = Math.min(...offsets.map((o) => o.col)), minRow = Math.min(...offsets.map((o) => o.row));
  const width = Math.max(...offsets.map((o, i) => o.col + parts[i]!.width)) - minCol;
  const height = Math.max(...offsets.map((o, i) => o.row + parts[i]!.height)) - minRow;
  const partCells = parts.reduce((cells, part) => cells + part.width * part.height, 0);
  // As a lattice may grow past its source's cells: a mosaic of small parts may be mostly empty.
  const limit = gridCellLimit(partCells);
  if (width * height > limit) {
    throw new RasterError(`The ${parts.length} parts span a grid of ${width} × ${height} cells (${width * height}); the limit is ${limit} for their ${partCells} cells: do they adjoin?`, 'resampled_grid_too_large');
  }
  return {
    frame: { width, height, x0: first.x0 + minCol * dx, y0: first.y0 + minRow * dy, dx, dy, crs },
    placements: offsets.map((o, i) => ({ col0: o.col - minCol, row0: o.row - minRow, width: parts[i]!.width, height: parts[i]!.height })),
  };
}

/** The cells of a mosaic window that one part holds, in the part's own cells (undefined: none). */
export function partWindow(placement: PartPlacement, window: CellWindow): CellWindow | undefined {
  const col0 = Math.max(window.col0, placement.col0), row0 = Math.max(window.row0, placement.row0);
  const col1 = Math.min(window.col0 + window.width, placement.col0 + placement.width);
  const row1 = Math.min(window.row0 + window.height, placement.row0 + placement.height);
  if (col1 <= col0 || row1 <= row0) return undefined;
  return { col0: col0 - placement.col0, row0: row0 - placement.row0, width: col1 - col0, height: row1 - row0 };
}

/**
 * Copies a part's decoded block into the mosaic window being assembled (`into`, no-data as NaN),
 * filling only cells no earlier part holds a sample for: where parts overlap, the first part, in
 * order, that has ground there wins; posts are never blended.
 */
export function pasteBlock(into: Float32Array, window: CellWindow, placement: PartPlacement, block: SourceBlock, nodata: number | undefined): void {
  const { values } = block;
  for (let r = 0; r < block.height; r++) {
    const target = (placement.row0 + block.row0 + r - window.row0) * window.width + (placement.col0 + block.col0 - window.col0);
    for (let c = 0; c < block.width; c++) {
      const value = values[r * block.width + c]!;
      const at = target + c;
      if (into[at] !== into[at] && isElevationSample(value, nodata)) into[at] = value;
    }
  }
}
