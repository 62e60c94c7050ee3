import { openHttpCog, type RangeReader } from '../../shared/adapters/elevation/cog-http';
import { writeTiff } from '../helpers/tiff-writer';

/**
 * A COG server that fails part-way through a read (it went down, it refuses the connection): the
 * read rejects with the server's error, and none of geotiff's shared block reads is left without a
 * handler — an unhandled rejection would end the API's process (this suite would fail with it).
 */
describe('a COG read by ranges from a server that fails part-way', () => {
  const bytes = writeTiff({
    width: 1024, height: 1024, epsg: 4269, origin: [-82.5, 28], cellSize: [1 / 10800, 1 / 10800], nodata: '-9999', compression: 'deflate', layout: { tile: 256 },
    value: (r, c) => 2 + Math.sin(r / 9) + ((r * 7919 + c * 104_729) % 1000) / 997,
  });

  /** Serves the file's ranges until one reaches past `share` of the file, then refuses at once. */
  function server(share: number): { read: RangeReader; refused: () => number } {
    let refused = 0;
    const read: RangeReader = async (_url, range) => {
      const [, start, end] = /^bytes=(\d+)-(\d+)$/.exec(range)!.map(Number) as [number, number, number];
      if (end >= share * bytes.byteLength) {
        refused++;
        throw Object.assign(new Error('connect ECONNREFUSED 203.0.113.7:443'), { code: 'ECONNREFUSED' });
      }
      const last = Math.min(end, bytes.byteLength - 1);
      const data = bytes.slice(start, last + 1).buffer as ArrayBuffer;
      return { header: (name) => (name === 'content-range' ? `bytes ${start}-${last}/${bytes.byteLength}` : undefined), data };
    };
    return { read, refused: () => refused };
  }

  it.each([0.3, 0.6, 0.95])('rejects the window reads when the server refuses past %p of the file', async (share) => {
    const { read, refused } = server(share);
    const error = await (async () => {
      const image = await (await openHttpCog('https://lidar.example.org/dem.tif', read)).getImage();
      // One read per tile row, four at once: the shared block reads of the others fail with the first.
      await Promise.all([0, 256, 512, 768].map((row) => image.readRasters({ window: [0, row, 1024, row + 256], samples: [0] })));
    })().then(() => undefined, (e: Error) => e);
    expect(error).toBeDefined();
    expect(refused()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
