import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tileBBox, tileName } from '../shared/adapters/elevation/cog-http';
import { BUNDLED_MODELS_DIR } from '../shared/adapters/elevation';
import { modelsIn, type TiledModelSource } from '../shared/adapters/elevation/tiled-model';
import { bboxesIntersect } from '../shared/domain/hazards/geo';
import { encodeTiff, TIFF_TYPE, type TiffEntry, type TiffImage } from './tiff-writer';

/**
 * Locally the statewide bare-earth source is the same range-request reader as in AWS, over
 * Cloud-Optimized GeoTIFFs built here from the bundled quads: one per 1° tile, on the lattice of the
 * tile's first quad extended to the whole degree (no data elsewhere, as a 3DEP tile past the coast),
 * uncompressed 128 × 128 float32 tiles (64 KiB each; the bilinear-resampled heights barely deflate),
 * overviews by 2, 4 and 8, served on 127.0.0.1.
 */
const TILE = 128;
const NODATA = -999999;
const OVERVIEW_FACTORS = [2, 4, 8];
/** The built tiles' names, written last: a directory without it is built again. */
export const TILE_LIST = 'tiles.txt';

interface Raster { width: number; height: number; values: Float32Array }
interface Lattice { west: number; north: number; cellLon: number; cellLat: number }

/** The 1° tiles holding the models, each with the models it holds (in the order given). */
export function tilesOfModels(models: readonly TiledModelSource[]): Map<string, TiledModelSource[]> {
  const tiles = new Map<string, TiledModelSource[]>();
  for (const model of models) {
    const [w, s, e, n] = model.record.bbox;
    for (let lon = Math.floor(w); lon < e; lon++) {
      for (let lat = Math.floor(s); lat < n; lat++) {
        const name = tileName(lon, lat);
        tiles.set(name, [...(tiles.get(name) ?? []), model]);
      }
    }
  }
  return tiles;
}

/** The 1° tile `name` as one raster: each cell from the first model covering it (nearest post), else no data. */
export async function tileRaster(name: string, models: readonly TiledModelSource[]): Promise<{ raster: Raster; lattice: Lattice }> {
  const first = models[0]!.record.pyramid;
  const level0 = first.levels[0]!;
  const sw = southWestOf(name);
  const [tileWest, tileSouth, tileEast, tileNorth] = tileBBox(sw.lon + 0.5, sw.lat + 0.5);
  // Cell corners of the first quad's lattice, extended outwards to cover the whole degree.
  const cornerWest = first.west - level0.cell_lon / 2, cornerNorth = first.north + level0.cell_lat / 2;
  const west = cornerWest - Math.ceil((cornerWest - tileWest) / level0.cell_lon) * level0.cell_lon;
  const north = cornerNorth + Math.ceil((tileNorth - cornerNorth) / level0.cell_lat) * level0.cell_lat;
  const width = Math.ceil((tileEast - west) / level0.cell_lon), height = Math.ceil((north - tileSouth) / level0.cell_lat);
  const values = new Float32Array(width * height).fill(NaN);
  for (const model of models) {
    const { bbox, levels } = model.record.pyramid;
    if (!bboxesIntersect(bbox, [tileWest, tileSouth, tileEast, tileNorth])) continue;
    const grid = await model.grid(bbox, levels[0]!.width * levels[0]!.height * 2);
    if (!grid) continue;
    const c0 = Math.max(0, Math.floor((bbox[0] - west) / level0.cell_lon)), c1 = Math.min(width - 1, Math.ceil((bbox[2] - west) / level0.cell_lon));
    const r0 = Math.max(0, Math.floor((north - bbox[3]) / level0.cell_lat)), r1 = Math.min(height - 1, Math.ceil((north - bbox[1]) / level0.cell_lat));
    for (let row = r0; row <= r1; row++) {
      const gr = Math.round((grid.north - (north - (row + 0.5) * level0.cell_lat)) / grid.cellLat);
      if (gr < 0 || gr >= grid.height) continue;
      for (let col = c0; col <= c1; col++) {
        const at = row * width + col;
        if (!Number.isNaN(values[at]!)) continue;
        const gc = Math.round((west + (col + 0.5) * level0.cell_lon - grid.west) / grid.cellLon);
        if (gc >= 0 && gc < grid.width) values[at] = grid.values[gr * grid.width + gc]!;
      }
    }
  }
  return { raster: { width, height, values }, lattice: { west, north, cellLon: level0.cell_lon, cellLat: level0.cell_lat } };
}

function southWestOf(name: string): { lon: number; lat: number } {
  const match = /^([ns])(\d{2})([ew])(\d{3})$/.exec(name);
  if (!match) throw new Error(`Not a 1° tile name: ${name}`);
  const north = Number(match[2]) * (match[1] === 'n' ? 1 : -1);
  const west = Number(match[4]) * (match[3] === 'w' ? 1 : -1);
  return { lon: -west, lat: north - 1 };
}

/** Every `factor`-th cell (the nearest to each block's first cell, as GDAL's nearest overviews). */
function overview(raster: Raster, factor: number): Raster {
  const width = Math.ceil(raster.width / factor), height = Math.ceil(raster.height / factor);
  const values = new Float32Array(width * height);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) values[row * width + col] = raster.values[row * factor * raster.width + col * factor]!;
  }
  return { width, height, values };
}

/** One tile's bytes: little-endian float32, no data as NODATA, cells past the raster's edge too. */
function encodeTile(raster: Raster, tx: number, ty: number): Uint8Array {
  const out = new Float32Array(TILE * TILE);
  for (let r = 0; r < TILE; r++) {
    const row = ty * TILE + r;
    for (let c = 0; c < TILE; c++) {
      const col = tx * TILE + c;
      const v = row < raster.height && col < raster.width ? raster.values[row * raster.width + col]! : NaN;
      out[r * TILE + c] = Number.isNaN(v) ? NODATA : v;
    }
  }
  return new Uint8Array(out.buffer);
}

const { SHORT, LONG, DOUBLE, ASCII } = TIFF_TYPE;

/** A COG: the full-resolution image and its overviews, all directories first, then the tiles. */
export function writeCog(raster: Raster, lattice: Lattice): Uint8Array {
  const images = [raster, ...OVERVIEW_FACTORS.map((f) => overview(raster, f))];
  return encodeTiff(images.map((image, index): TiffImage => {
    const across = Math.ceil(image.width / TILE), down = Math.ceil(image.height / TILE);
    const blocks: Uint8Array[] = [];
    for (let ty = 0; ty < down; ty++) for (let tx = 0; tx < across; tx++) blocks.push(encodeTile(image, tx, ty));
    const factor = raster.width / image.width;
    const entries: TiffEntry[] = [
      [254, LONG, [index === 0 ? 0 : 1]],
      [256, LONG, [image.width]], [257, LONG, [image.height]],
      [258, SHORT, [32]], [259, SHORT, [1]], [262, SHORT, [1]], [277, SHORT, [1]], [284, SHORT, [1]],
      [322, SHORT, [TILE]], [323, SHORT, [TILE]],
      [339, SHORT, [3]],
      [33550, DOUBLE, [lattice.cellLon * factor, lattice.cellLat * factor, 0]],
      [33922, DOUBLE, [0, 0, 0, lattice.west, lattice.north, 0]],
      // Geographic NAD83 lon/lat, pixel is area.
      [34735, SHORT, [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4269]],
      [42113, ASCII, `${NODATA}\0`],
    ];
    return { entries, blocks, layout: 'tiles' };
  }));
}

/** Writes one COG per 1° tile of the models into `directory` as `<tile>.tif`; the tile names, sorted. */
export async function writeTileCogs(models: readonly TiledModelSource[], directory: string): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const tiles = tilesOfModels(models);
  for (const [name, held] of tiles) {
    const { raster, lattice } = await tileRaster(name, held);
    await writeFile(path.join(directory, `${name}.tif`), writeCog(raster, lattice));
  }
  return [...tiles.keys()].sort();
}

export interface RangeServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Body bytes sent since the start (or the last `resetCounts`), and the requests answered. */
  counts(): { bytes: number; requests: number };
  resetCounts(): void;
  close(): Promise<void>;
}

/**
 * Serves the `.tif` files of `directory` on 127.0.0.1 with single byte ranges (206 with
 * Content-Range; 416 past the end); a request without Range gets the whole file, as a plain server
 * would, so that a reader reading whole files is seen in the counts.
 */
export async function startRangeServer(directory: string): Promise<RangeServer> {
  let bytes = 0, requests = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      requests++;
      const name = decodeURIComponent((request.url ?? '/').split('?')[0]!.slice(1));
      if (!/^[A-Za-z0-9_.-]+\.tif$/.test(name)) return end(response, 404);
      const file = path.join(directory, name);
      const size = await stat(file).then((s) => s.size, () => undefined);
      if (size === undefined) return end(response, 404);
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
      if (request.headers.range && !range) return end(response, 416, { 'content-range': `bytes */${size}` });
      const start = range ? Number(range[1]) : 0;
      const last = range ? Math.min(size - 1, range[2] ? Number(range[2]) : size - 1) : size - 1;
      if (start > last) return end(response, 416, { 'content-range': `bytes */${size}` });
      const length = last - start + 1;
      const headers = { 'content-type': 'image/tiff', 'content-length': String(length), 'accept-ranges': 'bytes' };
      response.writeHead(range ? 206 : 200, range ? { ...headers, 'content-range': `bytes ${start}-${last}/${size}` } : headers);
      bytes += length;
      createReadStream(file, { start, end: last }).pipe(response);
    })().catch(() => end(response, 500));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    counts: () => ({ bytes, requests }),
    resetCounts: () => { bytes = 0; requests = 0; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function end(response: import('node:http').ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (!response.headersSent) response.writeHead(status, headers);
  response.end();
}

/**
 * Builds the COGs of the bundled quads under `$DATA_DIR/statewide-cogs` (once), serves them on
 * 127.0.0.1 and points the statewide source at them through the same settings an operator sets.
 */
export async function startStatewideCogs(dataDir: string): Promise<RangeServer> {
  const directory = path.join(dataDir, 'statewide-cogs');
  const tiles = existsSync(path.join(directory, TILE_LIST))
    ? (await readFile(path.join(directory, TILE_LIST), 'utf8')).trim().split(',')
    : await writeTileCogs(modelsIn(BUNDLED_MODELS_DIR), directory);
  // Written last, so that an interrupted build is redone.
  await writeFile(path.join(directory, TILE_LIST), tiles.join(','));
  const server = await startRangeServer(directory);
  process.env.STATEWIDE_DEM_URL_TEMPLATE = `${server.url}{tile}.tif`;
  process.env.STATEWIDE_DEM_TILES = tiles.join(',');
  return {
    ...server,
    async close() {
      delete process.env.STATEWIDE_DEM_URL_TEMPLATE;
      delete process.env.STATEWIDE_DEM_TILES;
      await server.close();
    },
  };
}
