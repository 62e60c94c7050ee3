import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Errors, Fail, JsonPath, S3JsonItemReader, Succeed, type IChainable, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ACCOUNT_MODELS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import { CONNECTION_RUN_LIMIT_MS } from '../shared/domain/elevation-models/connection';
import { AppFunction, type EntryResolver } from './app-function';
import { bindModelConnectionOutcome } from './bindings';
import { bindExecutionStarter, fanOutStateMachine, perItemMap, workerInvoke } from './fan-out-machine';
import type { StageConfig } from './stage-config';

/** Tiles processed at once: each a Lambda of up to 3 GB; a county's lidar is a few hundred to a few thousand tiles. */
export const TILE_MAP_CONCURRENCY = 40;
/** A tile's pass holds one tile of 2,048 cells a side and its neighbours' rims. */
export const TILE_WORKER_MEMORY_MB = 3008;
/**
 * The join holds every tile's rim at once: 3.4 GB at its peak for 10¹⁰ cells, 6.9 GB for
 * 2.06 × 10¹⁰ (`npm run bench -- connection-join`), so it has a function of its own, of Lambda's
 * largest memory, while the tile passes keep theirs.
 */
export const JOIN_WORKER_MEMORY_MB = 10_240;
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
 * Map traces every tile (one Lambda invocation per tile), a join (in a function of its own) gives
 * every tile's rim its level over the whole model, a second Distributed Map settles every tile, and
 * the model's connection is marked ready. Any step that still fails after its retries marks the run
 * failed, with the error. Input: `{ run: { account_id, elevation_model_id, run_id, model_prefix,
 * sea_surface_navd88_m }, tiles_key, tile_count }`, the key of a JSON array of the tiles
 * (`[{ row, col, width, height }]`), started by the elevation model worker (`bindStarter`).
 */
export class ElevationTileFanOut extends Construct {
  readonly worker: AppFunction;
  readonly joinWorker: AppFunction;
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: ElevationTileFanOutProps) {
    super(scope, id);
    this.worker = new AppFunction(this, 'ElevationTileWorker', {
      name: 'elevation-tile-worker',
      description: 'One pass over one tile of a tiled elevation model (trace, settle) and the run\'s outcome',
      memorySize: TILE_WORKER_MEMORY_MB,
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

    // The join reads the run's tile list and the tiles' traces, and writes their rims: connection objects only.
    this.joinWorker = new AppFunction(this, 'ConnectionJoinWorker', {
      name: 'elevation-connection-join',
      description: 'The join of a tiled elevation model\'s tidal connection: every tile\'s rim levels over the whole model',
      memorySize: JOIN_WORKER_MEMORY_MB,
      timeout: Duration.minutes(15),
      config: props.config,
      entry: props.entry,
    });
    this.joinWorker.addEnvironment('BUCKET_NAME', bucket.bucketName);
    this.joinWorker.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    this.joinWorker.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [bucket.arnForObjects(connectionKeys)] }));
    Validations.of(this.joinWorker).acknowledge(
      { id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${connectionKeys}]`, reason: 'The join reads and writes only the connection objects of its model, created at run time beside the model\'s tiles.' },
    );

    const invoke = (stateId: string, payload: Record<string, unknown>) => workerInvoke(this, stateId, { worker: this.worker, payload, maxAttempts: TILE_RETRY_ATTEMPTS });
    const run = JsonPath.objectAt('$.run');
    // The tiles are read from the list the run's start wrote beside the model (`tiles_key`), not
    // from the input: a state's input is limited to 256 KiB, the list of a square model of 2 × 10¹⁰ cells takes 255 KiB.
    // The bucket is named rather than given, so that the machine may read that list alone (below).
    const tileList = () => new S3JsonItemReader({ bucketNamePath: bucket.bucketName, key: JsonPath.stringAt('$.tiles_key') });
    const perTile = (stateId: string, label: MapLabel, processor: IChainable) => perItemMap(this, stateId, {
      items: tileList(), itemName: 'tile', label, maxConcurrency: TILE_MAP_CONCURRENCY, processor,
    });
    const trace = perTile('TraceTiles', 'traceTiles', invoke('TraceTile', { step: 'trace', run, tile: JsonPath.objectAt('$.tile') }));
    const join = workerInvoke(this, 'JoinTiles', { worker: this.joinWorker, payload: { run }, maxAttempts: TILE_RETRY_ATTEMPTS });
    const settle = perTile('SettleTiles', 'settleTiles', invoke('SettleTile', { step: 'settle', run, tile: JsonPath.objectAt('$.tile') }));
    const finish = invoke('MarkConnectionReady', { step: 'finish', run, tile_count: JsonPath.numberAt('$.tile_count') });

    const markFailed = invoke('MarkConnectionFailed', { step: 'fail', run, failure: JsonPath.objectAt('$.failure') })
      .next(new Fail(this, 'ConnectionFailed', { error: 'TileFanOutFailed', cause: 'A tile pass or the join failed after its retries; the run is marked failed.' }));
    for (const state of [trace, join, settle, finish]) state.addCatch(markFailed, { errors: [Errors.ALL], resultPath: '$.failure' });

    this.stateMachine = fanOutStateMachine(this, {
      config: props.config,
      comment: 'Tidal connection of a tiled elevation model: per-tile passes fanned out over the tiles, joined at their rims',
      definition: trace.next(join).next(settle).next(finish).next(new Succeed(this, 'ConnectionReady')),
      // A run still pending past this is reported lost (shared/domain/elevation-models/connection.ts).
      timeout: Duration.millis(CONNECTION_RUN_LIMIT_MS),
      workers: [this.worker, this.joinWorker],
      mapLabels: MAP_LABELS,
    });
    const tileLists = `${ACCOUNT_MODELS_PREFIX}*/connection/tiles.json`;
    this.stateMachine.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects(tileLists)] }));
    Validations.of(this.stateMachine.role).acknowledge(
      { id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${tileLists}]`, reason: 'The maps read the tile list of the run\'s model, written at run time beside the model\'s tiles; no other object.' },
    );
  }

  /** Lets `fn` start runs: the machine's ARN in its environment, StartExecution on this machine alone. */
  bindStarter(fn: LambdaFunction): void {
    bindExecutionStarter(fn, this.stateMachine, 'CONNECTION_STATE_MACHINE_ARN');
  }
}
