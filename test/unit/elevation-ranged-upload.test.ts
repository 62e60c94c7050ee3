import { processDem, processStoredDem, type ProcessedDem } from '../../shared/adapters/elevation/geotiff-dem';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { writeTiff, type TiffSpec } from '../helpers/tiff-writer';

/**
 * An upload is processed where it is stored, read by byte ranges one window at a time: the pyramid
 * is the very one its bytes give in memory, no read takes the whole file, and the bytes read add
 * up to about the file once (a window's strips or tiles are read once and kept while the next
 * windows of the same rows need them).
 */
const WIDTH = 1300, HEIGHT = 1100;
/** Rough terrain (so deflate leaves the file at several block sizes), a few metres high. */
const terrain = (row: number, col: number) => 2 + Math.sin(row / 7) * Math.cos(col / 5) + ((row * 7919 + col * 104_729) % 1000) / 997;
const NAVD88_M = { vertical_datum: 'NAVD88', units: 'm' } as const;
const KEY = 'elevation-uploads/acct_test/em_ranged/dem.tif';

const LAYOUTS: Array<{ name: string; layout: TiffSpec['layout'] }> = [
  { name: 'deflate strips of 8 rows', layout: { rowsPerStrip: 8 } },
  { name: 'deflate tiles of 256', layout: { tile: 256 } },
];

describe.each(LAYOUTS)('an upload read by ranges: $name', ({ layout }) => {
  const bytes = writeTiff({ width: WIDTH, height: HEIGHT, epsg: 26917, origin: [340_000, 3_090_000], cellSize: [3, 3], nodata: '-9999', compression: 'deflate', layout, value: terrain });
  let inMemory: ProcessedDem;
  let stored: ProcessedDem;
  let blobs: MemoryBlobs;
  beforeAll(async () => {
    inMemory = await processDem(bytes, NAVD88_M, { windowTiles: 1 });
    blobs = new MemoryBlobs();
    blobs.objects.set(KEY, Buffer.from(bytes));
    stored = await processStoredDem(blobs)([{ key: KEY, size: bytes.byteLength }], NAVD88_M, { windowTiles: 1 });
  }, 120_000);

  it('gives the pyramid the file gives in memory, tile for tile', () => {
    expect(bytes.byteLength).toBeGreaterThan(4 * 256 * 1024);
    expect(stored.index).toEqual(inMemory.index);
    expect([...stored.tiles.keys()].sort()).toEqual([...inMemory.tiles.keys()].sort());
    for (const [key, tile] of inMemory.tiles) expect(Buffer.compare(Buffer.from(stored.tiles.get(key)!), Buffer.from(tile))).toBe(0);
  });

  it('never reads the file whole, and reads its bytes about once', () => {
    expect(blobs.gets).toEqual([]);
    const lengths = blobs.ranges.map(({ start, end }) => end - start + 1);
    expect(blobs.ranges.every((range) => range.key === KEY)).toBe(true);
    expect(Math.max(...lengths)).toBeLessThan(bytes.byteLength / 2);
    const read = lengths.reduce((sum, length) => sum + length, 0);
    expect(read).toBeGreaterThanOrEqual(bytes.byteLength * 0.9);
    expect(read).toBeLessThan(bytes.byteLength * 1.5);
  });
});

describe('an upload its storage fails to give', () => {
  /** A bucket whose reads fail from the `after`-th on (the object gone, or S3 failing past the SDK's retries). */
  class FailingBlobs extends MemoryBlobs {
    constructor(private readonly after: number, private readonly failure: () => Promise<Buffer | undefined>) { super(); }
    override async readRange(key: string, start: number, end: number) {
      if (this.ranges.length >= this.after) return this.failure();
      return super.readRange(key, start, end);
    }
  }
  const bytes = writeTiff({ width: WIDTH, height: HEIGHT, epsg: 26917, origin: [340_000, 3_090_000], cellSize: [3, 3], nodata: '-9999', compression: 'deflate', layout: { tile: 256 }, value: terrain });

  it.each([
    ['at once, on its header', 0], ['after the header, on its samples', 1], ['half-way through its windows', 6],
  ])('is not judged a corrupt file when reads fail %s, and leaves no read without its handler', async (_when, after) => {
    for (const [why, failure] of [
      ['S3 failing', async () => { throw Object.assign(new Error('We encountered an internal error. Please try again.'), { name: 'InternalError' }); }],
      ['the object gone', async () => undefined],
    ] as const) {
      const blobs = new FailingBlobs(after, failure);
      blobs.objects.set(KEY, Buffer.from(bytes));
      const error = await processStoredDem(blobs)([{ key: KEY, size: bytes.byteLength }], NAVD88_M, { windowTiles: 1 }).then(() => undefined, (e: Error) => e);
      expect({ why, name: error?.name, message: error?.message }).toEqual({
        why, name: 'UploadReadError', message: expect.stringMatching(/^Reading the stored upload failed: (We encountered an internal error|the object is no longer in the bucket)/),
      });
      // Reads that failed for callers other than the first are handled too: an unhandled rejection would fail this suite.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);
});
