import type { Context, SQSEvent } from 'aws-lambda';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { processStoredDem } from '../../shared/adapters/elevation/geotiff-dem';
import { S3RangedBlobStore } from '../../shared/adapters/s3-ranged-blob-store';
import { StepFunctionsConnectionFanOut, StepFunctionsProcessingFanOut } from '../../shared/adapters/step-functions-fan-out';
import { elevationModelRunner } from '../../shared/application/elevation-models/processing-jobs';
import { jobQueueConsumer } from '../../shared/application/jobs/harness';
import { observedHandler } from '../../shared/observability/metrics';

/**
 * Elevation model uploads: the bucket's ObjectCreated notification on `elevation-uploads/` goes
 * to the elevation model queue, which starts processing here, in this function (its memory is the
 * cap); the sweep's retries of models whose worker was lost arrive on the same queue. A model of
 * more windows than one run takes is handed to the processing fan-out state machine instead. A
 * model that turns ready starts its tidal connection on the tile fan-out state machine.
 */
let consume: ReturnType<typeof jobQueueConsumer> | undefined;

export const handler = observedHandler((event: SQSEvent, context?: Context) => {
  // Created on first use (cold start), after the environment is in place.
  consume ??= workerOn(new S3RangedBlobStore());
  return consume(event, context);
});

/** The worker over one bucket, read by ranges for processing. */
function workerOn(blobs: S3RangedBlobStore): ReturnType<typeof jobQueueConsumer> {
  return jobQueueConsumer([elevationModelRunner({ models: new DynamoElevationModelStore(), blobs, now: () => new Date(), processDem: processStoredDem(blobs), fanOut: new StepFunctionsConnectionFanOut(), processing: { fanOut: new StepFunctionsProcessingFanOut() } })]);
}
