import { readFileSync } from 'node:fs';
import { fromArrayBuffer } from 'geotiff';
import { processDemInThread } from '../../shared/adapters/elevation/dem-thread';
import { processDem, readGeoTiffDem } from '../../shared/adapters/elevation/geotiff-dem';
import { checkDeclaredRaster, checkElevationStats, checkLatticeSize, checkWindowSource, sampleStats } from '../../shared/domain/elevation-models/budget';
import { RasterError } from '../../shared/domain/elevation-models/raster-error';
import { verticalConversion } from '../../shared/domain/elevation-models/vertical';
import { TAMPA_CLIP } from '../helpers/dem-fixture';
import { hostileRasters, plainRaster } from '../helpers/hostile-rasters';
import { writeTiff } from '../helpers/tiff-writer';

const NAVD88_M = { vertical_datum: 'NAVD88', units: 'm' } as const;

/** The code of the refusal `run` ends with (undefined when it does not refuse). */
async function refusal(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof RasterError)) throw error;
    return error.code;
  }
}

describe('the test encoder writes what a GeoTIFF reader reads back', () => {
  it.each(['none', 'deflate', 'lzw'] as const)('%s, in strips and in tiles', async (compression) => {
    const value = (row: number, col: number) => ((row * 31 + col * 7) % 101) - 3.25;
    for (const layout of [{ rowsPerStrip: 5 }, { tile: 16 }]) {
      const bytes = writeTiff({ width: 33, height: 21, epsg: 26917, origin: [350_000, 3_100_000], cellSize: [10, 10], compression, layout, value });
      const image = await (await fromArrayBuffer(bytes.buffer as ArrayBuffer)).getImage();
      const [band] = await image.readRasters({ interleave: false }) as unknown as [Float32Array];
      const expected = Float32Array.from({ length: 33 * 21 }, (_, i) => value(Math.floor(i / 33), i % 33));
      expect(band).toEqual(expected);
    }
  });
});

describe('an upload is priced from its header before any strip is decoded', () => {
  // Each file is refused before decoding: run in this process on purpose, a decoded bomb would show here.
  it.each(Object.entries(hostileRasters()).map(([name, raster]) => [name, raster.code, raster.bytes] as const))('%s is refused with %s', async (_name, code, bytes) => {
    const before = process.memoryUsage().rss;
    expect(await refusal(() => processDem(bytes(), NAVD88_M))).toBe(code);
    // Nothing of the declared size was allocated (the bombs declare 16 to 34 MiB of samples; the stretched lattice terabytes).
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('accepts the same layouts at sizes within the limits, and reads every sample', async () => {
    for (const compression of ['lzw', 'deflate'] as const) {
      const bytes = plainRaster({ width: 120, height: 80, compression, layout: { tile: 32 }, value: (row, col) => row + col / 1000 });
      const raster = await readGeoTiffDem(bytes);
      expect(Array.from(raster.values)).toEqual(Array.from(Float32Array.from({ length: 120 * 80 }, (_, i) => Math.floor(i / 120) + (i % 120) / 1000)));
    }
  });

  it('states its limits on declared figures: cells, bytes per sample, block size, ratio, and blocks inside the file', () => {
    const base = { width: 1000, height: 1000, bytesPerSample: 4, blockCells: 256 * 256, blockByteCounts: [100_000], blockOffsets: [8], compression: 8, fileBytes: 100_008 };
    expect(() => checkDeclaredRaster(base)).not.toThrow();
    const code = (changes: Partial<typeof base>) => { try { checkDeclaredRaster({ ...base, ...changes }); return undefined; } catch (e) { return (e as RasterError).code; } };
    expect(code({ width: 200_000, height: 200_001 })).toBe('raster_too_large'); // 40,000,200,000 cells
    expect(code({ width: 200_000, height: 200_000, blockByteCounts: [800_000_000], fileBytes: 800_000_008 })).toBeUndefined(); // 4 × 10¹⁰ cells at 200 : 1
    // Decoded one window at a time: a whole raster of 512 MB of samples is no longer refused by its header.
    expect(code({ width: 8000, height: 8000, bytesPerSample: 8, blockByteCounts: [10_000_000], fileBytes: 10_000_008 })).toBeUndefined();
    expect(code({ blockCells: 8_388_609 })).toBe('raster_too_large'); // one byte-quad over 32 MiB
    expect(code({ blockCells: 8_388_608 })).toBeUndefined();
    // 4,000,000 bytes decoded: 20,000 compressed bytes is 200 : 1 exactly, one fewer is over.
    expect(code({ blockByteCounts: [20_000], fileBytes: 20_008 })).toBeUndefined();
    expect(code({ blockByteCounts: [19_999], fileBytes: 20_007 })).toBe('compression_ratio_exceeded');
    expect(code({ compression: 1, blockByteCounts: [19_999], fileBytes: 20_007 })).toBeUndefined();
    expect(code({ fileBytes: 100_007 })).toBe('unreadable_raster');
  });

  it('limits what one window decodes, and a lattice to 4 × its source cells past a million', () => {
    const code = (check: () => void) => { try { check(); return undefined; } catch (e) { return (e as RasterError).code; } };
    expect(code(() => checkWindowSource(8000, 8000, 4))).toBeUndefined(); // 64 M cells, 256 MiB
    expect(code(() => checkWindowSource(8001, 8000, 4))).toBe('raster_too_large');
    expect(code(() => checkWindowSource(8000, 8000, 8))).toBe('raster_too_large'); // 512 MiB
    expect(code(() => checkWindowSource(8000, 4000, 8))).toBeUndefined();
    expect(code(() => checkLatticeSize(1000, 1000, 1, 10))).toBeUndefined(); // a million cells at any growth
    expect(code(() => checkLatticeSize(1000, 1001, 1, 250_000))).toBe('resampled_grid_too_large'); // over 4 × 250,000
    expect(code(() => checkLatticeSize(2000, 2000, 1, 1_000_000))).toBeUndefined();
    expect(code(() => checkLatticeSize(200_000, 200_001, 1, 1.2e10))).toBe('resampled_grid_too_large'); // over 4 × 10¹⁰
    expect(code(() => checkLatticeSize(200_000, 200_000, 1, 1.2e10))).toBeUndefined();
    expect(code(() => checkLatticeSize(200_000, 100_001, 1, 5e9))).toBe('resampled_grid_too_large'); // over 4 × its 5 × 10⁹ source cells
  });

  it('reads NaN, the declared no-data and fill values as no-data, and wants 1 % valid cells within −500…9,000 m', () => {
    const metres = verticalConversion(NAVD88_M);
    const feet = verticalConversion({ vertical_datum: 'NAVD88', units: 'ft' });
    const grid = (valid: number[], rest: number, total = 400) => [...valid, ...Array<number>(total - valid.length).fill(rest)];
    const code = (values: number[], nodata?: number, conversion = metres) => { try { checkElevationStats(sampleStats(values, nodata), conversion); return undefined; } catch (e) { return (e as RasterError).code; } };
    expect(code(grid([1, 2, 3, 4], Number.NaN))).toBeUndefined(); // 4 of 400 = 1 %
    expect(code(grid([1, 2, 3], Number.NaN))).toBe('no_valid_cells');
    expect(code(grid([1, 2, 3, 4], -9999, 401), -9999)).toBe('no_valid_cells'); // under 1 %
    expect(code(grid([], -1e30))).toBe('no_valid_cells');
    expect(code(grid([5, 6, 7, 8], -3.4028235e38))).toBeUndefined();
    expect(code(grid([-500, 9000, 7, 8], Number.NaN))).toBeUndefined();
    expect(code(grid([-500.1, 7, 8, 9], Number.NaN))).toBe('elevation_out_of_range');
    expect(code(grid([9000.1, 7, 8, 9], Number.NaN))).toBe('elevation_out_of_range');
    // 29,528 US survey feet is 9,000.1 m; 29,527 ft is 8,999.8 m.
    expect(code(grid([29_528, 7, 8, 9], Number.NaN), undefined, feet)).toBe('elevation_out_of_range');
    expect(code(grid([29_527, 7, 8, 9], Number.NaN), undefined, feet)).toBeUndefined();
  });
});

describe('decoding in a worker thread', () => {
  it('processes the bundled clip as in this process, and hands the tiles back', async () => {
    const bytes = readFileSync(TAMPA_CLIP);
    const options = { vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: -0.3 } as const;
    const [inThread, here] = [await processDemInThread(bytes, options), await processDem(bytes, options)];
    expect(inThread.index).toEqual(here.index);
    expect([...inThread.tiles.keys()]).toEqual([...here.tiles.keys()]);
    for (const [key, tile] of here.tiles) expect(Buffer.from(inThread.tiles.get(key)!).equals(Buffer.from(tile))).toBe(true);
  });

  it('carries a refusal across with its code, and ends a thread that outgrows its heap or its time as a file error', async () => {
    const { bytes, code } = hostileRasters()['deflate bomb']!;
    expect(await refusal(() => processDemInThread(bytes(), NAVD88_M))).toBe(code);
    const clip = readFileSync(TAMPA_CLIP);
    const options = { vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: -0.3 } as const;
    expect(await refusal(() => processDemInThread(clip, options, {}, { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2, stackSizeMb: 4, timeLimitMs: 60_000 }))).toBe('processing_limit_exceeded');
    expect(await refusal(() => processDemInThread(clip, options, {}, { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 64, stackSizeMb: 4, timeLimitMs: 50 }))).toBe('processing_limit_exceeded');
  });
});
