import { existsSync } from 'node:fs';
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { handlerEntry, type EntryResolver } from '../../lib/app-function';
import { ElevationTileFanOut, TILE_MAP_CONCURRENCY, TILE_RETRY_ATTEMPTS } from '../../lib/elevation-tile-fan-out';
import { STAGES } from '../../lib/stage-config';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

/** Bundling skipped; a function whose handler is not written yet points at an existing one. */
const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

type State = Record<string, any>;
let stack: Stack;
let fanOut: ElevationTileFanOut;
let states: Record<string, State>;
let workerId: string;

/** The definition with its `Fn::Join` pieces put back together (function ARNs kept as their references). */
function definitionOf(template: Template): { States: Record<string, State>; StartAt: string } {
  const machines = template.findResources('AWS::StepFunctions::StateMachine');
  expect(Object.keys(machines)).toHaveLength(1);
  const body = Object.values(machines)[0]!.Properties.DefinitionString;
  const text = (body['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : JSON.stringify(part).replace(/"/g, "'"))).join('');
  return JSON.parse(text);
}

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new Stack(app, 'Test');
  fanOut = new ElevationTileFanOut(stack, 'ElevationTiles', { config: STAGES.dev, bucket: new Bucket(stack, 'Data'), entry });
  const definition = definitionOf(Template.fromStack(stack));
  states = definition.States;
  expect(definition.StartAt).toBe('TraceTiles');
  workerId = stack.getLogicalId(fanOut.worker.node.defaultChild as CfnElement);
});

const invokes = (state: State) => JSON.stringify(state.Parameters?.FunctionName ?? '').includes(workerId);

describe('the tile fan-out state machine', () => {
  it.each(['TraceTiles', 'SettleTiles'])('%s is a Distributed Map over the tiles, one tile worker call per item, at a bounded concurrency', (name) => {
    const map = states[name]!;
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    expect(map.ItemsPath).toBe('$.tiles');
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

  it('joins after the trace map and settles after the join, then marks the connection ready', () => {
    expect(states.TraceTiles!.Next).toBe('JoinTiles');
    expect(states.JoinTiles!.Parameters.Payload.step).toBe('join');
    expect(states.JoinTiles!.Next).toBe('SettleTiles');
    expect(states.SettleTiles!.Next).toBe('MarkConnectionReady');
    expect(states.MarkConnectionReady!.Parameters.Payload.step).toBe('finish');
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

  it('lets the machine run the tile worker and the map start its own executions', () => {
    const template = Template.fromStack(stack);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).map((policy) => JSON.stringify(policy.Properties.PolicyDocument));
    expect(policies.some((doc) => doc.includes('lambda:InvokeFunction') && doc.includes(workerId))).toBe(true);
    expect(policies.some((doc) => doc.includes('states:StartExecution'))).toBe(true);
  });
});
