import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectionPool, tiledInundation, type TileCells } from '../../shared/adapters/elevation/connection-threads';
import { writeModelDirectory } from '../../shared/adapters/elevation/tiled-model';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { tileWindows } from '../../shared/domain/hazards/tiled-connection';
import { syntheticModel, syntheticWindow } from '../helpers/synthetic-surface';

/**
 * The per-tile passes in a pool of worker threads, each thread reading its own tile file: the land
 * connected at each level equals the count over the single grid.
 */
const surface = { width: 700, height: 520, seed: 3 };
const levels = [0.5, 1, 2.5];
let directory: string;
let tiles: TileCells[];

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'connection-tiles-'));
  tiles = tileWindows(surface.width, surface.height, 256).map((window, t) => {
    const { values, water } = syntheticWindow(surface, window.row, window.col, window.width, window.height);
    const file = path.join(directory, `${t}.raw`);
    writeFileSync(file, Buffer.concat([Buffer.from(values.buffer), Buffer.from(water.buffer)]));
    return { kind: 'raw', file, ...window };
  });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('tidal connection in a worker pool', () => {
  it('cuts a grid into tiles of at most a side, covering it once', () => {
    const windows = tileWindows(700, 520, 256);
    expect(windows).toHaveLength(3 * 3);
    expect(windows.at(-1)).toEqual({ row: 512, col: 512, width: 188, height: 8 });
    expect(windows.reduce((sum, w) => sum + w.width * w.height, 0)).toBe(700 * 520);
  });

  it('counts the land the single grid counts at every level, with two threads', async () => {
    const whole = syntheticWindow(surface, 0, 0, surface.width, surface.height);
    const spill = spillLevels(whole, (i) => whole.water[i] === 1);
    const expected = levels.map((level) => {
      let count = 0;
      for (let i = 0; i < spill.length; i++) if (whole.water[i] !== 1 && !Number.isNaN(whole.values[i]!) && spill[i]! < level) count++;
      return count;
    });
    const pool = connectionPool(2);
    try {
      const answer = await tiledInundation(pool, tiles, 0, levels);
      expect(answer.connected).toEqual(expected);
      expect(answer.cells).toBe([...whole.values].filter((v) => !Number.isNaN(v)).length);
      expect(answer.threadPeakBytes).toBeGreaterThan(256 * 256 * 5);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('reads each tile from level 0 of a processed model in a directory, water from the sea surface', async () => {
    const seaSurface = 0.3;
    const whole = syntheticWindow(surface, 0, 0, surface.width, surface.height, seaSurface);
    const { record, tiles: stored } = syntheticModel('em_pool', whole.values, surface.width, surface.height);
    const modelDirectory = path.join(directory, 'model');
    await writeModelDirectory(modelDirectory, record, stored);
    const spill = spillLevels(whole, (i) => whole.water[i] === 1);
    const expected = levels.map((level) => spill.reduce((count, s, i) => count + (whole.water[i] !== 1 && !Number.isNaN(whole.values[i]!) && s < level ? 1 : 0), 0));
    const pool = connectionPool(2);
    try {
      const modelTiles: TileCells[] = tileWindows(surface.width, surface.height, 300).map((window) => ({ kind: 'model', directory: modelDirectory, ...window }));
      const answer = await tiledInundation(pool, modelTiles, seaSurface, levels);
      expect(answer.connected).toEqual(expected);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fails only the task whose tile cannot be read, and keeps serving', async () => {
    const pool = connectionPool(1);
    try {
      const missing: TileCells = { kind: 'raw', file: path.join(directory, 'absent.raw'), row: 0, col: 0, width: 2, height: 2 };
      await expect(pool.run({ pass: 'trace', cells: missing, seaSurface: 0 })).rejects.toThrow(/ENOENT/);
      const short: TileCells = { ...tiles[0]!, width: 10 };
      await expect(pool.run({ pass: 'trace', cells: short, seaSurface: 0 })).rejects.toThrow(/expected 12800\./);
      const reply = await pool.run({ pass: 'trace', cells: tiles[0]!, seaSurface: 0 });
      expect('trace' in reply && reply.trace.rimGround.length).toBe(2 * 256 + 2 * 256 - 4);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
