import { mosaicOf, partWindow, pasteBlock } from '../../shared/domain/elevation-models/mosaic';
import { RasterError } from '../../shared/domain/elevation-models/raster-error';
import type { RasterFrame } from '../../shared/domain/elevation-models/reproject';
import { demCrs } from '../../shared/domain/elevation-models/crs';

/** The parts of a model on one grid: placements by hand on small frames of 10 m cells (UTM 17N). */
const UTM17 = demCrs(26917)!;
const frame = (col: number, row: number, width: number, height: number, overrides: Partial<RasterFrame> = {}): RasterFrame => ({
  width, height, x0: 500_000 + col * 10, y0: 3_000_000 - row * 10, dx: 10, dy: -10, crs: UTM17, ...overrides,
});

function refused(run: () => unknown): RasterError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RasterError);
    return error as RasterError;
  }
  throw new Error('not refused');
}

describe('the mosaic of a model\'s parts', () => {
  it('places parts on their shared grid from the north-west corner of all of them', () => {
    // Part 1 south-east of part 2: the mosaic starts at part 2.
    const { frame: mosaic, placements } = mosaicOf([frame(30, 20, 40, 25), frame(0, 0, 30, 20), frame(70, 0, 5, 5)]);
    expect(mosaic).toEqual({ width: 75, height: 45, x0: 500_000, y0: 3_000_000, dx: 10, dy: -10, crs: UTM17 });
    expect(placements).toEqual([
      { col0: 30, row0: 20, width: 40, height: 25 },
      { col0: 0, row0: 0, width: 30, height: 20 },
      { col0: 70, row0: 0, width: 5, height: 5 },
    ]);
  });

  it('is the part itself for one part', () => {
    expect(mosaicOf([frame(3, 4, 7, 9)])).toEqual({ frame: frame(3, 4, 7, 9), placements: [{ col0: 0, row0: 0, width: 7, height: 9 }] });
  });

  it('accepts origins within a thousandth of a cell of the grid and cell sizes within a thousandth, no further', () => {
    expect(mosaicOf([frame(0, 0, 10, 10), frame(10, 0, 10, 10, { x0: 500_100 + 0.009, y0: 3_000_000 - 0.009 })]).placements[1]).toEqual({ col0: 10, row0: 0, width: 10, height: 10 });
    expect(mosaicOf([frame(0, 0, 10, 10), frame(10, 0, 10, 10, { dx: 10.009, dy: -10.009 })]).frame.width).toBe(20);
    expect(refused(() => mosaicOf([frame(0, 0, 10, 10), frame(10, 0, 10, 10, { x0: 500_100 + 0.011 })])).message)
      .toBe('Part 2 of 2 starts 10.001 columns and 0.000 rows from part 1: the parts of one model lie on one grid, a whole number of cells apart.');
    expect(refused(() => mosaicOf([frame(0, 0, 10, 10), frame(0, 10, 10, 10, { y0: 3_000_000 - 100 - 0.011 })])).message).toMatch(/starts 0\.000 columns and 10\.001 rows/);
    const wider = refused(() => mosaicOf([frame(0, 0, 10, 10), frame(0, 0, 10, 10), frame(10, 0, 10, 10, { dx: 10.011 })]));
    expect([wider.code, wider.message]).toEqual(['unusable_raster', 'Part 3 of 3 has cells of 10.011 × 10, part 1 of 10 × 10: the parts of one model share one cell size (create a model per resolution).']);
    expect(refused(() => mosaicOf([frame(0, 0, 10, 10), frame(10, 0, 10, 10, { dy: -10.011 })])).message).toMatch(/^Part 2 of 2 has cells of 10 × 10\.011/);
  });

  it('refuses a part in another CRS', () => {
    const error = refused(() => mosaicOf([frame(0, 0, 10, 10), frame(10, 0, 10, 10, { crs: demCrs(26916)! })]));
    expect([error.code, error.message]).toEqual(['unsupported_crs', 'Part 2 of 2 is in EPSG:26916, part 1 in EPSG:26917: the parts of one model lie on one grid (create a model per CRS).']);
  });

  it('allows a sparse grid up to a million cells, and up to 4 times the parts\' cells past that', () => {
    // Two single cells 999 cells apart: 1,000 × 1,000 = 10⁶ cells, at the small-mosaic allowance.
    expect(mosaicOf([frame(0, 0, 1, 1), frame(999, 999, 1, 1)]).frame).toMatchObject({ width: 1000, height: 1000 });
    expect(refused(() => mosaicOf([frame(0, 0, 1, 1), frame(1000, 999, 1, 1)])).message)
      .toBe('The 2 parts span a grid of 1001 × 1000 cells (1001000); the limit is 1000000 for their 2 cells: do they adjoin?');
    // 2 × 500,000 cells: up to 4 × 10⁶ cells of grid.
    expect(mosaicOf([frame(0, 0, 1000, 500), frame(0, 3500, 1000, 500)]).frame.height).toBe(4000);
    const apart = refused(() => mosaicOf([frame(0, 0, 1000, 500), frame(0, 3501, 1000, 500)]));
    expect([apart.code, apart.message]).toEqual(['resampled_grid_too_large', 'The 2 parts span a grid of 1000 × 4001 cells (4001000); the limit is 4000000 for their 1000000 cells: do they adjoin?']);
  });

  it('gives the cells of a window a part holds, in the part\'s own cells', () => {
    const placement = { col0: 10, row0: 20, width: 30, height: 40 };
    expect(partWindow(placement, { col0: 0, row0: 0, width: 100, height: 100 })).toEqual({ col0: 0, row0: 0, width: 30, height: 40 });
    expect(partWindow(placement, { col0: 15, row0: 25, width: 5, height: 6 })).toEqual({ col0: 5, row0: 5, width: 5, height: 6 });
    expect(partWindow(placement, { col0: 35, row0: 55, width: 20, height: 20 })).toEqual({ col0: 25, row0: 35, width: 5, height: 5 });
    expect(partWindow(placement, { col0: 0, row0: 0, width: 11, height: 21 })).toEqual({ col0: 0, row0: 0, width: 1, height: 1 });
    // Touching edges hold no cell.
    expect(partWindow(placement, { col0: 40, row0: 20, width: 5, height: 5 })).toBeUndefined();
    expect(partWindow(placement, { col0: 0, row0: 20, width: 10, height: 5 })).toBeUndefined();
    expect(partWindow(placement, { col0: 10, row0: 60, width: 5, height: 5 })).toBeUndefined();
    expect(partWindow(placement, { col0: 10, row0: 0, width: 5, height: 20 })).toBeUndefined();
  });

  it('pastes a part\'s samples where no earlier part has ground, skipping its no-data', () => {
    const window = { col0: 100, row0: 200, width: 4, height: 3 };
    const into = new Float32Array(12).fill(Number.NaN);
    into[5] = 7; // an earlier part's sample at window row 1, column 1
    // The part starts at mosaic column 99, row 200; its block is its cells from row 1, column 2: window rows 1–2, columns 1–3.
    const placement = { col0: 99, row0: 200, width: 10, height: 10 };
    pasteBlock(into, window, placement, { col0: 2, row0: 1, width: 3, height: 2, values: Float32Array.from([1, 2, -9999, 4, 5, 6]) }, -9999);
    expect([...into]).toEqual([NaN, NaN, NaN, NaN, NaN, 7, 2, NaN, NaN, 4, 5, 6]);
    // Fill values count as no data whatever the part declares.
    pasteBlock(into, window, { col0: 100, row0: 200, width: 4, height: 3 }, { col0: 0, row0: 0, width: 4, height: 1, values: Float32Array.from([1e30, 8, Number.NaN, 9]) }, undefined);
    expect([...into.subarray(0, 4)]).toEqual([NaN, 8, NaN, 9]);
  });
});
