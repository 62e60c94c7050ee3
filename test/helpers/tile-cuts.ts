import type { ConnectionTile } from '../../shared/domain/hazards/tiled-connection';
import { joinTiles, settleTile, traceTile } from '../../shared/domain/hazards/tiled-connection';

/** A model's cells and water, cut at the given row and column positions (each list from 0 to the size). */
export function cutIntoTiles(values: Float32Array, water: Uint8Array, width: number, rowCuts: number[], colCuts: number[]): ConnectionTile[] {
  const tiles: ConnectionTile[] = [];
  for (let a = 0; a + 1 < rowCuts.length; a++) {
    for (let b = 0; b + 1 < colCuts.length; b++) {
      const row = rowCuts[a]!, col = colCuts[b]!;
      const w = colCuts[b + 1]! - col, h = rowCuts[a + 1]! - row;
      const tileValues = new Float32Array(w * h), tileWater = new Uint8Array(w * h);
      for (let r = 0; r < h; r++) {
        tileValues.set(values.subarray((row + r) * width + col, (row + r) * width + col + w), r * w);
        tileWater.set(water.subarray((row + r) * width + col, (row + r) * width + col + w), r * w);
      }
      tiles.push({ values: tileValues, water: tileWater, width: w, height: h, row, col });
    }
  }
  return tiles;
}

/** Spill levels over the tiles joined (trace each, join the rims, settle each), put back on the model's grid. */
export function tiledSpill(tiles: ConnectionTile[], width: number, height: number): Float32Array {
  const rims = joinTiles(tiles.map(traceTile));
  const spill = new Float32Array(width * height);
  tiles.forEach((tile, t) => {
    const settled = settleTile(tile, rims[t]!);
    for (let r = 0; r < tile.height; r++) spill.set(settled.subarray(r * tile.width, (r + 1) * tile.width), (tile.row + r) * width + tile.col);
  });
  return spill;
}
