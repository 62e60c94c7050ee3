import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Errors, Fail, JsonPath, Succeed, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ACCOUNT_MODELS_PREFIX, ELEVATION_UPLOADS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import { PROCESSING_RUN_LIMIT_MS } from '../shared/domain/elevation-models/processing-job';
import { AppFunction, type EntryResolver } from './app-function';
import { bindBucket, bindTable } from './bindings';
import { bindExecutionStarter, fanOutStateMachine, perItemMap, workerInvoke } from './fan-out-machine';
import type { StageConfig } from './stage-config';

/** Batches of windows processed at once: each a Lambda of up to 3 GB. */
export const WINDOW_MAP_CONCURRENCY = 40;
/** Attempts after the first of a batch, the join or the failure's record on a throttle or a Lambda service error. */
export const WINDOW_RETRY_ATTEMPTS = 3;
/** Attempts after the first of a batch whose uploads S3 failed to serve (`UploadReadError`, a storage failure, not the file's). */
export const UPLOAD_READ_RETRY_ATTEMPTS = 2;

/** Label of the map, which names its child executions. */
const MAP_LABEL = 'processWindows';

export interface ElevationProcessingFanOutProps {
  config: StageConfig;
  bucket: IBucket;
  /** Where the models' records are: the join and the fail step record the run's outcome on its model. */
  table: ITable;
  entry?: EntryResolver;
}

/**
 * The processing of an uploaded elevation model of more windows than one run processes, as a Step
 * Functions state machine: a Distributed Map processes the batches of windows (one Lambda
 * invocation per batch, which writes its windows' tiles and its result), the join makes the model
 * of the batches' results and records its outcome. Any step that still fails after its retries
 * marks the run failed, with the error.
 * Input: `{ run: ProcessingRun, batches: [{ first, count }] }` (shared/application/elevation-models/processing-fan-out.ts),
 * started by the elevation model worker (`bindStarter`).
 */
export class ElevationProcessingFanOut extends Construct {
  readonly worker: AppFunction;
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: ElevationProcessingFanOutProps) {
    super(scope, id);
    this.worker = new AppFunction(this, 'ElevationWindowWorker', {
      name: 'elevation-window-worker',
      description: 'One batch of windows of an uploaded elevation model, the join of the batches and the outcome',
      memorySize: 3008,
      timeout: Duration.minutes(15),
      config: props.config,
      entry: props.entry,
    });
    bindTable(this.worker, props.table, 'readWrite');
    // As the elevation model worker: reads the uploads and deletes them once processed; writes the
    // model's tiles and the batches' results, and removes them after a refusal or a failed write.
    bindBucket(this.worker, props.bucket, 'readWrite', [ELEVATION_UPLOADS_PREFIX, ACCOUNT_MODELS_PREFIX]);

    const invoke = (stateId: string, payload: Record<string, unknown>) => workerInvoke(this, stateId, { worker: this.worker, payload, maxAttempts: WINDOW_RETRY_ATTEMPTS });
    const run = JsonPath.objectAt('$.run');
    const processBatch = invoke('ProcessWindowBatch', { step: 'batch', run, batch: JsonPath.objectAt('$.batch') });
    // An upload S3 failed to serve is read again a little later before the run is failed.
    processBatch.addRetry({ errors: ['UploadReadError'], interval: Duration.seconds(5), backoffRate: 2, maxAttempts: UPLOAD_READ_RETRY_ATTEMPTS });
    const processWindows = perItemMap(this, 'ProcessWindows', {
      items: '$.batches', itemName: 'batch', label: MAP_LABEL, maxConcurrency: WINDOW_MAP_CONCURRENCY, processor: processBatch,
    });
    const join = invoke('JoinWindows', { step: 'join', run, batches: JsonPath.objectAt('$.batches') });

    // The failure path removes what the batches left (their results and tiles) and records the outcome.
    const markFailed = invoke('MarkProcessingFailed', { step: 'fail', run, batches: JsonPath.objectAt('$.batches'), failure: JsonPath.objectAt('$.failure') })
      .next(new Fail(this, 'ProcessingFailed', { error: 'ProcessingFanOutFailed', cause: 'A batch of windows or the join failed after its retries; the run is marked failed.' }));
    for (const state of [processWindows, join]) state.addCatch(markFailed, { errors: [Errors.ALL], resultPath: '$.failure' });

    this.stateMachine = fanOutStateMachine(this, {
      config: props.config,
      comment: 'Processing of an uploaded elevation model: its windows fanned out in batches, joined into the model',
      definition: processWindows.next(join).next(new Succeed(this, 'ModelProcessed')),
      // The model's lease outlasts this by 10 minutes, so a run is never taken over while it goes on (shared/domain/elevation-models/processing-job.ts).
      timeout: Duration.millis(PROCESSING_RUN_LIMIT_MS),
      workers: [this.worker],
      mapLabels: [MAP_LABEL],
    });
  }

  /** Lets `fn` start runs: the machine's ARN in its environment, StartExecution on this machine alone. */
  bindStarter(fn: LambdaFunction): void {
    bindExecutionStarter(fn, this.stateMachine, 'PROCESSING_STATE_MACHINE_ARN');
  }
}
