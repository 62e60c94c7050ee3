import { readFileSync } from 'node:fs';
import path from 'node:path';
import proj4 from 'proj4';
import { fromArrayBuffer } from 'geotiff';
import fl2237 from 'epsg-index/s/2237.json';

/** The State Plane West (US ft), NGVD29-feet clip of the USGS Tampa quad (see test/fixtures/dem/SOURCES.md). */
export const TAMPA_CLIP = path.join(__dirname, '../fixtures/dem/tampa_clip_fl_west_ftus_ngvd29.tif');
export const US_FT = 1200 / 3937;
/** The TAMPA quad metadata's NGVD29 → NAVD88 shift: −0.87 ft. */
export const TAMPA_SHIFT_M = -0.87 * US_FT;

/**
 * The tests' own reader of the fixture, independent of the service's: samples by file row and
 * column in NGVD29 feet, and bilinear interpolation between cell centres (PixelIsArea) at a point.
 */
export async function readTampaClip() {
  const bytes = readFileSync(TAMPA_CLIP);
  const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
  const [band] = await image.readRasters({ interleave: false }) as unknown as [Float32Array];
  const [ox, oy] = image.getOrigin() as [number, number];
  const [sx, sy] = image.getResolution() as [number, number];
  const width = image.getWidth(), height = image.getHeight();
  const stateplane = proj4(fl2237.proj4);
  const at = (row: number, col: number) => band[row * width + col]!;
  /** Longitude/latitude of a fractional cell position (0.5 = a cell centre). */
  const lonLatOf = (row: number, col: number) => stateplane.inverse([ox + col * sx, oy + row * sy]) as [number, number];
  /** Bilinear between cell centres at a point, in feet; undefined near the edge. */
  const feetAt = (lon: number, lat: number): number | undefined => {
    const [x, y] = stateplane.forward([lon, lat]) as [number, number];
    const fc = (x - ox) / sx - 0.5, fr = (y - oy) / sy - 0.5;
    const c = Math.floor(fc), r = Math.floor(fr);
    if (c < 0 || r < 0 || c + 1 >= width || r + 1 >= height) return undefined;
    const tx = fc - c, ty = fr - r;
    return (at(r, c) * (1 - tx) + at(r, c + 1) * tx) * (1 - ty) + (at(r + 1, c) * (1 - tx) + at(r + 1, c + 1) * tx) * ty;
  };
  /** The first cell's north-west corner and the cell size (x, y), State Plane West US feet. */
  const frame = { origin: [ox, oy] as [number, number], cellSize: [sx, -sy] as [number, number], nodata: image.getGDALNoData() };
  return { bytes, width, height, at, lonLatOf, feetAt, frame };
}
