import { cellSizeMetres, type CachedConnection, type ElevationGrid, type ElevationSource } from './elevation';
import type { BBox, LatLon } from './geo';
import { groundLayers, modelIdOf, readGround, sameLayers, type GroundOptions } from './ground';
import { floodModel, lowerToSampledSpill, type FloodModel } from './inundation';

/**
 * Cells of the grid tidal connection is traced on: adjoining 30 m quads whole at their native
 * resolution, a 1° tile of a 1 arc-second model at 2 arc-seconds.
 */
export const CONNECTION_CELLS = 4_000_000;
/** Whole-model flood models kept between requests (a few MB each). */
const CACHED_CONNECTIONS = 4;

/** Tidal connection over the whole elevation model(s) around a place. */
export interface Connection {
  model: FloodModel;
  extent: BBox;
  /** The models it was traced on (id, else name). */
  models: string[];
  cell_size_m: number;
  /** The connection cached at native resolution by the model answering the window, when its run is ready. */
  cache?: CachedConnection;
}

/**
 * Tiles of a model's connection cache (up to 2,048² cells, 16 MB decoded, each) one grid may read:
 * a window of a few kilometres at 1 m. A wider grid (a county's, decimated) is lowered by the
 * traced connection alone; its native-resolution pass reads the cache window by window.
 */
export const MAX_CACHE_TILES_PER_GRID = 32;

/** Whether and how a grid used the cache (reported as `connection.model_cache`). */
export type CacheUse = Pick<CachedConnection, 'elevation_model_id' | 'sea_surface_navd88_m' | 'water_flag' | 'cell_size_m'>
  & ({ used: true; cells_lowered: number } | { used: false; reason: string });

/** Traced connections by models, extent and water surface, with the layer objects they were read from. */
const cache = new Map<string, { layers: ElevationSource[]; traced: Promise<Connection | undefined> }>();

const union = (a: BBox, b: BBox): BBox => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/**
 * The flood model of the whole extent of the model(s) answering at `place` (joined with `box`, the
 * window an answer reports on, where it reaches further), traced once per model and water surface
 * and kept: the connection of every cell of the window is then the same whatever the window's
 * size. undefined when the source knows no extent at the place (the window alone decides).
 */
export function connectionAround(source: ElevationSource, place: LatLon, box: BBox, mslNavd88: number, options: GroundOptions = {}): Promise<Connection | undefined> {
  const modelExtent = source.extentAt?.(place.lon, place.lat);
  if (!modelExtent) return Promise.resolve(undefined);
  const extent = union(modelExtent, box);
  const layers = groundLayers(source, extent, options);
  const key = `${layers.map((layer) => modelIdOf(layer.info())).join('|')}|${extent.join(',')}|${Math.fround(mslNavd88)}`;
  const kept = cache.get(key);
  // Two sources may name their models alike: only the very same layers share a trace.
  const same = kept !== undefined && sameLayers(kept.layers, layers);
  cache.delete(key);
  let traced = same ? kept.traced : undefined;
  if (!traced) {
    traced = (async () => {
      const ground = await readGround(source, extent, CONNECTION_CELLS, mslNavd88, { flagRelief: false, allowSurfaceModel: options.allowSurfaceModel });
      if (!ground) return undefined;
      const used = ground.layers.filter((layer) => layer.cells > 0).map((layer) => modelIdOf(layer.source));
      return { model: floodModel(ground.grid, mslNavd88), extent, models: used, cell_size_m: cellSizeMetres(ground.grid) };
    })();
    traced.catch(() => cache.delete(key));
  }
  cache.set(key, { layers, traced });
  if (cache.size > CACHED_CONNECTIONS) cache.delete(cache.keys().next().value!);
  // The cache is asked afresh each time: a run may have become ready since the trace was kept.
  return withCache(traced, groundLayers(source, box, options)[0]);
}

async function withCache(traced: Promise<Connection | undefined>, answering: ElevationSource | undefined): Promise<Connection | undefined> {
  const [connection, modelCache] = await Promise.all([traced, answering?.cachedConnection?.()]);
  return connection && modelCache ? { ...connection, cache: modelCache } : connection;
}

/**
 * The flood model of `grid` over the connection: each cell connected at the lowest of its spill
 * level within the grid, over the traced whole model, and over the model's cache at native
 * resolution. Each is the level of a path that water takes from open water, so the lowest is one
 * too — provided the cache's open water is open water here: the model's own flag, or ground at or
 * below a sea surface no higher than this one (a cache traced higher would start paths from land).
 */
export async function connectedFloodModel(grid: ElevationGrid, mslNavd88: number, connection: Connection | undefined): Promise<{ model: FloodModel; cacheUse?: CacheUse }> {
  const model = floodModel(grid, mslNavd88, connection?.model);
  const modelCache = connection?.cache;
  if (!modelCache) return { model };
  const { elevation_model_id, sea_surface_navd88_m, water_flag, cell_size_m } = modelCache;
  const described = { elevation_model_id, sea_surface_navd88_m, water_flag, cell_size_m };
  if (!water_flag && Math.fround(sea_surface_navd88_m) > Math.fround(mslNavd88)) {
    return { model, cacheUse: { ...described, used: false, reason: `The cache was traced with ground at or below ${sea_surface_navd88_m} m NAVD88 as open water, above this location's mean sea level (${mslNavd88.toFixed(3)} m NAVD88): land between the two would count as water.` } };
  }
  const sampled = await modelCache.spillOn(grid, MAX_CACHE_TILES_PER_GRID);
  if (!(sampled instanceof Float32Array)) {
    return { model, cacheUse: { ...described, used: false, reason: `The grid spans ${sampled.tiles} tiles of the cache, more than the ${MAX_CACHE_TILES_PER_GRID} one grid reads.` } };
  }
  return { model, cacheUse: { ...described, used: true, cells_lowered: lowerToSampledSpill(model, sampled) } };
}

/** How an answer names the ground its tidal connection was traced on (and the model's cache, where it has one). */
export function describeConnection(connection: Connection | undefined, cacheUse?: CacheUse) {
  if (!connection) {
    return { traced_over: 'window', method: 'The elevation source states no model extent here: connection is traced within the window read.' };
  }
  return {
    traced_over: 'whole_model',
    extent_bbox: connection.extent.map((v) => Math.round(v * 1e6) / 1e6),
    models: connection.models,
    cell_size_m: connection.cell_size_m,
    method: 'Tidal connection is traced over the whole extent of the elevation model(s) around the place (8-neighbour, through cells below the water level), not within the reported radius or boundary: the answer at a place does not change with the radius, which bounds only the area reported.',
    ...(cacheUse ? { model_cache: { ...cacheUse, method: CACHE_METHOD } } : {}),
  };
}

const CACHE_METHOD = 'The model\'s own connection run traced every cell\'s spill level over the whole model at its native resolution. Where used, each cell of the answer\'s grid is connected at the lower of the level traced above and that of the model\'s cell nearest it, so channels narrower than the traced cell size are followed.';
