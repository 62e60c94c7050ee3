import { processDem } from '../../shared/adapters/elevation/geotiff-dem';
import { OperatorElevationModels } from '../../shared/adapters/elevation/operator-models';
import { processedModelRecord } from '../../shared/adapters/elevation/processed-model';
import type { BlobStore } from '../../shared/ports';
import { readTampaClip, TAMPA_SHIFT_M } from '../helpers/dem-fixture';

/** Objects in memory, as the bucket holds them. */
class MemoryBlobs implements Pick<BlobStore, 'put' | 'get' | 'delete' | 'deleteMany'> {
  readonly objects = new Map<string, Buffer>();
  async put(key: string, body: Buffer | string) {
    this.objects.set(key, Buffer.from(body));
  }
  async get(key: string) {
    return this.objects.get(key);
  }
  async delete(key: string) {
    this.objects.delete(key);
  }
  async deleteMany(keys: readonly string[]) {
    for (const key of keys) this.objects.delete(key);
  }
}

describe('the operator\'s published elevation models', () => {
  let record: ReturnType<typeof processedModelRecord>;
  let tiles: Map<string, Uint8Array>;
  beforeAll(async () => {
    const processed = await processDem((await readTampaClip()).bytes, { vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M });
    tiles = processed.tiles;
    record = processedModelRecord(processed, { elevation_model_id: 'clip', name: 'Clip', source_vertical_datum: 'NGVD29', vertical_accuracy_m: 0.3, surface_model: false });
  });

  it('replaces a model published again under its id, leaving no object of the old one', async () => {
    const blobs = new MemoryBlobs();
    const models = new OperatorElevationModels(blobs as unknown as BlobStore);
    const first = await models.publish(record, tiles, new Date('2026-11-01T10:00:00Z'));
    const objectsOfOne = blobs.objects.size;
    expect(objectsOfOne).toBe(tiles.size + 2); // tiles, model.json, index.json
    const second = await models.publish(record, tiles, new Date('2026-11-02T10:00:00Z'));
    expect(second.model_key).not.toBe(first.model_key);
    expect(blobs.objects.size).toBe(objectsOfOne);
    expect([...blobs.objects.keys()].some((key) => key.startsWith(first.model_key.replace('model.json', '')))).toBe(false);
    expect(await models.list()).toEqual([second]);
    expect(await models.remove('clip')).toBe(true);
    expect([...blobs.objects.keys()]).toEqual(['elevation-models/operator/index.json']);
    expect(await models.remove('clip')).toBe(false);
  });

  it('reads the index again after five minutes, so another instance\'s publication is used', async () => {
    const blobs = new MemoryBlobs();
    let now = Date.parse('2026-11-01T10:00:00Z');
    const reader = new OperatorElevationModels(blobs as unknown as BlobStore, () => now);
    expect(await reader.sources()).toEqual([]);
    await new OperatorElevationModels(blobs as unknown as BlobStore).publish(record, tiles, new Date(now));
    now += 4 * 60_000;
    expect(await reader.sources()).toEqual([]);
    now += 2 * 60_000;
    expect((await reader.sources()).map((source) => source.record.elevation_model_id)).toEqual(['clip']);
  });
});
