import { SrtmTileSource } from '../../shared/adapters/elevation/srtm-tiles';
import type { ElevationGrid } from '../../shared/domain/hazards/elevation';
import { floodModel, inundationWithinRadius, isInundated } from '../../shared/domain/hazards/inundation';
import { toNavd88 } from '../../shared/domain/hazards/vertical-datum';
import { bundledTiles, readTile, SRTM_SIZE, tileOrigin } from './readers/srtm';

/** Deterministic pseudo-random offsets (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Offsets MSL − NAVD88 of every kind: Florida's range, awkward binary fractions and random draws. */
const next = random(20261123);
const OFFSETS = [-0.266, -0.1 - 0.2, 0.1 + 0.2, ...Array.from({ length: 2 }, () => Math.round((next() - 0.7) * 1e6) / 1e6)];
const RISES = [0.001, 0.3, 3];
const BLOCK = 180; // 0.05° of 1″ samples

/** The 0.05° blocks of a tile where raw water (0) and land meet most evenly: the coast. */
function coastalBlocks(raw: Int16Array, count: number): { row: number; col: number }[] {
  const blocks: { row: number; col: number; mix: number }[] = [];
  for (let br = 0; br < 20; br++) {
    for (let bc = 0; bc < 20; bc++) {
      let water = 0;
      let land = 0;
      for (let r = br * BLOCK; r < (br + 1) * BLOCK; r += 3) {
        for (let c = bc * BLOCK; c < (bc + 1) * BLOCK; c += 3) {
          const v = raw[r * SRTM_SIZE + c]!;
          if (v <= 0 && v !== -32768) water++;
          else if (v !== -32768) land++;
        }
      }
      if (water > 0 && land > 0) blocks.push({ row: br * BLOCK, col: bc * BLOCK, mix: Math.min(water, land) });
    }
  }
  return blocks.sort((a, b) => b.mix - a.mix).slice(0, count);
}

describe('open water (raw SRTM 0, and the negative edge noise beside it) is never counted as inundated land (every bundled SRTM tile, any gauge offset)', () => {
  const source = new SrtmTileSource();

  it.each(bundledTiles())('tile %s', async (tile) => {
    const raw = readTile(tile);
    const origin = tileOrigin(tile);
    const blocks = coastalBlocks(raw, 2);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const north = origin.lat + 1 - block.row / 3600;
      const west = origin.lon + block.col / 3600;
      const g = (await source.grid([west, north - (BLOCK - 1) / 3600, west + (BLOCK - 1) / 3600, north], 1_000_000))!;
      expect(g.cellLat).toBeCloseTo(1 / 3600, 12);
      // The raw sample under each grid cell, located from the grid's own geometry.
      const rawAt = (index: number) => {
        const row = Math.round((origin.lat + 1 - (g.north - Math.floor(index / g.width) * g.cellLat)) * 3600);
        const col = Math.round((g.west + (index % g.width) * g.cellLon - origin.lon) * 3600);
        return raw[row * SRTM_SIZE + col]!;
      };
      const waterCells: number[] = [];
      for (let i = 0; i < g.values.length; i++) if (rawAt(i) <= 0) waterCells.push(i);
      expect(waterCells.length).toBeGreaterThan(0);
      for (const offset of OFFSETS) {
        const model = floodModel(toNavd88(g, offset).grid, offset);
        for (const rise of RISES) {
          const level = offset + rise;
          const { mask } = inundationWithinRadius(model, { lat: north - 0.025, lon: west + 0.025 }, 50, level);
          for (const i of waterCells) {
            if (isInundated(model, i, level) || mask[i]) throw new Error(`${tile}: raw water cell ${i} counted as land at offset ${offset}, level ${level}`);
          }
        }
      }
    }
  });

  it('a DEM without a water flag keeps its sea surface as water whatever the float32 rounding of the offset', () => {
    // Sea cells at the local mean sea surface, stored in float32 as every DEM grid is.
    for (const offset of OFFSETS) {
      const values = new Float32Array(9).fill(offset);
      values[4] = offset + 2;
      const grid: ElevationGrid = { values, width: 3, height: 3, west: 0, north: 0.02, cellLon: 0.01, cellLat: 0.01, verticalDatum: 'NAVD88', source: 'test' };
      const model = floodModel(grid, offset);
      for (const i of [0, 1, 2, 3, 5, 6, 7, 8]) expect(isInundated(model, i, offset + 0.5)).toBe(false);
      expect(isInundated(model, 4, offset + 2.5)).toBe(true);
    }
  });
});
