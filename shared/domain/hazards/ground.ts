import { sampleBilinear } from '../elevation-models/pyramid';
import { cellIndexAt, SRTM_MODEL_ID, type ElevationGrid, type ElevationSource, type ElevationSourceInfo } from './elevation';
import type { BBox, LatLon } from './geo';
import type { AssetPoint } from './spatial-index';
import { toNavd88, type DatumCorrection } from './vertical-datum';

// Hot loops read Math and Number through module bindings (named apart, so no code placed ahead of
// this line meets a shadowed global): a global lookup costs about a hundred times
// more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;

/**
 * Surface-model cells that rise more than this above the lowest ground within `RELIEF_RADIUS`
 * cells are flagged as probably building or canopy: coastal Florida's bare ground does not climb
 * 3 m within two 30 m cells outside dunes and spoil banks, while roofs and tree crowns do.
 */
export const RELIEF_FLAG_M = 3;
export const RELIEF_RADIUS = 2;
export const RELIEF_RULE = `Surface-model (SRTM) cells more than ${RELIEF_FLAG_M} m above the lowest ground within ${RELIEF_RADIUS} cells are flagged as probably building or canopy: their height is not ground.`;

export interface GroundLayer {
  source: ElevationSourceInfo;
  /** Cells of the grid this layer supplied (0: read but not needed). */
  cells: number;
  correction: DatumCorrection;
}

/** Ground in NAVD88 over a box: the best model, filled from the next where it leaves cells uncovered. */
export interface GroundGrid {
  grid: ElevationGrid;
  /** Per cell, the index in `layers` of the layer that supplied it (255: no data). */
  origin: Uint8Array;
  layers: GroundLayer[];
  /** 1 = surface-model cell whose neighbourhood relief says building or canopy. */
  flagged: Uint8Array;
  flaggedCells: number;
}

const NO_DATA = 255;

/** How the ground is read: `allowSurfaceModel` lets a surface model (SRTM) stand in for bare earth. */
export interface GroundOptions {
  /** false skips the surface-model flags (area tallies that do not report them). */
  flagRelief?: boolean;
  /** The caller's `allow_surface_model: true`: without it no depth, area or exposure stands on a surface model. */
  allowSurfaceModel?: boolean;
}

const isSurfaceModel = (layer: ElevationSource) => layer.info().surface_model === true;

/** The layers that may give the ground over `box`, best first: surface models only when allowed. */
export function groundLayers(source: ElevationSource, box: BBox, options: GroundOptions): ElevationSource[] {
  const candidates = source.layersFor?.(box) ?? [source];
  return options.allowSurfaceModel ? candidates : candidates.filter((layer) => !isSurfaceModel(layer));
}

/** Whether two lists name the very same layer objects: two sources may name their models alike. */
export function sameLayers(a: readonly ElevationSource[], b: readonly ElevationSource[]): boolean {
  return a.length === b.length && a.every((layer, i) => layer === b[i]);
}

/**
 * Reads the ground over `box` (at most `maxCells` cells) from the source's layers in NAVD88. The
 * first layer that covers the box answers; cells it leaves empty are filled from the next layers,
 * sampled bilinearly at the cell centres after their own datum conversion (their water flag from
 * the nearest post: a mask is never blended), so the answer can say which share came from where.
 * A surface model is left out unless `allowSurfaceModel`.
 */
export async function readGround(source: ElevationSource, box: BBox, maxCells: number, mslNavd88: number, options: GroundOptions = {}): Promise<GroundGrid | undefined> {
  const candidates = groundLayers(source, box, options);
  let base: { grid: ElevationGrid; correction: DatumCorrection; info: ElevationSourceInfo } | undefined;
  const rest: ElevationSource[] = [];
  for (const layer of candidates) {
    if (base) { rest.push(layer); continue; }
    const raw = await layer.grid(box, maxCells);
    if (raw) base = { ...toNavd88(raw, mslNavd88), info: layer.info() };
  }
  if (!base) return undefined;

  const { grid: first } = base;
  const n = first.values.length;
  const values = Float32Array.from(first.values);
  const water = new Uint8Array(n);
  const origin = new Uint8Array(n).fill(NO_DATA);
  const surface = math.fround(mslNavd88);
  for (let i = 0; i < n; i++) {
    if (num.isNaN(values[i]!)) continue;
    origin[i] = 0;
    // A model without a water flag: open water is ground at or below the local mean sea surface.
    water[i] = first.water ? first.water[i]! : values[i]! <= surface ? 1 : 0;
  }
  const layers: GroundLayer[] = [{ source: base.info, cells: 0, correction: base.correction }];

  for (const layer of rest) {
    if (!origin.includes(NO_DATA)) break;
    const raw = await layer.grid(box, maxCells);
    if (!raw) continue;
    const { grid: fill, correction } = toNavd88(raw, mslNavd88);
    const index = layers.length;
    layers.push({ source: layer.info(), cells: 0, correction });
    for (let i = 0; i < n; i++) {
      if (origin[i] !== NO_DATA) continue;
      const lat = first.north - math.floor(i / first.width) * first.cellLat;
      const lon = first.west + (i % first.width) * first.cellLon;
      const nearest = cellIndexAt(fill, lat, lon);
      if (nearest === undefined || num.isNaN(fill.values[nearest]!)) continue;
      const bilinear = sampleBilinear(fill, lat, lon);
      values[i] = num.isNaN(bilinear) ? fill.values[nearest]! : bilinear;
      water[i] = fill.water ? fill.water[nearest]! : fill.values[nearest]! <= surface ? 1 : 0;
      origin[i] = index;
    }
  }
  for (let i = 0; i < n; i++) if (origin[i] !== NO_DATA) layers[origin[i]!]!.cells++;

  const grid: ElevationGrid = { ...first, values, water, verticalDatum: 'NAVD88' };
  const { flagged, count } = options.flagRelief === false
    ? { flagged: new Uint8Array(n), count: 0 }
    : flagSurfaceRelief(grid, origin, layers.map((l) => l.source.surface_model === true));
  return { grid, origin, layers, flagged, flaggedCells: count };
}

/** Flags the surface-model cells that stand out of their neighbourhood (see `RELIEF_FLAG_M`). */
function flagSurfaceRelief(grid: ElevationGrid, origin: Uint8Array, surfaceLayer: boolean[]): { flagged: Uint8Array; count: number } {
  const { values, width, height, water } = grid;
  const flagged = new Uint8Array(values.length);
  let count = 0;
  if (!surfaceLayer.includes(true)) return { flagged, count };
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      if (origin[i] === NO_DATA || !surfaceLayer[origin[i]!] || water?.[i]) continue;
      let lowest = values[i]!;
      for (let r = math.max(0, row - RELIEF_RADIUS); r <= math.min(height - 1, row + RELIEF_RADIUS); r++) {
        for (let c = math.max(0, col - RELIEF_RADIUS); c <= math.min(width - 1, col + RELIEF_RADIUS); c++) {
          const v = values[r * width + c]!;
          if (v < lowest) lowest = v;
        }
      }
      if (values[i]! - lowest > RELIEF_FLAG_M) { flagged[i] = 1; count++; }
    }
  }
  return { flagged, count };
}

/** Half-width of the window read around a point: a few native cells of a 1 m to 30 m model. */
const POINT_WINDOW_DEG = 0.002;
const pointWindow = (point: LatLon): BBox => [point.lon - POINT_WINDOW_DEG, point.lat - POINT_WINDOW_DEG, point.lon + POINT_WINDOW_DEG, point.lat + POINT_WINDOW_DEG];
/** Enough for the point window at 1 m: the point is always read at the model's native resolution. */
const POINT_WINDOW_CELLS = 250_000;

export interface PointGround {
  ground_navd88_m: number;
  source: ElevationSourceInfo;
  open_water: boolean;
  /** Surface-model ground that looks like a roof or canopy (see `RELIEF_RULE`). */
  surface_flag: boolean;
}

/**
 * The ground at a point from the DEM at its native resolution (a small window around the point,
 * never the resampled analysis grid), interpolated bilinearly between the four surrounding posts.
 * Both the point answer and every asset of an area analysis use it, so they agree.
 */
export async function groundAtPoint(source: ElevationSource, point: LatLon, mslNavd88: number, options: GroundOptions = {}): Promise<PointGround | undefined> {
  const ground = await readGround(source, pointWindow(point), POINT_WINDOW_CELLS, mslNavd88, { allowSurfaceModel: options.allowSurfaceModel });
  if (!ground) return undefined;
  const cell = cellIndexAt(ground.grid, point.lat, point.lon);
  if (cell === undefined || ground.origin[cell] === NO_DATA) return undefined;
  const bilinear = sampleBilinear(ground.grid, point.lat, point.lon);
  return {
    ground_navd88_m: num.isNaN(bilinear) ? ground.grid.values[cell]! : bilinear,
    source: ground.layers[ground.origin[cell]!]!.source,
    open_water: ground.grid.water![cell] === 1,
    surface_flag: ground.flagged[cell] === 1,
  };
}

export interface SiteGround {
  ground_navd88_m: number;
  /** `surveyed` or the id (else the name) of the elevation model that gave the ground. */
  ground_source: string;
  basis: 'surveyed_ground' | 'surveyed_first_floor' | 'dem';
  /** The asset file's column (surveyed) or the DEM that gave the ground. */
  column?: string;
  source?: ElevationSourceInfo;
  open_water: boolean;
  surface_flag: boolean;
}

/** An asset's ground: its surveyed elevation when its file has one, else the DEM at its own location. */
export async function siteGround(source: ElevationSource, asset: AssetPoint, mslNavd88: number, options: GroundOptions = {}): Promise<SiteGround | undefined> {
  if (asset.surveyed) {
    return { ground_navd88_m: asset.surveyed.navd88_m, ground_source: 'surveyed', basis: asset.surveyed.kind === 'ground' ? 'surveyed_ground' : 'surveyed_first_floor', column: asset.surveyed.column, open_water: false, surface_flag: false };
  }
  const dem = await groundAtPoint(source, asset, mslNavd88, options);
  return dem && { ground_navd88_m: dem.ground_navd88_m, ground_source: modelIdOf(dem.source), basis: 'dem', source: dem.source, open_water: dem.open_water, surface_flag: dem.surface_flag };
}

/** How an answer names a model: its id, else its name. */
export const modelIdOf = (info: ElevationSourceInfo): string => info.elevation_model_id ?? info.name;

/** Why a place has no ground: only a surface model covers it (`no_bare_earth`), or no model at all (`outside_model`). */
export type NoGroundReason = 'no_bare_earth' | 'outside_model';

/**
 * The surface model that covers a point the bare-earth models do not (and that the caller did not
 * allow), undefined when none does: the difference between `no_bare_earth` and `outside_model`.
 */
export async function withheldSurfaceModelAt(source: ElevationSource, point: LatLon): Promise<ElevationSourceInfo | undefined> {
  const box = pointWindow(point);
  for (const layer of source.layersFor?.(box) ?? [source]) {
    if (!isSurfaceModel(layer)) continue;
    const grid = await layer.grid(box, POINT_WINDOW_CELLS);
    const cell = grid && cellIndexAt(grid, point.lat, point.lon);
    if (grid && cell !== undefined && !num.isNaN(grid.values[cell]!)) return layer.info();
  }
  return undefined;
}

export async function noGroundReason(source: ElevationSource, point: LatLon): Promise<NoGroundReason> {
  return (await withheldSurfaceModelAt(source, point)) ? 'no_bare_earth' : 'outside_model';
}

/** What an answer without bare earth says to do. */
export function noBareEarth(surface: ElevationSourceInfo) {
  return {
    status: 'no_bare_earth' as const,
    surface_model: { elevation_model_id: surface.elevation_model_id ?? null, name: surface.name },
    note: `Only a surface model (${surface.name}) covers this place: its heights include roofs and canopy, so no depth, inundated area or exposure is computed from it.`,
    what_to_do: 'Register or upload a bare-earth elevation model that covers the place (POST /hazards/elevation-models: a county lidar DEM, a NOAA coastal DEM or a USGS 3DEP tile in NAVD88 or NGVD29), or send `allow_surface_model: true` to accept the surface model for a screening answer (its ground is then flagged where it looks like a roof or canopy).',
  };
}

/** Whether SRTM supplied any cell of the ground. */
export function usesSrtm(ground: GroundGrid): boolean {
  return ground.layers.some((layer) => layer.cells > 0 && layer.source.elevation_model_id === SRTM_MODEL_ID);
}

/** How an answer names its ground: the model that answers, the share each source supplied and the surface-model flags. */
export function describeGround(ground: GroundGrid, inside?: Uint8Array) {
  const counted = new Array<number>(ground.layers.length).fill(0);
  let flagged = 0;
  let total = 0;
  for (let i = 0; i < ground.origin.length; i++) {
    if (ground.origin[i] === NO_DATA || (inside && !inside[i])) continue;
    counted[ground.origin[i]!]!++;
    total++;
    if (ground.flagged[i]) flagged++;
  }
  const share = (cells: number) => (total === 0 ? 0 : math.round((cells / total) * 10_000) / 10_000);
  const used = ground.layers.map((layer, i) => ({ layer, cells: counted[i]! })).filter((l) => l.cells > 0);
  return {
    source: ground.layers[0]!.source,
    sources: used.map(({ layer, cells }) => ({
      elevation_model_id: layer.source.elevation_model_id ?? null,
      name: layer.source.name,
      surface_model: layer.source.surface_model ?? null,
      share_of_cells: share(cells),
      vertical_offset_m: layer.correction.applied_offset_m,
      ...(layer.source.vertical_conversion ? { vertical_conversion: layer.source.vertical_conversion } : {}),
    })),
    ...(ground.layers.some((l) => l.source.surface_model)
      ? { surface_model_flags: { cells: flagged, share_of_cells: share(flagged), rule: RELIEF_RULE } }
      : {}),
    ...heightSteps(used.map(({ layer }) => layer)),
  };
}

/** How many of a stepped model's lowest land heights an answer lists. */
const LISTED_STEPS = 5;

/**
 * The NAVD88 levels at which a stepped model's land cells stand (SRTM: whole metres above its sea
 * surface, moved by the datum shift), so that a reader sees why an exposed area jumps between two
 * water levels and stays put between two others.
 */
function heightSteps(layers: GroundLayer[]) {
  const stepped = layers.find((layer) => layer.source.height_step_m);
  if (!stepped) return {};
  const step = stepped.source.height_step_m!;
  const offset = stepped.correction.applied_offset_m;
  return {
    height_steps: {
      elevation_model_id: stepped.source.elevation_model_id ?? null,
      step_m: step,
      lowest_land_levels_navd88_m: Array.from({ length: LISTED_STEPS }, (_, i) => math.round(((i + 1) * step + offset) * 1000) / 1000),
      note: `This model's heights come in whole steps of ${step} m: after the datum shift (${offset} m) its land cells stand at these NAVD88 levels and at none between. Where it supplies the ground, exposed area therefore grows in steps: a water level just above one of these levels reaches at once every connected cell of that height, and two water levels between the same two steps expose the same cells. The steps are the model's, not the ground's; ground at a point or an asset is interpolated between cells and has none.`,
    },
  };
}
