import { observedHandler } from '../../shared/observability/metrics';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { S3RangedBlobStore } from '../../shared/adapters/s3-ranged-blob-store';
import { StepFunctionsConnectionFanOut } from '../../shared/adapters/step-functions-fan-out';
import type { WindowBatch } from '../../shared/domain/elevation-models/windows';
import { failedRunOutcome, recordRunOutcome, type OutcomeDeps } from '../../shared/application/elevation-models/processing-jobs';
import { discardWindowBatches, joinWindowBatches, processWindowBatch, type ProcessingRun } from '../../shared/application/elevation-models/processing-fan-out';

/** One state of the processing fan-out (lib/elevation-processing-fan-out.ts): a batch of windows, the join, or the failure path. */
export type ProcessingFanOutEvent =
  | { step: 'batch'; run: ProcessingRun; batch: WindowBatch }
  | { step: 'join'; run: ProcessingRun; batches: WindowBatch[] }
  | { step: 'fail'; run: ProcessingRun; batches: WindowBatch[]; failure: { Error?: string; Cause?: string } };

let deps: OutcomeDeps & { blobs: S3RangedBlobStore } | undefined;

/** Invoked by the state machine once per batch of windows (Distributed Map items), then for the join or the failure. */
export const handler = observedHandler(async (event: ProcessingFanOutEvent): Promise<{ step: string }> => {
  deps ??= { blobs: new S3RangedBlobStore(), models: new DynamoElevationModelStore(), now: () => new Date(), fanOut: new StepFunctionsConnectionFanOut() };
  const { run } = event;
  switch (event.step) {
    case 'batch': await processWindowBatch(deps.blobs, run, event.batch); break;
    case 'join': await recordRunOutcome(deps, run, await joinWindowBatches(deps.blobs, run, event.batches)); break;
    case 'fail':
      await discardWindowBatches(deps.blobs, run, event.batches);
      await recordRunOutcome(deps, run, failedRunOutcome(run, event.failure));
      break;
  }
  return { step: event.step };
});
