import { Duration, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import {
  DefinitionBody, DistributedMap, Errors, JsonPath, LogLevel, StateMachine, StateMachineType, TaskInput, type IChainable, type IItemReader,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import type { StageConfig } from './stage-config';

/**
 * What the application's fan-out state machines share (lib/elevation-tile-fan-out.ts,
 * lib/elevation-processing-fan-out.ts): every state invokes a worker function, Distributed Maps
 * hand each item of the run to it alongside the run, and the machine logs and traces its executions.
 */

/** Errors that say nothing of the work itself: the Lambda service's, a throttle, a timed-out invocation. */
const TRANSIENT_INVOKE_ERRORS = [
  'Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException', Errors.TIMEOUT,
];

export interface WorkerInvokeProps {
  worker: LambdaFunction;
  payload: Record<string, unknown>;
  /** Attempts after the first on a transient error, 2 s apart and doubling. */
  maxAttempts: number;
}

/** A state invoking the worker; its result is dropped, as the worker stores what it makes. */
export function workerInvoke(scope: Construct, stateId: string, { worker, payload, maxAttempts }: WorkerInvokeProps): LambdaInvoke {
  const task = new LambdaInvoke(scope, stateId, {
    lambdaFunction: worker,
    payload: TaskInput.fromObject(payload),
    resultPath: JsonPath.DISCARD,
    // The retry below replaces the CDK's default one, which leaves throttles and timeouts out.
    retryOnServiceExceptions: false,
  });
  task.addRetry({ errors: TRANSIENT_INVOKE_ERRORS, interval: Duration.seconds(2), backoffRate: 2, maxAttempts });
  return task;
}

export interface PerItemMapProps {
  /** The array of the state's input, e.g. `$.batches`, or a reader of the items from S3 (a list too long for a state's input). */
  items: string | IItemReader;
  /** Under which name `processor` finds its item, beside `run`. */
  itemName: string;
  /** Names the map's child executions; listed again in `FanOutStateMachineProps.mapLabels`. */
  label: string;
  maxConcurrency: number;
  processor: IChainable;
}

/**
 * A Distributed Map running `processor` on `{ run, <itemName>: item }` for every item, its results
 * dropped. No failure is tolerated: one failed item fails the map, for its catch to handle.
 */
export function perItemMap(scope: Construct, stateId: string, { items, itemName, label, maxConcurrency, processor }: PerItemMapProps): DistributedMap {
  const map = new DistributedMap(scope, stateId, {
    ...(typeof items === 'string' ? { itemsPath: JsonPath.stringAt(items) } : { itemReader: items }),
    itemSelector: { run: JsonPath.objectAt('$.run'), [itemName]: JsonPath.objectAt('$$.Map.Item.Value') },
    maxConcurrency,
    resultPath: JsonPath.DISCARD,
    label,
    // Standard child executions: an item's invocation may take longer than an Express execution's 5 minutes.
    mapExecutionType: StateMachineType.STANDARD,
  });
  map.itemProcessor(processor);
  return map;
}

export interface FanOutStateMachineProps {
  config: StageConfig;
  comment: string;
  definition: IChainable;
  timeout: Duration;
  /** The functions the states invoke. */
  workers: readonly LambdaFunction[];
  /** The labels of the definition's Distributed Maps. */
  mapLabels: readonly string[];
}

/**
 * The state machine `StateMachine` of `scope`: traced, its execution history (without inputs and
 * outputs) in the log group `StateMachineLogs`, the cdk-nag findings of its role acknowledged.
 */
export function fanOutStateMachine(scope: Construct, props: FanOutStateMachineProps): StateMachine {
  const stateMachine = new StateMachine(scope, 'StateMachine', {
    comment: props.comment,
    definitionBody: DefinitionBody.fromChainable(props.definition),
    timeout: props.timeout,
    tracingEnabled: true,
    logs: {
      destination: new LogGroup(scope, 'StateMachineLogs', { retention: props.config.logRetention, removalPolicy: props.config.removalPolicy }),
      level: LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeRoleFindings(stateMachine, props.workers, props.mapLabels);
  return stateMachine;
}

function acknowledgeRoleFindings(stateMachine: StateMachine, workers: readonly LambdaFunction[], mapLabels: readonly string[]): void {
  const stack = Stack.of(stateMachine);
  Validations.of(stateMachine.role).acknowledge(
    ...workers.map((worker) => ({
      id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(worker.node.defaultChild as CfnElement)}.Arn>:*]`,
      reason: 'Invoking a worker covers its versions and aliases (the grant CDK makes for a Lambda task); no other function.',
    })),
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing and the CloudWatch Logs delivery actions of a state machine do not support resource-level permissions.',
    },
  );
  // The Distributed Maps' child executions are named by Step Functions at run time: this machine's own, one map label each.
  const machineId = stack.getLogicalId(stateMachine.node.defaultChild as CfnElement);
  // As cdk-nag prints the ARN: a pseudo parameter where the stack leaves it unresolved, the value where the environment is set.
  const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  const executions = `arn:${known(stack.partition, 'Partition')}:states:${known(stack.region, 'Region')}:${known(stack.account, 'AccountId')}:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${machineId}"}]}]}`;
  Validations.of(stateMachine.node.findChild('DistributedMapPolicy')).acknowledge(
    ...['', ...mapLabels.map((label) => `/${label}`)].map((child) => ({
      id: `AwsSolutions-IAM5[Resource::${executions}${child}:*]`,
      reason: 'Describing and stopping the child executions a Distributed Map starts, whose names Step Functions chooses: executions of this state machine only, as AWS documents for Distributed Map.',
    })),
  );
}

/** Lets `fn` start runs: the machine's ARN in its environment variable `setting`, StartExecution on this machine alone. */
export function bindExecutionStarter(fn: LambdaFunction, stateMachine: StateMachine, setting: string): void {
  fn.addEnvironment(setting, stateMachine.stateMachineArn);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachine.stateMachineArn] }));
}
