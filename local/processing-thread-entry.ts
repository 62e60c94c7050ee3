import { S3RangedBlobStore } from '../shared/adapters/s3-ranged-blob-store';
import { serveTasks } from '../shared/adapters/worker-pool';
import { joinWindowBatches, processWindowBatch } from '../shared/application/elevation-models/processing-fan-out';
import { UploadReadError } from '../shared/domain/elevation-models/raster-error';
import type { ProcessingReply, ProcessingTask } from './processing-fan-out';

/** A thread of the processing pool: one batch of windows, or the join, read from and written to the bucket. */
const blobs = new S3RangedBlobStore();

serveTasks<ProcessingTask, ProcessingReply>(async (task) => {
  if (task.step === 'join') return { result: { outcome: await joinWindowBatches(blobs, task.run, task.batches) } };
  try {
    await processWindowBatch(blobs, task.run, task.batch);
    return { result: { done: true } };
  } catch (error) {
    if (error instanceof UploadReadError) return { result: { unreadable: error.message } };
    throw error;
  }
});
