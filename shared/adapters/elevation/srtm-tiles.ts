import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fflate } from '../../fflate';
import { SRTM_MODEL_ID, type ElevationGrid, type ElevationSource, type ElevationSourceInfo } from '../../domain/hazards/elevation';
import type { BBox } from '../../domain/hazards/geo';

// Hot loops read Math and Number through module bindings (named apart, so no code placed ahead of
// this line meets a shadowed global): a global lookup costs about a hundred times
// more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;

const SAMPLES_PER_DEGREE = 3600;
const TILE_SIZE = 3601;
const VOID = -32768;
/**
 * SRTM's water-body editing sets sea and bay surfaces to 0 m; the few negative samples along the
 * Florida shore are radar noise at the water's edge (no Florida land lies below mean sea level), so
 * they are water too.
 */
const WATER_AT_OR_BELOW = 0;
/** Decompressed tiles are 26 MB each; a few stay in memory for the next request. */
const CACHED_TILES = 4;

export const BUNDLED_SRTM_DIR = path.resolve(__dirname, '../../data/hazards/srtm1');

function tileName(lat: number, lon: number): string {
  const ns = lat >= 0 ? 'N' : 'S';
  const ew = lon >= 0 ? 'E' : 'W';
  return `${ns}${String(math.abs(lat)).padStart(2, '0')}${ew}${String(math.abs(lon)).padStart(3, '0')}`;
}

/**
 * SRTM 1 arc-second `.hgt.zip` tiles read from disk (the bundled coastal-Florida tiles in local
 * mode): 3601×3601 big-endian int16 samples, row 0 at the tile's north edge, void = −32768.
 * Heights are metres on the EGM96 geoid; cells at or below 0 are the edited sea and bay surface
 * (and its edge noise) and come flagged as water.
 */
export class SrtmTileSource implements ElevationSource {
  private readonly available: Set<string>;
  private readonly cache = new Map<string, DataView>();

  constructor(private readonly directory = BUNDLED_SRTM_DIR) {
    this.available = new Set(existsSync(directory)
      ? readdirSync(directory).filter((f) => f.endsWith('.hgt.zip')).map((f) => f.slice(0, -'.hgt.zip'.length))
      : []);
  }

  info(): ElevationSourceInfo {
    return {
      name: 'SRTM 1 arc-second tiles (bundled, coastal Florida; a surface model: roofs and canopy, not bare earth)',
      vertical_datum: 'EGM96',
      native_resolution: '1 arc-second (~30 m)',
      elevation_model_id: SRTM_MODEL_ID,
      resolution_m: 30,
      vertical_accuracy_m: 16,
      vertical_accuracy_basis: 'SRTM mission specification: 16 m absolute, 90 % linear error; whole-metre samples.',
      surface_model: true,
      height_step_m: 1,
    };
  }

  /** The one-degree tile holding the point, where one is bundled. */
  extentAt(lon: number, lat: number): BBox | undefined {
    const west = math.floor(lon), south = math.floor(lat);
    return this.available.has(tileName(south, west)) ? [west, south, west + 1, south + 1] : undefined;
  }

  async grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    const [west, south, east, north] = box;
    const x0 = math.floor(west * SAMPLES_PER_DEGREE);
    const x1 = math.ceil(east * SAMPLES_PER_DEGREE);
    const y0 = math.ceil(north * SAMPLES_PER_DEGREE);
    const y1 = math.floor(south * SAMPLES_PER_DEGREE);
    const native = (x1 - x0 + 1) * (y0 - y1 + 1);
    const step = math.max(1, math.ceil(math.sqrt(native / maxCells)));
    const width = math.floor((x1 - x0) / step) + 1;
    const height = math.floor((y0 - y1) / step) + 1;
    const values = new Float32Array(width * height).fill(num.NaN);
    const water = new Uint8Array(width * height);
    let covered = false;
    // The tile changes at most at a degree line: look it up only then, not per sample.
    let tile: DataView | undefined;
    let tileKey = num.NaN;
    for (let row = 0; row < height; row++) {
      const y = y0 - row * step;
      const tileLat = math.floor(y / SAMPLES_PER_DEGREE);
      const tileRow = (tileLat + 1) * SAMPLES_PER_DEGREE - y;
      for (let col = 0; col < width; col++) {
        const x = x0 + col * step;
        const tileLon = math.floor(x / SAMPLES_PER_DEGREE);
        const key = tileLat * 1000 + tileLon;
        if (key !== tileKey) {
          tile = this.tile(tileLat, tileLon);
          tileKey = key;
        }
        if (!tile) continue;
        const sample = tile.getInt16((tileRow * TILE_SIZE + (x - tileLon * SAMPLES_PER_DEGREE)) * 2, false);
        if (sample === VOID) continue;
        values[row * width + col] = sample;
        if (sample <= WATER_AT_OR_BELOW) water[row * width + col] = 1;
        covered = true;
      }
    }
    if (!covered) return undefined;
    return {
      values, width, height, water,
      west: x0 / SAMPLES_PER_DEGREE,
      north: y0 / SAMPLES_PER_DEGREE,
      cellLon: step / SAMPLES_PER_DEGREE,
      cellLat: step / SAMPLES_PER_DEGREE,
      verticalDatum: 'EGM96',
      source: 'SRTM 1 arc-second',
    };
  }

  private tile(lat: number, lon: number): DataView | undefined {
    const name = tileName(lat, lon);
    if (!this.available.has(name)) return undefined;
    let view = this.cache.get(name);
    if (!view) {
      const files = fflate().unzipSync(readFileSync(path.join(this.directory, `${name}.hgt.zip`)));
      const bytes = files[`${name}.hgt`] ?? Object.values(files)[0]!;
      view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (this.cache.size >= CACHED_TILES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(name, view);
    }
    return view;
  }
}
