import { handler as joinHandler } from '../../functions/elevation-connection-join/handler';
import { readCachedSpill, readConnectionStatus } from '../../shared/adapters/elevation/connection-cache';
import { handler as tileHandler } from '../../functions/elevation-tile-worker/handler';
import { writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { connectionExecutionInput } from '../../shared/adapters/step-functions-fan-out';
import {
  connectionTiles, type ConnectionTileWindow, type ModelConnectionRun,
} from '../../shared/application/elevation-models/model-connection';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { startTestApp } from '../helpers/local-app';
import { syntheticModel, syntheticWindow } from '../helpers/synthetic-surface';

/** The sea surface these runs are traced for (a run carries its own; the start takes the lowest MSL of the gauges over the model). */
const SEA_SURFACE_NAVD88_M = 0;

/**
 * The tile fan-out's steps as the state machine runs them (lib/elevation-tile-fan-out.ts), against
 * the S3 emulator: each map's items read from the tile list the run's start wrote (as its item
 * reader does), a tile worker invocation per item and pass, the join function between the maps,
 * and the outcome with the tile count. The cache equals the flood of the whole grid.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => { app = await startTestApp({ backgroundWorkers: false }); }, 120_000);
afterAll(async () => { await app?.stop(); });

const width = 700, height = 520;
const ACCOUNT = 'acct_tiles', MODEL = 'em_tiles';
const prefix = `elevation-models/${ACCOUNT}/${MODEL}/`;

describe('the tile fan-out\'s functions (S3 emulator)', () => {
  it('trace every listed tile, join their rims, settle every tile and record the run ready, equal to the single grid', async () => {
    const blobs = new S3BlobStore();
    const surface = syntheticWindow({ width, height, seed: 23 }, 0, 0, width, height, SEA_SURFACE_NAVD88_M);
    const { record, tiles: pyramidTiles } = syntheticModel(MODEL, surface.values, width, height);
    await writeProcessedModel(blobs, prefix, record, pyramidTiles);
    const tiles = connectionTiles(record, 256);
    expect(tiles).toHaveLength(9);
    const run: ModelConnectionRun = { account_id: ACCOUNT, elevation_model_id: MODEL, run_id: 'conn_sfn', model_prefix: prefix, sea_surface_navd88_m: SEA_SURFACE_NAVD88_M };

    // What the start leaves: the list beside the model (as `startModelConnection` writes it), and the execution's input naming it.
    await blobs.put(`${prefix}connection/tiles.json`, JSON.stringify(tiles), 'application/json');
    const input = connectionExecutionInput({ run, tiles });
    expect(input.tile_count).toBe(9);
    const items = JSON.parse((await blobs.get(input.tiles_key))!.toString('utf8')) as ConnectionTileWindow[];
    expect(items).toEqual(tiles);

    // The maps run their items in any order: here backwards, two at once.
    const eachItem = async (step: 'trace' | 'settle') => {
      const order = [...items].reverse();
      while (order.length > 0) await Promise.all(order.splice(0, 2).map((tile) => tileHandler({ step, run, tile })));
    };
    await eachItem('trace');
    expect(await joinHandler({ run })).toEqual({ step: 'join', tiles: 9 });
    await eachItem('settle');
    await tileHandler({ step: 'finish', run, tile_count: input.tile_count });

    const single = spillLevels(surface, (i) => surface.water[i] === 1);
    let differing = 0, compared = 0;
    for (const tile of tiles) {
      const spill = (await readCachedSpill(blobs, prefix, tile))!;
      for (let r = 0; r < tile.height; r++) {
        for (let c = 0; c < tile.width; c++, compared++) if (!Object.is(spill[r * tile.width + c], single[(tile.row + r) * width + tile.col + c])) differing++;
      }
    }
    expect(compared).toBe(width * height);
    expect(differing).toBe(0);
    expect(await readConnectionStatus(blobs, prefix)).toEqual({ status: 'ready', tiles: 9, sea_surface_navd88_m: 0 });
  }, 120_000);

  it('fails the join, for the machine to catch, when the run\'s tile list is not beside the model', async () => {
    const run: ModelConnectionRun = { account_id: ACCOUNT, elevation_model_id: 'em_unlisted', run_id: 'conn_x', model_prefix: `elevation-models/${ACCOUNT}/em_unlisted/`, sea_surface_navd88_m: 0 };
    await expect(joinHandler({ run })).rejects.toThrow(`The object elevation-models/${ACCOUNT}/em_unlisted/connection/tiles.json is missing.`);
  });
});
