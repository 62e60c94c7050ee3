import type { GeoTIFF, GeoTIFFImage } from 'geotiff';
import type { AppMode } from '../../domain/webhooks/addresses';
import { isIpLiteral } from '../../domain/webhooks/addresses';
import { checkResolvedAddresses, checkWebhookUrl } from '../../domain/webhooks/url-rules';
import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../domain/hazards/elevation';
import { bboxesIntersect, type BBox } from '../../domain/hazards/geo';
import { toStoredMetres, verticalConversion, type VerticalConversion, type VerticalReference } from '../../domain/elevation-models/vertical';
import type { CogUrlReader } from '../../domain/elevation-models/ports';
import { pinnedRequest, systemResolver, type ResolvedAddress, type Resolver } from '../webhook-sender';
import { MAX_RESPONSE_BYTES, RangesRefused, openHttpCog, overBudget, type RangeReader } from './cog-http';
import { mosaicWindow } from './cog-s3';

/** Why a COG URL cannot be registered: each is a stable problem `code`. */
export type CogUrlErrorCode =
  | 'cog_url_refused' | 'cog_unreachable' | 'cog_no_ranges' | 'not_a_cog'
  | 'unsupported_crs' | 'cog_no_nodata' | 'cog_window_too_large' | 'elevation_out_of_range';

export class CogUrlError extends Error {
  constructor(message: string, readonly code: CogUrlErrorCode) {
    super(message);
    this.name = 'CogUrlError';
  }
}

/** Geographic lon/lat CRSs a COG is read in without reprojection (NAD83, WGS84). */
const GEOGRAPHIC_EPSG = new Set([4269, 4326]);
const LOWEST_M = -500;
const HIGHEST_M = 9000;
/** The coarsest image must be at most this many cells a side: larger, and a county-wide window reads megabytes of full-resolution tiles. */
const COARSEST_SIDE = 4096;
/** One internal tile at most this many cells (a window reads whole tiles). */
const TILE_CELLS = 1024 * 1024;

export interface CogUrlOptions {
  /** `local` lets the URL reach loopback over plain http (a range server on 127.0.0.1); never set in AWS. */
  mode: AppMode;
  resolve?: Resolver;
}

/**
 * The URL judged by the webhook rules (https on 443, no credentials, no reserved names; loopback
 * over http only in local mode), its name resolved and every address judged again: the reads go
 * to the address checked here, so a second DNS answer is never used.
 */
export async function checkCogUrl(raw: string, options: CogUrlOptions): Promise<{ url: URL; target: ResolvedAddress }> {
  const verdict = checkWebhookUrl(raw, options.mode);
  if (!verdict.ok) throw new CogUrlError(`The COG URL is refused: ${verdict.reason}`, 'cog_url_refused');
  let addresses: ResolvedAddress[];
  if (isIpLiteral(verdict.host)) {
    addresses = [{ address: verdict.host, family: verdict.host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(verdict.host);
    } catch {
      throw new CogUrlError(`${verdict.host} does not resolve.`, 'cog_unreachable');
    }
  }
  const denied = checkResolvedAddresses(verdict.url, addresses.map((a) => a.address), options.mode);
  if (denied) throw new CogUrlError(`The COG URL is refused: ${denied}.`, 'cog_url_refused');
  return { url: verdict.url, target: addresses[0]! };
}

/** Range reads sent to one checked address (Host and TLS name kept), redirects not followed, 206 required, size capped. */
export function pinnedRangeReader(target: ResolvedAddress): RangeReader {
  return (raw, range, signal) => new Promise((resolve, reject) => {
    const url = new URL(raw);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const request = pinnedRequest(url, host, target, {
      method: 'GET', headers: { Range: range, 'user-agent': 'va-compliance-api-cog/1' }, signal,
    }, (response) => {
      if (response.statusCode !== 206) {
        response.destroy();
        return reject(new RangesRefused(raw, response.statusCode ?? 0));
      }
      if (Number(response.headers['content-length'] ?? '0') > MAX_RESPONSE_BYTES) {
        response.destroy();
        return reject(overBudget(raw));
      }
      const chunks: Buffer[] = [];
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          response.destroy();
          reject(overBudget(raw));
        } else chunks.push(chunk);
      });
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const header = (name: string) => {
          const value = response.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        };
        resolve({ header, data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** What a registered COG's header (and its coarsest overview) says. */
export interface CogDescription {
  bbox: BBox;
  width: number;
  height: number;
  /** Full-resolution cell size in degrees (lon, lat) and about in metres. */
  cell_deg: [number, number];
  resolution_m: number;
  epsg: number;
  nodata: number;
  overviews: number;
  /** Lowest and highest value of the coarsest image, metres. */
  min_m: number;
  max_m: number;
}

const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ABORT_ERR']);

/** A failure to read as a refusal: ranges refused, the network, else the file is not a COG. */
function readFailure(error: unknown, what: string): CogUrlError {
  if (error instanceof CogUrlError) return error;
  if (error instanceof RangesRefused) return new CogUrlError(`${error.message} The server must answer byte ranges (206 Partial Content).`, 'cog_no_ranges');
  // Duck-typed: errors from node's sockets need not be instances of this realm's Error.
  const { message = String(error), code, name } = (error ?? {}) as { message?: string; code?: string; name?: string };
  if (NETWORK_ERRORS.has(code ?? '') || name === 'TimeoutError') return new CogUrlError(`The COG could not be reached (${message}).`, 'cog_unreachable');
  return new CogUrlError(`The file's ${what} is not a Cloud-Optimized GeoTIFF's (${message}).`, 'not_a_cog');
}

const METRES_PER_DEGREE = 111_320;

/**
 * Reads a COG's header by ranges (and its coarsest overview, a few tiles) and refuses what cannot be
 * read by ranges as an elevation model: untiled, several bands, not in geographic NAD83/WGS84, no
 * declared no-data, tiles or a coarsest image too large for a window's budget, values outside
 * −500…9,000 m once in metres by `conversion` (as stored, NAVD88 metres without). Never reads the file whole.
 */
export async function inspectCog(tiff: GeoTIFF, conversion?: VerticalConversion): Promise<CogDescription> {
  let full: GeoTIFFImage, count: number;
  try {
    full = await tiff.getImage(0);
    count = await tiff.getImageCount();
  } catch (error) {
    throw readFailure(error, 'header');
  }
  if (!full.isTiled) throw new CogUrlError('The GeoTIFF is laid out in strips, not tiles: it cannot be read by windows.', 'not_a_cog');
  if (full.getSamplesPerPixel() !== 1) throw new CogUrlError(`The GeoTIFF has ${full.getSamplesPerPixel()} bands; an elevation model has one.`, 'not_a_cog');
  if (full.getTileWidth() * full.getTileHeight() > TILE_CELLS) throw new CogUrlError(`Its internal tiles of ${full.getTileWidth()} × ${full.getTileHeight()} cells are over ${TILE_CELLS} cells.`, 'cog_window_too_large');
  const keys = (full.getGeoKeys() ?? {}) as Record<string, number | undefined>;
  const epsg = keys.ProjectedCSTypeGeoKey === undefined ? keys.GeographicTypeGeoKey : undefined;
  if (epsg === undefined || !GEOGRAPHIC_EPSG.has(epsg)) {
    throw new CogUrlError(`The COG is in ${keys.ProjectedCSTypeGeoKey ? `projected EPSG:${keys.ProjectedCSTypeGeoKey}` : 'no EPSG geographic CRS'}; a COG read by ranges must be in geographic NAD83 (EPSG:4269) or WGS84 (EPSG:4326) — upload other files to be reprojected.`, 'unsupported_crs');
  }
  const nodata = full.getGDALNoData();
  if (nodata === null) throw new CogUrlError('The COG declares no no-data value (GDAL_NODATA): voids would read as ground.', 'cog_no_nodata');
  let origin: number[], resolution: number[];
  try {
    origin = full.getOrigin();
    resolution = full.getResolution();
  } catch {
    throw new CogUrlError('The COG has no tie point and pixel scale (or a rotated transformation).', 'not_a_cog');
  }
  const [west, north] = origin as [number, number];
  const [dx, dy] = resolution.map(Math.abs) as [number, number];
  const bbox: BBox = [west, north - full.getHeight() * dy, west + full.getWidth() * dx, north];
  const coarsest = await tiff.getImage(count - 1).catch((error: unknown) => { throw readFailure(error, 'overview'); });
  if (coarsest.getWidth() > COARSEST_SIDE || coarsest.getHeight() > COARSEST_SIDE) {
    throw new CogUrlError(`Its coarsest image is ${coarsest.getWidth()} × ${coarsest.getHeight()} cells (at most ${COARSEST_SIDE} a side): add overviews (gdaladdo, or gdal_translate -of COG).`, 'cog_window_too_large');
  }
  let samples: ArrayLike<number>;
  try {
    samples = (await coarsest.readRasters({ samples: [0], interleave: true })) as unknown as ArrayLike<number>;
  } catch (error) {
    throw readFailure(error, 'overview');
  }
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < samples.length; i++) {
    const v = Number(samples[i]);
    if (v === nodata || !Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === Infinity) throw new CogUrlError('Its coarsest image holds no value other than no-data.', 'elevation_out_of_range');
  if (conversion) [min, max] = [toStoredMetres(min, conversion), toStoredMetres(max, conversion)].sort((a, b) => a - b) as [number, number];
  if (min < LOWEST_M || max > HIGHEST_M) throw new CogUrlError(`Its values run from ${min} to ${max} m, outside ${LOWEST_M}…${HIGHEST_M} m: not elevations in metres.`, 'elevation_out_of_range');
  const midLat = (bbox[1] + bbox[3]) / 2;
  return {
    bbox, width: full.getWidth(), height: full.getHeight(), cell_deg: [dx, dy],
    resolution_m: Math.round(dy * METRES_PER_DEGREE * Math.sqrt(Math.cos((midLat * Math.PI) / 180)) * 100) / 100,
    epsg, nodata, overviews: count - 1, min_m: min, max_m: max,
  };
}

/** Opens the COG at a URL through the checks above and describes it: what a registration stores. */
export async function registerCogUrl(raw: string, options: CogUrlOptions, vertical?: VerticalReference): Promise<CogDescription> {
  const { url, target } = await checkCogUrl(raw, options);
  // geotiff gathers failed block reads into an error without their causes: the first is kept here.
  let firstFailure: unknown;
  const read = pinnedRangeReader(target);
  const recording: RangeReader = (href, range, signal) => read(href, range, signal).catch((error: unknown) => {
    firstFailure ??= error;
    throw error;
  });
  try {
    return await inspectCog(await openHttpCog(url.href, recording), vertical && verticalConversion(vertical));
  } catch (error) {
    throw readFailure(firstFailure ?? error, 'header');
  }
}

export interface UrlCogModel {
  elevation_model_id: string;
  name: string;
  cog_url: string;
  bbox: BBox;
  resolution_m: number;
  vertical_accuracy_m?: number | null;
  /** The values' datum and unit as registered; NAVD88 metres without. */
  vertical?: VerticalReference;
}

/**
 * A registered COG read by ranges where it is, never copied: each open checks the URL and its
 * addresses again and pins the reads to the address checked. Values are converted to metres (NGVD29
 * to NAVD88 with the stated shift) as an upload's are when it is processed.
 */
export class UrlCogSource implements ElevationSource {
  private opened: Promise<GeoTIFF> | undefined;
  private readonly conversion: VerticalConversion;

  constructor(readonly model: UrlCogModel, private readonly options: CogUrlOptions) {
    this.conversion = verticalConversion(model.vertical ?? { vertical_datum: 'NAVD88', units: 'm' });
  }

  /** The extent and name the layered source picks models by. */
  get bbox(): BBox {
    return this.model.bbox;
  }

  get name(): string {
    return this.model.name;
  }

  info(): ElevationSourceInfo {
    return {
      name: this.model.name,
      vertical_datum: this.conversion.stored_datum,
      native_resolution: `${this.model.resolution_m} m (Cloud-Optimized GeoTIFF read by ranges)`,
      elevation_model_id: this.model.elevation_model_id,
      resolution_m: this.model.resolution_m,
      ...(this.model.vertical_accuracy_m == null ? {} : { vertical_accuracy_m: this.model.vertical_accuracy_m }),
      surface_model: false,
      ...(this.model.vertical?.vertical_datum === 'NGVD29' ? { vertical_conversion: this.conversion.description } : {}),
    };
  }

  extentAt(lon: number, lat: number): BBox | undefined {
    const [w, s, e, n] = this.model.bbox;
    return lon >= w && lon <= e && lat >= s && lat <= n ? this.model.bbox : undefined;
  }

  async grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    if (!bboxesIntersect(this.model.bbox, box)) return undefined;
    const grid = await mosaicWindow(box, maxCells, [{ owns: this.model.bbox, entry: { vertical_datum: this.conversion.stored_datum, name: this.model.name }, open: () => this.open() }]);
    if (grid && (this.conversion.scale_to_m !== 1 || this.conversion.offset_m !== 0)) {
      for (let i = 0; i < grid.values.length; i++) grid.values[i] = toStoredMetres(grid.values[i]!, this.conversion);
    }
    return grid;
  }

  private open(): Promise<GeoTIFF> {
    if (!this.opened) {
      this.opened = checkCogUrl(this.model.cog_url, this.options).then(({ url, target }) => openHttpCog(url.href, pinnedRangeReader(target)));
      // A failed open is retried by the next read rather than remembered.
      this.opened.catch(() => { this.opened = undefined; });
    }
    return this.opened;
  }
}

/** COG URLs judged with `options` (the app's mode), as the registration use case reads them. */
export const cogUrlReader = (options: CogUrlOptions): CogUrlReader => ({ describe: (url, vertical) => registerCogUrl(url, options, vertical) });
