import path from 'node:path';
import { DynamoElevationModelStore } from '../shared/adapters/elevation-model-store';
import { DEM_THREAD_LIMITS, processDemInThread } from '../shared/adapters/elevation/dem-thread';
import { S3RangedBlobStore } from '../shared/adapters/s3-ranged-blob-store';
import { LazyWorkerPool, WorkerPool } from '../shared/adapters/worker-pool';
import {
  discardWindowBatches, InProcessProcessingFanOut, type ProcessingOutcome, type ProcessingRun, type ProcessingSteps,
} from '../shared/application/elevation-models/processing-fan-out';
import { recordRunOutcome, type WorkerDeps } from '../shared/application/elevation-models/processing-jobs';
import type { WindowBatch } from '../shared/domain/elevation-models/windows';
import { UploadReadError } from '../shared/domain/elevation-models/raster-error';
import { localConnectionFanOut } from './connection-fan-out';

/** A step of a processing run, as a pooled thread takes it. */
export type ProcessingTask = { step: 'batch'; run: ProcessingRun; batch: WindowBatch } | { step: 'join'; run: ProcessingRun; batches: WindowBatch[] };
/** What the thread answers: a batch done, or its upload unreadable where it is stored; the join's outcome. */
export type ProcessingReply = { done: true } | { unreadable: string } | { outcome: ProcessingOutcome };

const ENTRY = path.join(__dirname, `processing-thread-entry${path.extname(__filename)}`);

/** The steps on a pool of threads (one per core unless told), each with the heap a processing thread has; started with the first step. */
export class PooledProcessingSteps implements ProcessingSteps {
  private readonly threads: LazyWorkerPool<ProcessingTask, ProcessingReply>;

  constructor(size?: number) {
    // The environment this caller sees (endpoints, bucket): the threads read and write the bucket themselves.
    this.threads = new LazyWorkerPool('processing', () => new WorkerPool(ENTRY, { ...(size === undefined ? {} : { size }), resourceLimits: DEM_THREAD_LIMITS, env: { ...process.env } }));
  }

  /** Batches processed at once: one per thread. */
  get concurrency(): number {
    return this.threads.size;
  }

  async batch(run: ProcessingRun, batch: WindowBatch): Promise<void> {
    const reply = await this.threads.run({ step: 'batch', run, batch });
    if ('unreadable' in reply) throw new UploadReadError(reply.unreadable);
  }

  async join(run: ProcessingRun, batches: readonly WindowBatch[]): Promise<ProcessingOutcome> {
    return (await this.threads.run({ step: 'join', run, batches: [...batches] }) as { outcome: ProcessingOutcome }).outcome;
  }

  /** Ends the threads; steps running or asked for later fail. */
  close(): Promise<void> {
    return this.threads.close();
  }
}

/**
 * The local counterpart of the processing fan-out state machine: one pool of processing threads
 * for the process, shared by every elevation model worker, and the worker's dependencies over it.
 */
let local: { fanOut: InProcessProcessingFanOut; steps: PooledProcessingSteps } | undefined;

function localProcessingFanOut(): InProcessProcessingFanOut {
  if (!local) {
    const steps = new PooledProcessingSteps();
    const blobs = new S3RangedBlobStore();
    const outcomeDeps = { blobs, models: new DynamoElevationModelStore(), now: () => new Date(), fanOut: localConnectionFanOut() };
    local = {
      steps,
      fanOut: new InProcessProcessingFanOut({
        steps,
        get concurrency() { return steps.concurrency; },
        record: (run, outcome) => recordRunOutcome(outcomeDeps, run, outcome),
        discard: (run, batches) => discardWindowBatches(blobs, run, batches),
        letGo: async (run) => { await outcomeDeps.models.release(run.account_id, run.elevation_model_id, run.lease.owner, new Date()); },
        now: () => new Date(),
      }),
    };
  }
  return local.fanOut;
}

/** The elevation model worker as local mode runs it: one run in a processing thread, a larger model fanned out over the pool. */
export function localElevationWorker(): WorkerDeps {
  return {
    models: new DynamoElevationModelStore(), blobs: new S3RangedBlobStore(), now: () => new Date(),
    processDem: processDemInThread, fanOut: localConnectionFanOut(), processing: { fanOut: localProcessingFanOut() },
  };
}

/** Ends the threads: runs still going stop and let their leases go, so the next start's sweep processes them again. */
export async function stopLocalProcessingFanOut(): Promise<void> {
  if (!local) return;
  const { fanOut, steps } = local;
  local = undefined;
  fanOut.stop();
  await steps.close();
  await fanOut.idle();
}
