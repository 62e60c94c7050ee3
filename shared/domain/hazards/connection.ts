import { cellSizeMetres, type ElevationSource } from './elevation';
import type { BBox, LatLon } from './geo';
import { groundLayers, modelIdOf, readGround, sameLayers, type GroundOptions } from './ground';
import { floodModel, type FloodModel } from './inundation';

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
}

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
  return traced;
}

/** How an answer names the ground its tidal connection was traced on. */
export function describeConnection(connection: Connection | undefined) {
  if (!connection) {
    return { traced_over: 'window', method: 'The elevation source states no model extent here: connection is traced within the window read.' };
  }
  return {
    traced_over: 'whole_model',
    extent_bbox: connection.extent.map((v) => Math.round(v * 1e6) / 1e6),
    models: connection.models,
    cell_size_m: connection.cell_size_m,
    method: 'Tidal connection is traced over the whole extent of the elevation model(s) around the place (8-neighbour, through cells below the water level), not within the reported radius or boundary: the answer at a place does not change with the radius, which bounds only the area reported.',
  };
}
