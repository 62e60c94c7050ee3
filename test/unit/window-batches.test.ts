import { NO_SAMPLES } from '../../shared/domain/elevation-models/budget';
import { decodeWindowBatch, encodeWindowBatch, windowBatches, type WindowBatchResult } from '../../shared/domain/elevation-models/windows';

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
