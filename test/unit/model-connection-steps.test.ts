import { writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import {
  cachedSpill, connectionKeys, connectionTiles, finishModelConnection, joinModelTiles, modelConnectionStatus, settleModelTile, traceModelTile,
} from '../../shared/application/elevation-models/model-connection';
import type { ElevationModelRecord } from '../../shared/domain/elevation-models/model';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { decodeTrace, encodeTrace, traceTile } from '../../shared/domain/hazards/tiled-connection';
import { MemoryBlobs } from '../helpers/memory-blobs';
import { MemoryConnectionRecords, pendingRun } from '../helpers/memory-connection-records';
import { syntheticModel, syntheticWindow } from '../helpers/synthetic-surface';

/**
 * The steps the state machine runs, in order, over a processed model in a bucket: trace every
 * tile, join, settle every tile. The cached spill levels equal the single-grid flood of the
 * model's level 0, cell for cell.
 */
const width = 700, height = 520, seaSurface = 0.2;
const surface = syntheticWindow({ width, height, seed: 5 }, 0, 0, width, height, seaSurface);
const prefix = 'elevation-models/acct_test/em_tiles/';
const run = { account_id: 'acct_test', elevation_model_id: 'em_tiles', run_id: 'conn_1', model_prefix: prefix, sea_surface_navd88_m: seaSurface };

async function storedModel(): Promise<{ blobs: MemoryBlobs; record: ElevationModelRecord }> {
  const blobs = new MemoryBlobs();
  // No water flag: the steps decide water from the sea surface, as the flood model does.
  const { record, tiles } = syntheticModel('em_tiles', surface.values, width, height);
  await writeProcessedModel(blobs, prefix, record, tiles);
  return { blobs, record };
}

describe('the tile fan-out steps over a stored model', () => {
  it('caches every cell\'s spill level over the whole model, as the single grid gives it', async () => {
    const { blobs, record } = await storedModel();
    const tiles = connectionTiles(record, 300);
    expect(tiles).toHaveLength(3 * 2);
    for (const tile of tiles) await traceModelTile(blobs, run, tile);
    await joinModelTiles(blobs, run, tiles);
    for (const tile of tiles) await settleModelTile(blobs, run, tile);
    const records = new MemoryConnectionRecords(['em_tiles']);
    await records.startConnection('acct_test', 'em_tiles', pendingRun('conn_1', 6));
    await finishModelConnection({ blobs, records, now: () => new Date('2026-11-23T21:05:00.000Z') }, run, { status: 'ready', tiles: tiles.length, sea_surface_navd88_m: seaSurface });

    const single = spillLevels(surface, (i) => surface.water[i] === 1);
    let differing = 0;
    for (const tile of tiles) {
      const spill = (await cachedSpill(blobs, prefix, tile))!;
      for (let r = 0; r < tile.height; r++) {
        for (let c = 0; c < tile.width; c++) if (spill[r * tile.width + c] !== single[(tile.row + r) * width + tile.col + c]) differing++;
      }
    }
    expect(differing).toBe(0);
    expect(await modelConnectionStatus(blobs, prefix)).toEqual({ status: 'ready', tiles: 6, sea_surface_navd88_m: seaSurface });
    expect(records.connections.get('em_tiles')).toMatchObject({ status: 'ready', finished_at: '2026-11-23T21:05:00.000Z', error: null });
  });

  it('records a failed run on its model with the error the state machine caught, and no outcome of a run that is no longer the model\'s', async () => {
    const { blobs } = await storedModel();
    const records = new MemoryConnectionRecords(['em_tiles']);
    await records.startConnection('acct_test', 'em_tiles', pendingRun('conn_1', 6));
    const deps = { blobs, records, now: () => new Date('2026-11-23T21:05:00.000Z') };
    await finishModelConnection(deps, { ...run, run_id: 'conn_0' }, { status: 'ready', tiles: 6, sea_surface_navd88_m: seaSurface });
    expect(records.connections.get('em_tiles')!.status).toBe('pending');
    await finishModelConnection(deps, run, { status: 'failed', error: 'States.TaskFailed', cause: 'Lambda.Unknown' });
    expect(records.connections.get('em_tiles')).toMatchObject({
      status: 'failed', finished_at: '2026-11-23T21:05:00.000Z', error: { code: 'tile_pass_failed', detail: expect.stringContaining('States.TaskFailed: Lambda.Unknown') },
    });
  });

  it('refuses to join before every tile is traced, naming the missing object', async () => {
    const { blobs, record } = await storedModel();
    const tiles = connectionTiles(record, 300);
    await traceModelTile(blobs, run, tiles[0]!);
    await expect(joinModelTiles(blobs, run, tiles)).rejects.toThrow(`The object ${connectionKeys(prefix).trace(tiles[1]!)} is missing.`);
  });

  it('keeps a trace through its bytes unchanged', () => {
    const tile = syntheticWindow({ width: 50, height: 50, seed: 2 }, 10, 20, 33, 17);
    const trace = traceTile(tile);
    expect(decodeTrace(encodeTrace(trace))).toEqual(trace);
  });
});
