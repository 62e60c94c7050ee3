import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import { modelResolutionText } from '../../domain/elevation-models/model';
import { readWindow, type TileLoader } from '../../domain/elevation-models/pyramid';
import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../domain/hazards/elevation';
import type { BBox } from '../../domain/hazards/geo';
import { LruCache } from '../../lru-cache';

export const MODEL_FILE = 'model.json';

/** Tiles kept in memory per model (a gzip tile is 50–300 KB, 320 KB decoded): the windows of one analysis, and of successive answers around the same place, reuse them. */
const CACHED_TILES = 48;

/** A small least-recently-used cache of tile bytes in front of a loader (the same array for the same tile while it stays). */
export function cachedLoader(load: TileLoader, capacity: number): TileLoader {
  const cache = new LruCache<string, Promise<Uint8Array>>(capacity);
  return (key) => cache.getOrCreate(key, () => load(key));
}

/**
 * A processed model: `model.json` and the tiles it lists, each read only when a window needs it
 * and kept for the next windows; from a directory unless another loader of tiles is given.
 */
export class TiledModelSource implements ElevationSource {
  private readonly load: TileLoader;

  constructor(readonly record: ElevationModelRecord, directory: string, loadTile: TileLoader = async (key) => readFile(path.join(directory, key))) {
    this.load = cachedLoader(loadTile, CACHED_TILES);
  }

  static async open(directory: string): Promise<TiledModelSource> {
    const record = JSON.parse(await readFile(path.join(directory, MODEL_FILE), 'utf8')) as ElevationModelRecord;
    return new TiledModelSource(record, directory);
  }

  /** The extent and name the layered source picks models by. */
  get bbox(): BBox {
    return this.record.bbox;
  }

  get name(): string {
    return this.record.name;
  }

  info(): ElevationSourceInfo {
    return {
      name: this.record.name,
      vertical_datum: this.record.vertical_datum,
      native_resolution: modelResolutionText(this.record),
      elevation_model_id: this.record.elevation_model_id,
      resolution_m: Math.round(this.record.resolution_m * 100) / 100,
      vertical_accuracy_m: this.record.vertical_accuracy_m,
      surface_model: this.record.surface_model,
      ...(this.record.source_vertical_datum === 'NGVD29' ? { vertical_conversion: this.record.vertical_conversion } : {}),
    };
  }

  grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    return readWindow(this.record.pyramid, box, maxCells, this.load, this.record.name);
  }
}

/** Every processed model in the subdirectories of `root` (the bundled models), in name order. */
export function modelsIn(root: string): TiledModelSource[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, MODEL_FILE)))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const directory = path.join(root, name);
      return new TiledModelSource(JSON.parse(readFileSync(path.join(directory, MODEL_FILE), 'utf8')) as ElevationModelRecord, directory);
    });
}

/** Writes a model's tiles and then its `model.json` (last, so a half-written model is never listed). */
export async function writeModelDirectory(directory: string, record: ElevationModelRecord, tiles: Map<string, Uint8Array>): Promise<void> {
  for (const [key, bytes] of tiles) {
    await mkdir(path.dirname(path.join(directory, key)), { recursive: true });
    await writeFile(path.join(directory, key), bytes);
  }
  await writeFile(path.join(directory, MODEL_FILE), `${JSON.stringify(record, null, 1)}\n`);
}
