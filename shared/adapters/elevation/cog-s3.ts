import { GetObjectCommand } from '../s3-commands';
import type { BaseClient, BaseResponse, GeoTIFF, GeoTIFFImage } from 'geotiff';
import { s3 } from '../aws-clients';
import { requiredSetting } from '../../config';
import { joinedExtent, mosaicGrids, type ElevationGrid, type ElevationSource, type ElevationSourceInfo } from '../../domain/hazards/elevation';
import { bboxesIntersect, type BBox } from '../../domain/hazards/geo';
import { failingLate, rangeResponse } from './ranged-tiff';

export const DEM_PREFIX = 'dem/';
const MANIFEST_KEY = `${DEM_PREFIX}index.json`;
const MANIFEST_TTL_MS = 5 * 60_000;

/** An entry of `dem/index.json`: one Cloud-Optimized GeoTIFF in geographic lon/lat (EPSG:4269/4326). */
export interface DemEntry {
  key: string;
  bbox: BBox;
  vertical_datum: 'NAVD88' | 'EGM96';
  name: string;
  resolution?: string;
}

/** geotiff's HTTP client contract over S3 GetObject with `Range`: only the needed bytes are read. */
function s3RangeClientClass(Base: typeof BaseClient) {
  return class S3RangeClient extends Base {
    constructor(private readonly bucket: string, private readonly key: string) {
      super(`s3://${bucket}/${key}`);
    }

    override async request({ headers }: { headers?: Record<string, string> } = {}): Promise<BaseResponse> {
      const range = headers?.Range ?? headers?.range;
      const { result, bytes } = await failingLate(async () => {
        const answer = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key, Range: range }));
        return { result: answer, bytes: await answer.Body!.transformToByteArray() };
      });
      const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const responseHeaders: Record<string, string> = { 'content-type': result.ContentType ?? 'application/octet-stream' };
      if (result.ContentRange) responseHeaders['content-range'] = result.ContentRange;
      return rangeResponse(result.ContentRange ? 206 : 200, (name) => responseHeaders[name], data);
    }
  };
}

let S3RangeClient: ReturnType<typeof s3RangeClientClass> | undefined;

/** Opens a COG in S3 for range reads (geotiff is loaded with the first one: most requests read none). */
async function openCog(bucket: string, key: string): Promise<GeoTIFF> {
  const { BaseClient: Base, fromCustomClient } = await import('geotiff');
  S3RangeClient ??= s3RangeClientClass(Base);
  return fromCustomClient(new S3RangeClient(bucket, key), { allowFullFile: false });
}

/**
 * Cloud-Optimized GeoTIFF DEMs in S3 (AWS mode), listed in `dem/index.json`. A window is read by
 * range requests from the coarsest overview that still gives the requested detail.
 */
export class CogElevationSource implements ElevationSource {
  private manifest: { entries: DemEntry[]; loadedAt: number } | undefined;
  private readonly tiffs = new Map<string, Promise<GeoTIFF>>();

  constructor(private readonly bucket = requiredSetting('BUCKET_NAME')) {}

  info(): ElevationSourceInfo {
    return { name: 'Cloud-Optimized GeoTIFF DEMs (dem/ in the data bucket)', vertical_datum: 'NAVD88', native_resolution: 'per DEM' };
  }

  /** The window from every DEM it overlaps, mosaicked (adjoining DEMs join along their edges). */
  async grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    const overlapping = (await this.entries()).filter((e) => bboxesIntersect(e.bbox, box));
    return mosaicWindow(box, maxCells, overlapping.map((entry) => ({ owns: entry.bbox, entry, open: () => this.open(entry.key) })));
  }

  /**
   * The DEM holding the point joined with the DEMs it touches, from the index as last read (a
   * window's read loads it, and every answer reads its window before tracing a connection).
   */
  extentAt(lon: number, lat: number): BBox | undefined {
    return this.manifest && joinedExtent(this.manifest.entries.map((e) => e.bbox), lon, lat);
  }

  private open(key: string): Promise<GeoTIFF> {
    let tiff = this.tiffs.get(key);
    if (!tiff) {
      tiff = openCog(this.bucket, key);
      this.tiffs.set(key, tiff);
    }
    return tiff;
  }

  private async entries(): Promise<DemEntry[]> {
    if (this.manifest && Date.now() - this.manifest.loadedAt < MANIFEST_TTL_MS) return this.manifest.entries;
    try {
      const result = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: MANIFEST_KEY }));
      const parsed = JSON.parse(await result.Body!.transformToString()) as { dems?: DemEntry[] };
      this.manifest = { entries: parsed.dems ?? [], loadedAt: Date.now() };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status !== 404 && (error as Error).name !== 'NoSuchKey') throw error;
      this.manifest = { entries: [], loadedAt: Date.now() };
    }
    return this.manifest.entries;
  }
}

const area = (box: BBox): number => Math.max(0, box[2] - box[0]) * Math.max(0, box[3] - box[1]);

/** One COG a window may read: the box it answers for, how to open it, its datum and name. */
export interface WindowCog {
  owns: BBox;
  entry: Pick<DemEntry, 'vertical_datum' | 'name'>;
  open: () => Promise<GeoTIFF>;
}

/**
 * The window over `box` from each COG it overlaps: each reads its own part, from the coarsest
 * image that still gives the detail, with its share of `maxCells`, and the parts are mosaicked.
 */
export async function mosaicWindow(box: BBox, maxCells: number, cogs: readonly WindowCog[]): Promise<ElevationGrid | undefined> {
  const boxArea = area(box);
  const parts = await Promise.all(cogs.map(async ({ owns, entry, open }) => {
    const part: BBox = [Math.max(box[0], owns[0]), Math.max(box[1], owns[1]), Math.min(box[2], owns[2]), Math.min(box[3], owns[3])];
    const cells = Math.max(1, Math.round(boxArea > 0 ? (maxCells * area(part)) / boxArea : maxCells));
    const chosen = await chooseImage(await open(), part, cells);
    const grid = await readWindow(chosen.image, chosen.full, part, cells, entry);
    return grid && { grid, owns };
  }));
  return mosaicGrids(parts.filter((part) => part !== undefined), box);
}

/** The coarsest image (full resolution or overview) whose window still has at least `maxCells`/4 cells. */
export async function chooseImage(tiff: GeoTIFF, box: BBox, maxCells: number): Promise<{ image: GeoTIFFImage; full: GeoTIFFImage }> {
  const full = await tiff.getImage(0);
  const [resX, resY] = full.getResolution();
  const fullCells = ((box[2] - box[0]) / Math.abs(resX!)) * ((box[3] - box[1]) / Math.abs(resY!));
  let chosen = full;
  const count = await tiff.getImageCount();
  for (let i = 1; i < count; i++) {
    const overview = await tiff.getImage(i);
    const factor = full.getWidth() / overview.getWidth();
    if (fullCells / (factor * factor) < maxCells / 4) break;
    chosen = overview;
  }
  return { image: chosen, full };
}

export async function readWindow(image: GeoTIFFImage, full: GeoTIFFImage, box: BBox, maxCells: number, entry: Pick<DemEntry, 'vertical_datum' | 'name'>): Promise<ElevationGrid | undefined> {
  const [originX, originY] = full.getOrigin();
  const [fullResX, fullResY] = full.getResolution();
  const factor = full.getWidth() / image.getWidth();
  const resX = fullResX! * factor;
  const resY = Math.abs(fullResY!) * factor;
  const left = Math.max(0, Math.floor((box[0] - originX!) / resX));
  const right = Math.min(image.getWidth(), Math.ceil((box[2] - originX!) / resX));
  const top = Math.max(0, Math.floor((originY! - box[3]) / resY));
  const bottom = Math.min(image.getHeight(), Math.ceil((originY! - box[1]) / resY));
  if (right <= left || bottom <= top) return undefined;
  const scale = Math.max(1, Math.sqrt(((right - left) * (bottom - top)) / maxCells));
  const width = Math.max(1, Math.floor((right - left) / scale));
  const height = Math.max(1, Math.floor((bottom - top) / scale));
  const raster = await image.readRasters({ window: [left, top, right, bottom], width, height, samples: [0], resampleMethod: 'nearest', interleave: true });
  const noData = image.getGDALNoData();
  const values = new Float32Array(width * height);
  for (let i = 0; i < values.length; i++) {
    const v = Number((raster as unknown as ArrayLike<number>)[i]);
    values[i] = v === noData || !Number.isFinite(v) || v < -1000 ? Number.NaN : v;
  }
  const cellLon = ((right - left) * resX) / width;
  const cellLat = ((bottom - top) * resY) / height;
  return {
    values, width, height,
    west: originX! + left * resX + cellLon / 2,
    north: originY! - top * resY - cellLat / 2,
    cellLon, cellLat,
    verticalDatum: entry.vertical_datum,
    source: entry.name,
  };
}
