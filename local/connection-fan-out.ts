import { DynamoElevationModelStore } from '../shared/adapters/elevation-model-store';
import { PooledTilePasses } from '../shared/adapters/elevation/connection-threads';
import { S3BlobStore } from '../shared/adapters/s3-blob-store';
import { InProcessConnectionFanOut } from '../shared/application/elevation-models/model-connection';

/**
 * The local counterpart of the tile fan-out state machine: one pool of connection threads for the
 * process (one per core, started with the first run), shared by every elevation model worker.
 */
let local: { fanOut: InProcessConnectionFanOut; passes: PooledTilePasses } | undefined;

export function localConnectionFanOut(): InProcessConnectionFanOut {
  if (!local) {
    const passes = new PooledTilePasses();
    local = { passes, fanOut: new InProcessConnectionFanOut({ blobs: new S3BlobStore(), records: new DynamoElevationModelStore(), now: () => new Date() }, passes) };
  }
  return local.fanOut;
}

/**
 * Ends the threads: runs still going stop and let their leases go, while the table is still up, so
 * the next start's sweep runs them again.
 */
export async function stopLocalConnectionFanOut(): Promise<void> {
  if (!local) return;
  const { fanOut, passes } = local;
  local = undefined;
  fanOut.stop();
  await passes.close();
  await fanOut.idle();
}
