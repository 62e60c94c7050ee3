import type { FloodModel } from './inundation';
import { isInundated, reachesSite } from './inundation';
import type { LayerSurface } from './hazard-layers';
import { forEachCellInPolygon } from './rasterize';

/**
 * A design water surface over the analysis area. Levels are NAVD88 metres; -Infinity means the
 * surface does not reach that place.
 */
export interface WaterSurface {
  levelAtCell(index: number): number;
  /** Level at a point; `cell` is its grid cell when elevation covers it. */
  levelAtPoint(lon: number, lat: number, cell: number | undefined): number;
  /** The one still-water level over the area, when the surface is one (its area is then a lookup by spill level). */
  uniformLevel?: number;
}

/**
 * One still-water level spreading from open water over connected low ground (tide, gauge surge
 * statistics). `levelAtSite` gives a site its own level (its own gauge interpolation); a site is
 * reached when its cell is open water or connected below that level (see reachesSite).
 */
export function connectedLevelSurface(level: number, model: FloodModel | undefined, levelAtSite?: (lon: number, lat: number) => number): WaterSurface {
  const atCell = (index: number) => (model && isInundated(model, index, level) ? level : -Infinity);
  return {
    uniformLevel: level,
    levelAtCell: atCell,
    // Without elevation the level is still known; the exposure then reports depth as unknown.
    levelAtPoint: (lon, lat, cell) => {
      const own = levelAtSite ? levelAtSite(lon, lat) : level;
      return reachesSite(model, cell, own) ? own : -Infinity;
    },
  };
}

/** Modelled water-surface polygons (operator layers), raised uniformly by `shift` metres of sea level rise. */
export function layerSurface(layer: LayerSurface, shift: number, model: FloodModel | undefined): WaterSurface {
  let raster: Float32Array | undefined;
  if (model) {
    raster = new Float32Array(model.grid.values.length).fill(-Infinity);
    for (const feature of layer.allFeatures) {
      forEachCellInPolygon(feature.geometry, model.grid, (index) => {
        if (feature.wse_navd88_m > raster![index]!) raster![index] = feature.wse_navd88_m;
      });
    }
  }
  return {
    levelAtCell: (index) => (raster ? raster[index]! + shift : -Infinity),
    levelAtPoint: (lon, lat) => {
      const wse = layer.wseAt(lon, lat);
      return wse === undefined ? -Infinity : wse + shift;
    },
  };
}

/** The envelope (highest level at each place) of several surfaces: the compound combination. */
export function envelopeSurface(surfaces: readonly WaterSurface[]): WaterSurface {
  // Connected still-water levels: connected below the highest is connected below one of them.
  const uniform = surfaces.every((s) => s.uniformLevel !== undefined) ? Math.max(...surfaces.map((s) => s.uniformLevel!)) : undefined;
  return {
    ...(uniform !== undefined ? { uniformLevel: uniform } : {}),
    levelAtCell: (index) => Math.max(...surfaces.map((s) => s.levelAtCell(index))),
    levelAtPoint: (lon, lat, cell) => Math.max(...surfaces.map((s) => s.levelAtPoint(lon, lat, cell))),
  };
}
