import { bboxesIntersect, type BBox } from './geo';

/**
 * A raster of ground elevations over a lon/lat box, row-major from the north-west corner.
 * `NaN` marks cells without data (voids, outside coverage).
 */
export interface ElevationGrid {
  values: Float32Array;
  width: number;
  height: number;
  /** Longitude/latitude of the centre of the north-west cell. */
  west: number;
  north: number;
  /** Cell size in degrees. */
  cellLon: number;
  cellLat: number;
  verticalDatum: 'NAVD88' | 'EGM96';
  source: string;
  /**
   * Open water as the source marks it (1 = water), decided from the raw values before any datum
   * shift: SRTM sea cells hold 0 (and negative edge noise beside them). Absent when the source has
   * no water flag (a bare-earth DEM); then water is ground at or below the local mean sea surface.
   */
  water?: Uint8Array;
}

export interface ElevationSourceInfo {
  name: string;
  vertical_datum: 'NAVD88' | 'EGM96';
  native_resolution: string;
  /** The model's id where it has one (processed models, `srtm-1arcsec` for the bundled SRTM). */
  elevation_model_id?: string;
  resolution_m?: number;
  /** Vertical accuracy (m) as the source states it; null when it states none. */
  vertical_accuracy_m?: number | null;
  vertical_accuracy_basis?: string;
  /** true: a surface model (roofs and canopy included), not bare earth. */
  surface_model?: boolean;
  /** Heights come in steps of this many metres (SRTM: whole metres); absent for continuous models. */
  height_step_m?: number;
  /** How a model supplied on another datum (NGVD29) was brought to NAVD88, with the shift applied; absent otherwise. */
  vertical_conversion?: string;
}

/** Secondary port: where ground elevations come from (bundled models and SRTM tiles locally, COG DEMs in AWS). */
export interface ElevationSource {
  info(): ElevationSourceInfo;
  /**
   * Elevations over `box`, decimated so that the grid has at most `maxCells` cells. undefined when
   * no tile or DEM covers any part of the box.
   */
  grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined>;
  /** The source that answers for `box` and those that fill what it leaves uncovered, best first (layered sources). */
  layersFor?(box: BBox): ElevationSource[];
  /**
   * The whole extent of the model(s) that answer at a point (a model's bounding box, joined with the
   * models it touches; a tiled source's tile): tidal connection is traced over it, not over the
   * window an answer reports on. undefined when the source knows no extent there.
   */
  extentAt?(lon: number, lat: number): BBox | undefined;
  /** The model's tidal connection as its own run traced and cached it (an uploaded model once its run is ready); undefined otherwise. */
  cachedConnection?(): Promise<CachedConnection | undefined>;
}

/**
 * Every cell's spill level over one whole model at its native resolution (tiled-connection.ts), as
 * cached beside the model: the level at which water from the model's open water reaches the cell.
 */
export interface CachedConnection {
  elevation_model_id: string;
  /** The surface it was traced for (m NAVD88): without `water_flag`, ground at or below it was open water. */
  sea_surface_navd88_m: number;
  /** Open water was the model's own flag, whatever the surface. */
  water_flag: boolean;
  cell_size_m: number;
  /**
   * The spill level (m NAVD88; Infinity where no water reaches, or outside the model) of the model
   * cell nearest each cell of `grid`; `{ tiles }` (how many it spans) instead when the grid spans
   * more than `maxTiles` of the cache's tiles.
   */
  spillOn(grid: ElevationGrid, maxTiles: number): Promise<Float32Array | { tiles: number }>;
}

export function cellIndexAt(grid: ElevationGrid, lat: number, lon: number): number | undefined {
  const col = Math.round((lon - grid.west) / grid.cellLon);
  const row = Math.round((grid.north - lat) / grid.cellLat);
  if (col < 0 || row < 0 || col >= grid.width || row >= grid.height) return undefined;
  return row * grid.width + col;
}

const METRES_PER_DEGREE_LAT = 111_320;

/** Area of one cell of each row in m² (cells shrink with the cosine of latitude). */
export function rowCellAreas(grid: ElevationGrid): Float64Array {
  const areas = new Float64Array(grid.height);
  for (let row = 0; row < grid.height; row++) {
    const lat = grid.north - row * grid.cellLat;
    areas[row] = grid.cellLat * METRES_PER_DEGREE_LAT * grid.cellLon * METRES_PER_DEGREE_LAT * Math.cos((lat * Math.PI) / 180);
  }
  return areas;
}

export function cellSizeMetres(grid: ElevationGrid): number {
  const midLat = grid.north - (grid.height / 2) * grid.cellLat;
  return Math.round(grid.cellLat * METRES_PER_DEGREE_LAT * Math.sqrt(Math.cos((midLat * Math.PI) / 180)));
}

export function coveredFraction(grid: ElevationGrid): number {
  let covered = 0;
  for (const v of grid.values) if (!Number.isNaN(v)) covered++;
  return grid.values.length === 0 ? 0 : covered / grid.values.length;
}

/** The bundled SRTM's model id: answers that used it list the SRTM dataset among their sources. */
export const SRTM_MODEL_ID = 'srtm-1arcsec';

/** The description of the source that answers for `box` (a layered source names the model covering it). */
export function sourceInfoFor(source: ElevationSource, box: BBox): ElevationSourceInfo {
  return source.layersFor?.(box)[0]?.info() ?? source.info();
}

/** A window read from one tile of a tiled source, with the box that tile answers for. */
export interface TilePart {
  grid: ElevationGrid;
  owns: BBox;
}

export const bboxContains = ([w, s, e, n]: BBox, lon: number, lat: number): boolean => lon >= w && lon <= e && lat >= s && lat <= n;

/**
 * One grid over `box` from the windows of adjoining tiles, on the lattice of the largest window:
 * its cells whose centres lie in the box (each of which some window covers). Each cell takes the
 * nearest cell of the tile that owns its centre (tiles overlapping at their edges, as 3DEP's do,
 * are not blended), else of any window with data there: nearest, never interpolated, so a tile
 * line leaves no seam of invented values.
 */
export function mosaicGrids(parts: readonly TilePart[], box: BBox): ElevationGrid | undefined {
  if (parts.length <= 1) return parts[0]?.grid;
  const anchor = parts.reduce((a, b) => (b.grid.values.length > a.grid.values.length ? b : a)).grid;
  const first = (edge: number, origin: number, cell: number) => Math.ceil((edge - origin) / cell - 1e-6);
  const last = (edge: number, origin: number, cell: number) => Math.floor((edge - origin) / cell + 1e-6);
  const col0 = first(box[0], anchor.west, anchor.cellLon), row0 = first(anchor.north - box[3], 0, anchor.cellLat);
  const width = last(box[2], anchor.west, anchor.cellLon) - col0 + 1;
  const height = last(anchor.north - box[1], 0, anchor.cellLat) - row0 + 1;
  if (width < 1 || height < 1) return anchor;
  const gridWest = anchor.west + col0 * anchor.cellLon, gridNorth = anchor.north - row0 * anchor.cellLat;
  const values = new Float32Array(width * height).fill(Number.NaN);
  // Water flags only where every window has them: a window without says nothing of water.
  const water = parts.every((part) => part.grid.water) ? new Uint8Array(width * height) : undefined;
  for (let row = 0; row < height; row++) {
    const lat = gridNorth - row * anchor.cellLat;
    for (let col = 0; col < width; col++) {
      const lon = gridWest + col * anchor.cellLon;
      const at = row * width + col;
      for (const owner of [true, false]) {
        for (const part of parts) {
          if (!Number.isNaN(values[at]!) || bboxContains(part.owns, lon, lat) !== owner) continue;
          const from = cellIndexAt(part.grid, lat, lon);
          if (from === undefined || Number.isNaN(part.grid.values[from]!)) continue;
          values[at] = part.grid.values[from]!;
          if (water) water[at] = part.grid.water![from]!;
        }
      }
    }
  }
  const { cellLon, cellLat, verticalDatum, source } = anchor;
  return { values, width, height, west: gridWest, north: gridNorth, cellLon, cellLat, verticalDatum, source, ...(water ? { water } : {}) };
}

const union = (a: BBox, b: BBox): BBox => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/**
 * The extent of the first model covering a point joined with every model it touches, directly or
 * through others (adjoining quads or DEMs form one extent); undefined where none covers it.
 */
export function joinedExtent(extents: readonly BBox[], lon: number, lat: number): BBox | undefined {
  const first = extents.find((extent) => bboxContains(extent, lon, lat));
  if (!first) return undefined;
  const joined = new Set([first]);
  let extent = first;
  for (let grew = true; grew;) {
    grew = false;
    for (const other of extents) {
      if (joined.has(other) || ![...joined].some((j) => bboxesIntersect(j, other))) continue;
      joined.add(other);
      extent = union(extent, other);
      grew = true;
    }
  }
  return extent;
}
