import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import {
  ElevationProcessingFanOut, UPLOAD_READ_RETRY_ATTEMPTS, WINDOW_MAP_CONCURRENCY, WINDOW_RETRY_ATTEMPTS,
} from '../../lib/elevation-processing-fan-out';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';
import { definitionOf, fanOutEntry, policyReader, synthNagged, type Definition, type Resources, type State } from '../helpers/fan-out-stack';
import { PROCESSING_RUN_LIMIT_MS } from '../../shared/domain/elevation-models/processing-job';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

const entry = fanOutEntry;

let stack: Stack;
let fanOut: ElevationProcessingFanOut;
let definition: Definition;
let states: Record<string, State>;
let workerId: string;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new Stack(app, 'Test');
  fanOut = new ElevationProcessingFanOut(stack, 'ElevationProcessing', {
    config: STAGES.dev, bucket: new Bucket(stack, 'Data'), table: new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }), entry,
  });
  definition = definitionOf(Template.fromStack(stack));
  states = definition.States;
  workerId = stack.getLogicalId(fanOut.worker.node.defaultChild as CfnElement);
});

const invokes = (state: State) => JSON.stringify(state.Parameters?.FunctionName ?? '').includes(workerId);
const batchTask = () => Object.values(states.ProcessWindows!.ItemProcessor.States as Record<string, State>)[0]!;
const throttleRetry = expect.objectContaining({
  ErrorEquals: expect.arrayContaining(['Lambda.TooManyRequestsException', 'Lambda.ServiceException', 'States.Timeout']),
  IntervalSeconds: 2, BackoffRate: 2, MaxAttempts: WINDOW_RETRY_ATTEMPTS,
});

describe('the processing fan-out state machine', () => {
  it('starts with a Distributed Map over the batches, one window worker call per batch, at a bounded concurrency', () => {
    expect(definition.StartAt).toBe('ProcessWindows');
    const map = states.ProcessWindows!;
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    expect(map.ItemsPath).toBe('$.batches');
    expect(map.ItemSelector).toEqual({ 'run.$': '$.run', 'batch.$': '$$.Map.Item.Value' });
    expect(map.MaxConcurrency).toBe(WINDOW_MAP_CONCURRENCY);
    expect(map.Label).toBe('processWindows');
    // No tolerated failures: one failed batch fails the map, and the catch marks the run failed.
    expect(map.ToleratedFailurePercentage).toBeUndefined();
    expect(Object.keys(map.ItemProcessor.States)).toHaveLength(1);
    const task = batchTask();
    expect(task.Resource).toMatch(/:states:::lambda:invoke$/);
    expect(invokes(task)).toBe(true);
    expect(task.Parameters.Payload).toEqual({ step: 'batch', 'run.$': '$.run', 'batch.$': '$.batch' });
  });

  it('retries a batch on throttles and Lambda service errors, and an upload S3 failed to serve a little later', () => {
    expect(batchTask().Retry).toEqual([
      throttleRetry,
      { ErrorEquals: ['UploadReadError'], IntervalSeconds: 5, BackoffRate: 2, MaxAttempts: UPLOAD_READ_RETRY_ATTEMPTS },
    ]);
    // The join and the failure's record read no upload a retry would help with.
    for (const name of ['JoinWindows', 'MarkProcessingFailed']) expect(states[name]!.Retry).toEqual([throttleRetry]);
  });

  it('joins the batches after the map, then succeeds', () => {
    expect(states.ProcessWindows!.Next).toBe('JoinWindows');
    const join = states.JoinWindows!;
    expect(invokes(join)).toBe(true);
    expect(join.Parameters.Payload).toEqual({ step: 'join', 'run.$': '$.run', 'batches.$': '$.batches' });
    expect(join.Next).toBe('ModelProcessed');
    expect(states.ModelProcessed!.Type).toBe('Succeed');
  });

  it('catches any failure of the map or the join into a task that marks the run failed, then fails', () => {
    for (const name of ['ProcessWindows', 'JoinWindows']) {
      expect(states[name]!.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'MarkProcessingFailed' }]);
    }
    const markFailed = states.MarkProcessingFailed!;
    expect(invokes(markFailed)).toBe(true);
    expect(markFailed.Parameters.Payload).toEqual({ step: 'fail', 'run.$': '$.run', 'batches.$': '$.batches', 'failure.$': '$.failure' });
    expect(markFailed.Next).toBe('ProcessingFailed');
    expect(states.ProcessingFailed!.Type).toBe('Fail');
  });

  it('times a run out at the processing run limit, within the lease of the model', () => {
    expect(definition.TimeoutSeconds).toBe(PROCESSING_RUN_LIMIT_MS / 1000);
  });

  it('traces its executions and logs their history without their data', () => {
    Template.fromStack(stack).hasResourceProperties('AWS::StepFunctions::StateMachine', {
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false },
    });
  });
});


describe('the processing fan-out in the application stack', () => {
  let app: ComplianceApiStack;
  let resources: Resources;
  const { idOf, statementsOfRole, statementsOf, actionsOf } = policyReader(() => app, () => resources);
  const stepFunctionsStatements = (fn: { role?: unknown }) => statementsOf(fn).filter((statement) => actionsOf(statement).some((action) => action.startsWith('states:')));
  const variablesOf = (fn: { node: { defaultChild?: unknown } }) => resources[idOf(fn)]!.Properties.Environment.Variables;
  const startExecution = (machine: { node: { defaultChild?: unknown } }) => ({ Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: idOf(machine) } });

  beforeAll(() => {
    app = new ComplianceApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'FanOutTest', { config: STAGES.dev, entry });
    resources = Template.fromStack(app).toJSON().Resources;
  });

  it('may be started by the elevation model worker, which may start the connection machine too and nothing else of Step Functions', () => {
    const worker = app.jobs.elevationModelWorker;
    expect(variablesOf(worker).PROCESSING_STATE_MACHINE_ARN).toEqual({ Ref: idOf(app.elevationProcessing.stateMachine) });
    expect(stepFunctionsStatements(worker)).toEqual([startExecution(app.elevationTiles.stateMachine), startExecution(app.elevationProcessing.stateMachine)]);
  });

  it('lets the window worker start the connection run of the model its join turns ready, and no other execution', () => {
    const worker = app.elevationProcessing.worker;
    expect(variablesOf(worker).CONNECTION_STATE_MACHINE_ARN).toEqual({ Ref: idOf(app.elevationTiles.stateMachine) });
    expect(variablesOf(worker).PROCESSING_STATE_MACHINE_ARN).toBeUndefined();
    expect(stepFunctionsStatements(worker)).toEqual([startExecution(app.elevationTiles.stateMachine)]);
  });

  it('limits the window worker\'s objects to the uploads and the models, and deletes nothing elsewhere', () => {
    const bucket = { 'Fn::GetAtt': [idOf(app.data.bucket), 'Arn'] };
    const objects = (prefix: string) => ({ 'Fn::Join': ['', [bucket, `/${prefix}*`]] });
    const s3 = statementsOf(app.elevationProcessing.worker).filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));
    expect(s3).toEqual([
      { Action: 's3:ListBucket', Effect: 'Allow', Resource: bucket },
      {
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'], Effect: 'Allow',
        Resource: [objects('elevation-uploads/'), objects('elevation-models/')],
      },
    ]);
  });

  it('lets the window worker read and write the table, and nothing else but X-Ray and the connection start', () => {
    const table = { 'Fn::GetAtt': [idOf(app.data.table), 'Arn'] };
    const statements = statementsOf(app.elevationProcessing.worker);
    const dynamo = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')));
    expect(dynamo.find((statement) => actionsOf(statement).includes('dynamodb:PutItem'))!.Resource).toEqual(table);
    const services = new Set(statements.flatMap(actionsOf).map((action) => action.split(':')[0]));
    expect([...services].sort()).toEqual(['dynamodb', 's3', 'states', 'xray']);
  });

  it('lets the state machine invoke the window worker alone, and describe or stop only its own child executions', () => {
    const machine = app.elevationProcessing.stateMachine;
    const statements = statementsOfRole(idOf(machine.role));
    const invoke = statements.filter((statement) => actionsOf(statement).includes('lambda:InvokeFunction'));
    const workerArn = { 'Fn::GetAtt': [idOf(app.elevationProcessing.worker), 'Arn'] };
    expect(invoke).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: [workerArn, { 'Fn::Join': ['', [workerArn, ':*']] }] }]);
    const children = statements.find((statement) => actionsOf(statement).includes('states:DescribeExecution'))!;
    expect(JSON.stringify(children.Resource)).toContain(idOf(machine));
    for (const statement of statements) {
      if (statement.Resource === '*') expect(actionsOf(statement).every((action) => action.startsWith('logs:') || action.startsWith('xray:'))).toBe(true);
    }
  });
});

describe('cdk-nag AwsSolutions on the processing fan-out', () => {
  it.each([
    ['no environment', undefined],
    ['an account and region set', { account: '123456789012', region: 'us-east-1' }],
  ])('reports no unacknowledged error with %s', (_name, env) => {
    expect(() => synthNagged(ElevationProcessingFanOut, 'ElevationProcessing', env)).not.toThrow();
  });
});
