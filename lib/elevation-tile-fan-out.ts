import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import {
  DefinitionBody, DistributedMap, Errors, Fail, JsonPath, LogLevel, ProcessorMode, ProcessorType, StateMachine, Succeed, TaskInput,
  type IChainable,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ACCOUNT_MODELS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import { AppFunction, type EntryResolver } from './app-function';
import { bindBucket } from './bindings';
import type { StageConfig } from './stage-config';

/** Tiles processed at once: each a Lambda of up to 3 GB; a county's lidar is a few hundred tiles. */
export const TILE_MAP_CONCURRENCY = 40;
/** Attempts after the first of a tile's pass on a throttle or a Lambda service error. */
export const TILE_RETRY_ATTEMPTS = 3;

export interface ElevationTileFanOutProps {
  config: StageConfig;
  bucket: IBucket;
  entry?: EntryResolver;
}

/**
 * The per-tile passes of a tiled elevation model as a Step Functions state machine: a Distributed
 * Map traces every tile (one Lambda invocation per tile), a join gives every tile's rim its level
 * over the whole model, a second Distributed Map settles every tile, and the model's connection is
 * marked ready. Any step that still fails after its retries marks the run failed, with the error.
 * Input: `{ run: { model_prefix, sea_surface_navd88_m }, tiles: [{ row, col, width, height }] }`.
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
    // Reads the model's tiles and writes its connection objects beside them.
    bindBucket(this.worker, props.bucket, 'readWrite', [ACCOUNT_MODELS_PREFIX]);

    const invoke = (stateId: string, payload: Record<string, unknown>) => {
      const task = new LambdaInvoke(this, stateId, {
        lambdaFunction: this.worker,
        payload: TaskInput.fromObject(payload),
        resultPath: JsonPath.DISCARD,
        retryOnServiceExceptions: false,
      });
      task.addRetry({
        errors: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException', Errors.TIMEOUT],
        interval: Duration.seconds(2), backoffRate: 2, maxAttempts: TILE_RETRY_ATTEMPTS,
      });
      return task;
    };
    const run = JsonPath.objectAt('$.run');
    const perTile = (stateId: string, step: 'trace' | 'settle', processor: IChainable) => {
      const map = new DistributedMap(this, stateId, {
        itemsPath: JsonPath.stringAt('$.tiles'),
        itemSelector: { run: JsonPath.objectAt('$.run'), tile: JsonPath.objectAt('$$.Map.Item.Value') },
        maxConcurrency: TILE_MAP_CONCURRENCY,
        resultPath: JsonPath.DISCARD,
        label: `${step}Tiles`,
      });
      // Standard child executions: a tile's pass may take longer than an Express execution's 5 minutes.
      map.itemProcessor(processor, { mode: ProcessorMode.DISTRIBUTED, executionType: ProcessorType.STANDARD });
      return map;
    };
    const trace = perTile('TraceTiles', 'trace', invoke('TraceTile', { step: 'trace', run, tile: JsonPath.objectAt('$.tile') }));
    const join = invoke('JoinTiles', { step: 'join', run, tiles: JsonPath.objectAt('$.tiles') });
    const settle = perTile('SettleTiles', 'settle', invoke('SettleTile', { step: 'settle', run, tile: JsonPath.objectAt('$.tile') }));
    const finish = invoke('MarkConnectionReady', { step: 'finish', run, tiles: JsonPath.objectAt('$.tiles') });

    const markFailed = invoke('MarkConnectionFailed', { step: 'fail', run, failure: JsonPath.objectAt('$.failure') })
      .next(new Fail(this, 'ConnectionFailed', { error: 'TileFanOutFailed', cause: 'A tile pass or the join failed after its retries; the run is marked failed.' }));
    for (const state of [trace, join, settle, finish]) state.addCatch(markFailed, { errors: [Errors.ALL], resultPath: '$.failure' });

    this.stateMachine = new StateMachine(this, 'StateMachine', {
      comment: 'Tidal connection of a tiled elevation model: per-tile passes fanned out over the tiles, joined at their rims',
      definitionBody: DefinitionBody.fromChainable(trace.next(join).next(settle).next(finish).next(new Succeed(this, 'ConnectionReady'))),
      timeout: Duration.hours(6),
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'StateMachineLogs', { retention: props.config.logRetention, removalPolicy: props.config.removalPolicy }),
        level: LogLevel.ALL,
        includeExecutionData: false,
      },
    });
    this.worker.grantInvoke(this.stateMachine);
    const workerId = Stack.of(this).getLogicalId(this.worker.node.defaultChild as CfnElement);
    Validations.of(this.stateMachine.role).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::<${workerId}.Arn>:*]`,
        reason: 'Invoking the tile worker covers its versions and aliases (the grant CDK makes for a Lambda task); no other function.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing and the CloudWatch Logs delivery actions of a state machine do not support resource-level permissions.',
      },
    );
  }
}
