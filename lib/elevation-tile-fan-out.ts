import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Errors, Fail, JsonPath, Succeed, type IChainable, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ACCOUNT_MODELS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import { CONNECTION_RUN_LIMIT_MS } from '../shared/domain/elevation-models/connection';
import { AppFunction, type EntryResolver } from './app-function';
import { bindModelConnectionOutcome } from './bindings';
import { bindExecutionStarter, fanOutStateMachine, perItemMap, workerInvoke } from './fan-out-machine';
import type { StageConfig } from './stage-config';

/** Tiles processed at once: each a Lambda of up to 3 GB; a county's lidar is a few hundred tiles. */
export const TILE_MAP_CONCURRENCY = 40;
/** Attempts after the first of a tile's pass on a throttle or a Lambda service error. */
export const TILE_RETRY_ATTEMPTS = 3;

/** Labels of the two maps, which name their child executions. */
const MAP_LABELS = ['traceTiles', 'settleTiles'] as const;
type MapLabel = (typeof MAP_LABELS)[number];

export interface ElevationTileFanOutProps {
  config: StageConfig;
  bucket: IBucket;
  /** Where the models' records are: the finish and fail steps record the run's outcome on its model. */
  table: ITable;
  entry?: EntryResolver;
}

/**
 * The per-tile passes of a tiled elevation model as a Step Functions state machine: a Distributed
 * Map traces every tile (one Lambda invocation per tile), a join gives every tile's rim its level
 * over the whole model, a second Distributed Map settles every tile, and the model's connection is
 * marked ready. Any step that still fails after its retries marks the run failed, with the error.
 * Input: `{ run: { account_id, elevation_model_id, run_id, model_prefix, sea_surface_navd88_m },
 * tiles: [{ row, col, width, height }] }`, started by the elevation model worker (`bindStarter`).
 */
export class ElevationTileFanOut extends Construct {
  readonly worker: AppFunction;
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: ElevationTileFanOutProps) {
    super(scope, id);
    this.worker = new AppFunction(this, 'ElevationTileWorker', {
      name: 'elevation-tile-worker',
      description: 'One pass over one tile of a tiled elevation model (trace, settle), the join of the tiles and the outcome',
      memorySize: 3008,
      timeout: Duration.minutes(15),
      config: props.config,
      entry: props.entry,
    });
    // Reads the models' tiles and writes only their connection objects beside them; deletes nothing.
    const { bucket } = props;
    const readKeys = `${ACCOUNT_MODELS_PREFIX}*`;
    const connectionKeys = `${ACCOUNT_MODELS_PREFIX}*/connection/*`;
    this.worker.addEnvironment('BUCKET_NAME', bucket.bucketName);
    // ListBucket (names only) makes S3 answer 404 rather than 403 for a missing object.
    this.worker.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    this.worker.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects(readKeys)] }));
    this.worker.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [bucket.arnForObjects(connectionKeys)] }));
    const bucketId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
    Validations.of(this.worker).acknowledge(
      { id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${readKeys}]`, reason: 'Tiles of any account\'s model are read; models are created at run time under this prefix of the application\'s own bucket.' },
      { id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${connectionKeys}]`, reason: 'A run writes only the connection objects of its model, created at run time beside the model\'s tiles.' },
    );
    bindModelConnectionOutcome(this.worker, props.table);

    const invoke = (stateId: string, payload: Record<string, unknown>) => workerInvoke(this, stateId, { worker: this.worker, payload, maxAttempts: TILE_RETRY_ATTEMPTS });
    const run = JsonPath.objectAt('$.run');
    const perTile = (stateId: string, label: MapLabel, processor: IChainable) => perItemMap(this, stateId, {
      itemsPath: '$.tiles', itemName: 'tile', label, maxConcurrency: TILE_MAP_CONCURRENCY, processor,
    });
    const trace = perTile('TraceTiles', 'traceTiles', invoke('TraceTile', { step: 'trace', run, tile: JsonPath.objectAt('$.tile') }));
    const join = invoke('JoinTiles', { step: 'join', run, tiles: JsonPath.objectAt('$.tiles') });
    const settle = perTile('SettleTiles', 'settleTiles', invoke('SettleTile', { step: 'settle', run, tile: JsonPath.objectAt('$.tile') }));
    const finish = invoke('MarkConnectionReady', { step: 'finish', run, tiles: JsonPath.objectAt('$.tiles') });

    const markFailed = invoke('MarkConnectionFailed', { step: 'fail', run, failure: JsonPath.objectAt('$.failure') })
      .next(new Fail(this, 'ConnectionFailed', { error: 'TileFanOutFailed', cause: 'A tile pass or the join failed after its retries; the run is marked failed.' }));
    for (const state of [trace, join, settle, finish]) state.addCatch(markFailed, { errors: [Errors.ALL], resultPath: '$.failure' });

    this.stateMachine = fanOutStateMachine(this, {
      config: props.config,
      comment: 'Tidal connection of a tiled elevation model: per-tile passes fanned out over the tiles, joined at their rims',
      definition: trace.next(join).next(settle).next(finish).next(new Succeed(this, 'ConnectionReady')),
      // A run still pending past this is reported lost (shared/domain/elevation-models/connection.ts).
      timeout: Duration.millis(CONNECTION_RUN_LIMIT_MS),
      worker: this.worker,
      mapLabels: MAP_LABELS,
    });
  }

  /** Lets `fn` start runs: the machine's ARN in its environment, StartExecution on this machine alone. */
  bindStarter(fn: LambdaFunction): void {
    bindExecutionStarter(fn, this.stateMachine, 'CONNECTION_STATE_MACHINE_ARN');
  }
}
