import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import { modelResolutionText } from '../../domain/elevation-models/model';
import { readWindow } from '../../domain/elevation-models/pyramid';
import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../domain/hazards/elevation';
import type { BBox } from '../../domain/hazards/geo';

export const MODEL_FILE = 'model.json';

/** A processed model read from a directory: `model.json` and the tiles it lists (each read only when a window needs it). */
export class TiledModelSource implements ElevationSource {
  constructor(readonly record: ElevationModelRecord, private readonly directory: string) {}

  static async open(directory: string): Promise<TiledModelSource> {
    const record = JSON.parse(await readFile(path.join(directory, MODEL_FILE), 'utf8')) as ElevationModelRecord;
    return new TiledModelSource(record, directory);
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
    return readWindow(this.record.pyramid, box, maxCells, (key) => readFile(path.join(this.directory, key)), this.record.name);
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
