import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { ElevationTileFanOut, JOIN_WORKER_MEMORY_MB, TILE_MAP_CONCURRENCY, TILE_RETRY_ATTEMPTS, TILE_WORKER_MEMORY_MB } from '../../lib/elevation-tile-fan-out';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';
import { definitionOf, fanOutEntry, policyReader, synthNagged, type Resources, type State } from '../helpers/fan-out-stack';
import { CONNECTION_RUN_LIMIT_MS } from '../../shared/domain/elevation-models/connection';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

const entry = fanOutEntry;

let stack: Stack;
let fanOut: ElevationTileFanOut;
let states: Record<string, State>;
let workerId: string;
let joinWorkerId: string;
let bucketId: string;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new Stack(app, 'Test');
  fanOut = new ElevationTileFanOut(stack, 'ElevationTiles', {
    config: STAGES.dev, bucket: new Bucket(stack, 'Data'), table: new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }), entry,
  });
  const definition = definitionOf(Template.fromStack(stack));
  states = definition.States;
  expect(definition.StartAt).toBe('TraceTiles');
  workerId = stack.getLogicalId(fanOut.worker.node.defaultChild as CfnElement);
  joinWorkerId = stack.getLogicalId(fanOut.joinWorker.node.defaultChild as CfnElement);
  bucketId = stack.getLogicalId(stack.node.findChild('Data').node.defaultChild as CfnElement);
});

const invokes = (state: State, id = workerId) => JSON.stringify(state.Parameters?.FunctionName ?? '').includes(id);

describe('the tile fan-out state machine', () => {
  it.each(['TraceTiles', 'SettleTiles'])('%s is a Distributed Map over the tiles listed in S3, one tile worker call per item, at a bounded concurrency', (name) => {
    const map = states[name]!;
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    // The run's tile list, read from the application's bucket at the key the input names: never the input itself.
    expect(map.ItemsPath).toBeUndefined();
    expect(map.ItemReader).toEqual({
      Resource: "arn:{'Ref':'AWS::Partition'}:states:::s3:getObject", ReaderConfig: { InputType: 'JSON' }, Parameters: { Bucket: `{'Ref':'${bucketId}'}`, 'Key.$': '$.tiles_key' },
    });
    expect(map.ItemSelector).toEqual({ 'run.$': '$.run', 'tile.$': '$$.Map.Item.Value' });
    expect(map.MaxConcurrency).toBe(TILE_MAP_CONCURRENCY);
    // No tolerated failures: one failed tile fails the map, and the catch marks the run failed.
    expect(map.ToleratedFailurePercentage).toBeUndefined();
    const inner = Object.values(map.ItemProcessor.States as Record<string, State>);
    expect(inner).toHaveLength(1);
    expect(inner[0]!.Resource).toMatch(/:states:::lambda:invoke$/);
    expect(invokes(inner[0]!)).toBe(true);
    expect(inner[0]!.Parameters.Payload.step).toBe(name === 'TraceTiles' ? 'trace' : 'settle');
  });

  it('retries a tile pass on throttles and Lambda service errors, backing off', () => {
    for (const name of ['TraceTiles', 'SettleTiles']) {
      const task = Object.values(states[name]!.ItemProcessor.States as Record<string, State>)[0]!;
      expect(task.Retry).toEqual([expect.objectContaining({
        ErrorEquals: expect.arrayContaining(['Lambda.TooManyRequestsException', 'Lambda.ServiceException', 'States.Timeout']),
        MaxAttempts: TILE_RETRY_ATTEMPTS, BackoffRate: 2,
      })]);
    }
    expect(states.JoinTiles!.Retry[0].MaxAttempts).toBe(TILE_RETRY_ATTEMPTS);
  });

  it('times a run out at the limit past which a reader is told the run was lost', () => {
    expect(definitionOf(Template.fromStack(stack)).TimeoutSeconds).toBe(CONNECTION_RUN_LIMIT_MS / 1000);
  });

  it('joins in the join function after the trace map and settles after the join, then marks the connection ready with the tile count', () => {
    expect(states.TraceTiles!.Next).toBe('JoinTiles');
    expect(invokes(states.JoinTiles!, joinWorkerId)).toBe(true);
    expect(invokes(states.JoinTiles!)).toBe(false);
    expect(states.JoinTiles!.Parameters.Payload).toEqual({ 'run.$': '$.run' });
    expect(states.JoinTiles!.Next).toBe('SettleTiles');
    expect(states.SettleTiles!.Next).toBe('MarkConnectionReady');
    expect(invokes(states.MarkConnectionReady!)).toBe(true);
    expect(states.MarkConnectionReady!.Parameters.Payload).toEqual({ step: 'finish', 'run.$': '$.run', 'tile_count.$': '$.tile_count' });
    expect(states.MarkConnectionReady!.Next).toBe('ConnectionReady');
    expect(states.ConnectionReady!.Type).toBe('Succeed');
  });

  it('catches any failure of a map, the join or the finish into a task that marks the run failed, then fails', () => {
    for (const name of ['TraceTiles', 'JoinTiles', 'SettleTiles', 'MarkConnectionReady']) {
      expect(states[name]!.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'MarkConnectionFailed' }]);
    }
    const markFailed = states.MarkConnectionFailed!;
    expect(invokes(markFailed)).toBe(true);
    expect(markFailed.Parameters.Payload).toEqual({ step: 'fail', 'run.$': '$.run', 'failure.$': '$.failure' });
    expect(states[markFailed.Next]!.Type).toBe('Fail');
  });

  it('lets the machine run the tile worker and the join, and the map start its own executions', () => {
    const template = Template.fromStack(stack);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).map((policy) => JSON.stringify(policy.Properties.PolicyDocument));
    expect(policies.some((doc) => doc.includes('lambda:InvokeFunction') && doc.includes(workerId) && doc.includes(joinWorkerId))).toBe(true);
    expect(policies.some((doc) => doc.includes('states:StartExecution'))).toBe(true);
  });

  it('gives the tile passes 3,008 MB and the join, which holds every tile\'s rim, Lambda\'s largest memory, each 15 minutes', () => {
    const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function');
    expect(functions[workerId]!.Properties).toMatchObject({ MemorySize: TILE_WORKER_MEMORY_MB, Timeout: 900 });
    expect(functions[joinWorkerId]!.Properties).toMatchObject({ MemorySize: JOIN_WORKER_MEMORY_MB, Timeout: 900 });
    expect([TILE_WORKER_MEMORY_MB, JOIN_WORKER_MEMORY_MB]).toEqual([3008, 10_240]);
  });
});


describe('the tile fan-out in the application stack', () => {
  let app: ComplianceApiStack;
  let resources: Resources;
  const { idOf, statementsOfRole, statementsOf, actionsOf } = policyReader(() => app, () => resources);

  beforeAll(() => {
    app = new ComplianceApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'FanOutTest', { config: STAGES.dev, entry });
    resources = Template.fromStack(app).toJSON().Resources;
  });

  it('is instantiated once, and the elevation model worker may start it and the processing machine, nothing else of Step Functions', () => {
    // Two machines: this one and the processing fan-out's (lib/elevation-processing-fan-out.ts).
    expect(Object.values(resources).filter((r) => r.Type === 'AWS::StepFunctions::StateMachine')).toHaveLength(2);
    const machine = { Ref: idOf(app.elevationTiles.stateMachine) };
    const worker = app.jobs.elevationModelWorker;
    expect(resources[idOf(worker)]!.Properties.Environment.Variables.CONNECTION_STATE_MACHINE_ARN).toEqual(machine);
    const states = statementsOf(worker).filter((statement) => actionsOf(statement).some((action) => action.startsWith('states:')));
    expect(states).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: machine },
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: idOf(app.elevationProcessing.stateMachine) } },
    ]);
  });

  it('limits the tile worker to reading model objects, writing their connection objects and recording the outcome', () => {
    const bucket = { 'Fn::GetAtt': [idOf(app.data.bucket), 'Arn'] };
    const objects = (suffix: string) => ({ 'Fn::Join': ['', [bucket, suffix]] });
    const statements = statementsOf(app.elevationTiles.worker);
    expect(statements).toEqual(expect.arrayContaining([
      { Action: 's3:ListBucket', Effect: 'Allow', Resource: bucket },
      { Action: 's3:GetObject', Effect: 'Allow', Resource: objects('/elevation-models/*') },
      { Action: 's3:PutObject', Effect: 'Allow', Resource: objects('/elevation-models/*/connection/*') },
      {
        Action: 'dynamodb:UpdateItem', Effect: 'Allow', Resource: { 'Fn::GetAtt': [idOf(app.data.table), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ACCOUNT#*'] } },
      },
    ]));
    // Nothing else but X-Ray (which has no resource-level permissions): no delete, no other prefix, queue or table.
    const others = statements.filter((statement) => !actionsOf(statement).every((action) => ['s3:ListBucket', 's3:GetObject', 's3:PutObject', 'dynamodb:UpdateItem'].includes(action)));
    expect(others.flatMap(actionsOf).sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });

  it('limits the join to reading and writing its model\'s connection objects', () => {
    const bucket = { 'Fn::GetAtt': [idOf(app.data.bucket), 'Arn'] };
    const statements = statementsOf(app.elevationTiles.joinWorker);
    expect(statements.filter((statement) => !actionsOf(statement).every((action) => action.startsWith('xray:')))).toEqual([
      { Action: 's3:ListBucket', Effect: 'Allow', Resource: bucket },
      { Action: ['s3:GetObject', 's3:PutObject'], Effect: 'Allow', Resource: { 'Fn::Join': ['', [bucket, '/elevation-models/*/connection/*']] } },
    ]);
  });

  it('lets the state machine invoke its two workers alone, read the runs\' tile lists alone, and describe or stop only its own child executions', () => {
    const roleId = idOf(app.elevationTiles.stateMachine.role);
    const statements = statementsOfRole(roleId);
    const invoke = statements.filter((statement) => actionsOf(statement).includes('lambda:InvokeFunction'));
    const arnOf = (fn: { node: { defaultChild?: unknown } }) => ({ 'Fn::GetAtt': [idOf(fn), 'Arn'] });
    const versions = (arn: unknown) => [arn, { 'Fn::Join': ['', [arn, ':*']] }];
    expect(invoke.map((statement) => statement.Resource)).toEqual(expect.arrayContaining([
      expect.arrayContaining(versions(arnOf(app.elevationTiles.worker))),
    ]));
    expect(invoke.flatMap((statement) => [statement.Resource].flat())).toEqual(expect.arrayContaining([
      ...versions(arnOf(app.elevationTiles.worker)), ...versions(arnOf(app.elevationTiles.joinWorker)),
    ]));
    expect(invoke.flatMap((statement) => [statement.Resource].flat())).toHaveLength(4);
    const reads = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));
    const bucket = { 'Fn::GetAtt': [idOf(app.data.bucket), 'Arn'] };
    expect(reads).toEqual([{ Action: 's3:GetObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', [bucket, '/elevation-models/*/connection/tiles.json']] } }]);
    const starts = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('states:')));
    expect(starts.find((statement) => actionsOf(statement).includes('states:StartExecution'))!.Resource).toEqual({ Ref: idOf(app.elevationTiles.stateMachine) });
    const children = starts.find((statement) => actionsOf(statement).includes('states:DescribeExecution'))!;
    expect(actionsOf(children).sort()).toEqual(['states:DescribeExecution', 'states:StopExecution']);
    const resourcesText = JSON.stringify(children.Resource);
    expect(resourcesText).toContain(':execution:');
    expect(resourcesText).toContain(idOf(app.elevationTiles.stateMachine));
    for (const statement of statements) {
      if (statement.Resource === '*') expect(actionsOf(statement).every((action) => action.startsWith('logs:') || action.startsWith('xray:'))).toBe(true);
    }
  });
});

describe('cdk-nag AwsSolutions on the tile fan-out', () => {
  it.each([
    ['no environment', undefined],
    ['an account and region set', { account: '123456789012', region: 'us-east-1' }],
  ])('reports no unacknowledged error with %s', (_name, env) => {
    expect(() => synthNagged(ElevationTileFanOut, 'ElevationTiles', env)).not.toThrow();
  });
});
