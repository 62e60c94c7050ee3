import { NO_SAMPLES } from '../../shared/domain/elevation-models/budget';
import { decodeWindowBatch, encodeWindowBatch, planWindows, tileWindow, windowBatches, windowTileNames, type WindowBatchResult } from '../../shared/domain/elevation-models/windows';
import type { LatticeFrame } from '../../shared/domain/elevation-models/reproject';

const TILE = 256;

/** The items of the processing fan-out (batches of windows) and what each leaves for the join. */
describe('window batches', () => {
  it('cover the windows in order, the last one short', () => {
    expect(windowBatches(7, 3)).toEqual([{ first: 0, count: 3 }, { first: 3, count: 3 }, { first: 6, count: 1 }]);
    expect(windowBatches(6, 3)).toEqual([{ first: 0, count: 3 }, { first: 3, count: 3 }]);
    expect(windowBatches(1)).toEqual([{ first: 0, count: 1 }]);
    expect(windowBatches(2, 1)).toEqual([{ first: 0, count: 1 }, { first: 1, count: 1 }]);
    expect(windowBatches(9)).toEqual([{ first: 0, count: 4 }, { first: 4, count: 4 }, { first: 8, count: 1 }]);
    expect(() => windowBatches(4, 0)).toThrow(/whole number/);
    expect(() => windowBatches(4, 1.5)).toThrow(/whole number/);
  });

  it('keep their results through the bytes: statistics (none at all included), names, gathered cells and water', () => {
    const gathered = { level: 1, row0: 2, col0: 3, width: 3, height: 1, values: Float32Array.of(1.5, Number.NaN, -2), water: Uint8Array.of(0, 1, 0) };
    const dry = { level: 1, row0: 0, col0: 0, width: 3, height: 2, values: Float32Array.of(7, 6, 5, 4, 3, 2) };
    const results: WindowBatchResult[] = [
      { samples: { cells: 10, valid: 8, min: -1.25, max: 3.5 }, windows: [{ present: [['0-0'], []], gathered }, { present: [['0-1'], ['0-0']] }, { present: [[]], gathered: dry }] },
      { samples: NO_SAMPLES, windows: [] },
      { refused: { code: 'elevation_out_of_range', detail: 'too high' } },
    ];
    for (const result of results) expect(decodeWindowBatch(encodeWindowBatch(result))).toEqual(result);
    // The header padded to 4 bytes, then 3 + 6 Float32 cells and 3 water flags, padded to 4: 39 → 40 bytes.
    const bytes = encodeWindowBatch(results[0]!);
    const header = new DataView(bytes.buffer).getUint32(0, true);
    expect(bytes.byteLength).toBe(Math.ceil((4 + header) / 4) * 4 + 40);
  });
});

/** Which tiles a window may write: what a batch that died part-way can have left behind. */
describe('the tiles of a window', () => {
  // 5¼ × 3 tiles of 256 cells and one row more, windows of 2 × 2 tiles: 3 × 2 windows, the last column and row short.
  const lattice = { width: 5 * TILE + 70, height: 3 * TILE + 1 } as LatticeFrame;
  const plan = planWindows(lattice, 2);

  it('are, over all windows, every tile of each level the windows tile, each named by one window only', () => {
    expect(plan.windows).toHaveLength(6);
    // Windows of 2 tiles tile levels 0 and 1 themselves (level 1: one tile per window); from level 2 the join does.
    expect(plan.gatheredLevel).toBe(2);
    for (let level = 0; level < plan.gatheredLevel; level++) {
      const cellsWide = Math.ceil(lattice.width / 2 ** level), cellsHigh = Math.ceil(lattice.height / 2 ** level);
      const expected: string[] = [];
      for (let ty = 0; ty < Math.ceil(cellsHigh / TILE); ty++) for (let tx = 0; tx < Math.ceil(cellsWide / TILE); tx++) expected.push(`${tx}-${ty}`);
      const named = plan.windows.flatMap((_, i) => windowTileNames(plan, i)[level]!);
      expect(new Set(named).size).toBe(named.length);
      expect([...named].sort()).toEqual(expected.sort());
    }
    expect(windowTileNames(plan, 0)).toEqual([['0-0', '1-0', '0-1', '1-1'], ['0-0']]);
    expect(windowTileNames(plan, 5)).toEqual([['4-2', '5-2', '4-3', '5-3'], ['2-1']]);
  });

  it('include every tile the window writes, and the ones it leaves out for holding no sample', () => {
    const window = plan.windows[2]!;
    const values = new Float32Array(window.width * window.height).fill(Number.NaN);
    values[0] = 1; // one sample in the window's first tile only
    const written = tileWindow(plan, { ...window, values });
    expect(written.present).toEqual([['4-0'], ['2-0']]);
    expect(windowTileNames(plan, 2)).toEqual([['4-0', '5-0', '4-1', '5-1'], ['2-0']]);
  });
});
