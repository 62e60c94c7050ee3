import type { BaseClient, BaseResponse, GeoTIFF } from 'geotiff';
import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../domain/hazards/elevation';
import type { BBox } from '../../domain/hazards/geo';
import { mosaicWindow } from './cog-s3';
import { failingLate, rangeResponse } from './ranged-tiff';

const REQUEST_TIMEOUT_MS = 15_000;
/** One range response larger than this is refused: a window read never needs a whole tile file. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/**
 * Ranges are read in blocks of this size and the last blocks kept: the header and the tile offsets
 * of a 1° tile take a few blocks, a point's window one or two compressed 256 × 256 tiles.
 */
const BLOCK_BYTES = 16 * 1024;
const CACHED_BLOCKS = 256;

/** The USGS 3DEP name of the 1° tile holding a point: `n28w083` names the tile whose NW corner is 28°N 83°W. */
export function tileName(lon: number, lat: number): string {
  const north = Math.floor(lat) + 1;
  const west = -Math.floor(lon);
  const ns = north >= 0 ? `n${String(north).padStart(2, '0')}` : `s${String(-north).padStart(2, '0')}`;
  const ew = west >= 0 ? `w${String(west).padStart(3, '0')}` : `e${String(-west).padStart(3, '0')}`;
  return `${ns}${ew}`;
}

/** The 1° tile's bounding box around a point. */
export function tileBBox(lon: number, lat: number): BBox {
  return [Math.floor(lon), Math.floor(lat), Math.floor(lon) + 1, Math.floor(lat) + 1];
}

/** One range of a file: 206 with its bytes (at most MAX_RESPONSE_BYTES), anything else an error. */
export interface PartialContent {
  header: (name: string) => string | undefined;
  data: ArrayBuffer;
}
export type RangeReader = (url: string, range: string, signal: AbortSignal) => Promise<PartialContent>;

/** Thrown when a server answers a range request with anything but 206 (one that ignores Range would send the whole file). */
export class RangesRefused extends Error {
  constructor(url: string, readonly status: number) {
    super(`${url} answered ${status} to a range request, not 206.`);
    this.name = 'RangesRefused';
  }
}

export const overBudget = (url: string) => new Error(`${url} sent a range response over ${MAX_RESPONSE_BYTES} bytes.`);

/** Range reads over fetch: redirects refused, 206 required, the size capped. */
const fetchRange: RangeReader = async (url, range, signal) => {
  const response = await fetch(url, { headers: { Range: range }, signal, redirect: 'error' });
  if (response.status !== 206) {
    await response.body?.cancel();
    throw new RangesRefused(url, response.status);
  }
  if (Number(response.headers.get('content-length') ?? '0') > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw overBudget(url);
  }
  const data = await response.arrayBuffer();
  if (data.byteLength > MAX_RESPONSE_BYTES) throw overBudget(url);
  return { header: (name) => response.headers.get(name) ?? undefined, data };
};

/** geotiff's client contract over a range reader: every request carries a Range and a timeout. */
function httpRangeClientClass(Base: typeof BaseClient) {
  return class HttpRangeClient extends Base {
    constructor(url: string, private readonly read: RangeReader) {
      super(url);
    }

    override async request({ headers, signal }: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<BaseResponse> {
      const range = headers?.Range ?? headers?.range;
      if (!range) throw new Error('A Cloud-Optimized GeoTIFF is read by range requests only.');
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      const { header, data } = await failingLate(() => this.read(this.url, range, signal ? AbortSignal.any([signal, timeout]) : timeout));
      return rangeResponse(206, header, data);
    }
  };
}

let HttpRangeClient: ReturnType<typeof httpRangeClientClass> | undefined;

/** Opens a COG at an http(s) URL for range reads (geotiff is loaded with the first one). */
export async function openHttpCog(url: string, read: RangeReader = fetchRange): Promise<GeoTIFF> {
  const { BaseClient: Base, fromCustomClient } = await import('geotiff');
  HttpRangeClient ??= httpRangeClientClass(Base);
  // geotiff passes the block options on to its source although the typings of fromCustomClient omit them.
  const options = { allowFullFile: false, blockSize: BLOCK_BYTES, cacheSize: CACHED_BLOCKS };
  return fromCustomClient(new HttpRangeClient(url, read), options);
}

export interface HttpCogOptions {
  /** The tile URL with `{tile}` where the tile name goes (e.g. `…/{tile}/USGS_13_{tile}.tif`). */
  urlTemplate: string;
  /** The tiles that exist (`n28w083`, …): no request is made for any other. */
  tiles: readonly string[];
  elevationModelId: string;
  name: string;
  nativeResolution: string;
}

/**
 * Bare earth read from 1° Cloud-Optimized GeoTIFF tiles over HTTP by range requests only, named as
 * USGS 3DEP names them, in NAVD88 metres on geographic coordinates. A window is read from the
 * coarsest overview that still gives the requested detail, from the tiles it overlaps, never a whole file.
 */
export class HttpCogElevationSource implements ElevationSource {
  private readonly tiles: ReadonlySet<string>;
  private readonly opened = new Map<string, Promise<GeoTIFF>>();

  constructor(private readonly options: HttpCogOptions) {
    this.tiles = new Set(options.tiles);
  }

  info(): ElevationSourceInfo {
    return {
      name: this.options.name,
      vertical_datum: 'NAVD88',
      native_resolution: this.options.nativeResolution,
      elevation_model_id: this.options.elevationModelId,
      surface_model: false,
    };
  }

  /** The 1° tile holding the point, where the index lists it: tidal connection is traced over it. */
  extentAt(lon: number, lat: number): BBox | undefined {
    return this.tiles.has(tileName(lon, lat)) ? tileBBox(lon, lat) : undefined;
  }

  /**
   * The window over `box` from every listed tile it overlaps (two or four near a tile line), each
   * tile's part read with its share of `maxCells` and the parts mosaicked into one grid.
   */
  async grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    const entry = { vertical_datum: 'NAVD88' as const, name: this.options.name };
    return mosaicWindow(box, maxCells, this.tilesUnder(box).map(({ name, bbox }) => ({ owns: bbox, entry, open: () => this.open(name) })));
  }

  /** The listed 1° tiles `box` overlaps (a box that only touches a tile line stays on its side). */
  private tilesUnder(box: BBox): Array<{ name: string; bbox: BBox }> {
    const tiles: Array<{ name: string; bbox: BBox }> = [];
    for (let lon = Math.floor(box[0]); lon === Math.floor(box[0]) || lon < box[2]; lon++) {
      for (let lat = Math.floor(box[1]); lat === Math.floor(box[1]) || lat < box[3]; lat++) {
        const name = tileName(lon, lat);
        if (this.tiles.has(name)) tiles.push({ name, bbox: tileBBox(lon, lat) });
      }
    }
    return tiles;
  }

  private open(name: string): Promise<GeoTIFF> {
    let tiff = this.opened.get(name);
    if (!tiff) {
      tiff = openHttpCog(this.options.urlTemplate.replaceAll('{tile}', name));
      // A failed open (network, server) is retried by the next read rather than remembered.
      tiff.catch(() => this.opened.delete(name));
      this.opened.set(name, tiff);
    }
    return tiff;
  }
}
