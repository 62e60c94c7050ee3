import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetAwsClients } from '../../shared/adapters/aws-clients';
import { tileWindows } from '../../shared/domain/hazards/tiled-connection';
import { StepFunctionsConnectionFanOut, StepFunctionsProcessingFanOut } from '../../shared/adapters/step-functions-fan-out';
import type { ProcessingRunStart } from '../../shared/application/elevation-models/processing-fan-out';
import { resetConfigForTests } from '../../shared/config';
import type { ConnectionRunStart } from '../../shared/application/elevation-models/model-connection';

/**
 * The AWS adapter of the fan-out against a loopback stand-in for the Step Functions endpoint: one
 * StartExecution of the configured machine, named after the run, with the run and its tiles as input.
 */
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:ElevationTiles';
let server: Server;
let calls: { target: string | undefined; body: any }[];
let answer: { status: number; body: object };
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => { text += chunk; });
    request.on('end', () => {
      calls.push({ target: request.headers['x-amz-target'] as string | undefined, body: JSON.parse(text) });
      response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SFN: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1',
  });
  resetAwsClients();
});
afterAll(async () => {
  process.env = saved;
  resetAwsClients();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  calls = [];
  answer = { status: 200, body: { executionArn: `${MACHINE.replace('stateMachine', 'execution')}:conn_1`, startDate: 1795940000 } };
});

const start: ConnectionRunStart = {
  run: { account_id: 'acct_test', elevation_model_id: `em_${'a'.repeat(32)}`, run_id: 'conn_1', model_prefix: 'elevation-models/acct_test/em_a/', sea_surface_navd88_m: 0 },
  tiles: [{ row: 0, col: 0, width: 2048, height: 2048 }, { row: 0, col: 2048, width: 100, height: 2048 }],
};

describe('the Step Functions fan-out', () => {
  it('starts one execution of the machine, named after the run, with the run, where its tiles are listed and their count as the input', async () => {
    await new StepFunctionsConnectionFanOut(MACHINE).start(start);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.target).toBe('AWSStepFunctions.StartExecution');
    expect(calls[0]!.body).toEqual({ stateMachineArn: MACHINE, name: 'conn_1', input: expect.any(String) });
    expect(JSON.parse(calls[0]!.body.input)).toEqual({ run: start.run, tiles_key: 'elevation-models/acct_test/em_a/connection/tiles.json', tile_count: 2 });
  });

  it('keeps the input of a 2 × 10¹⁰-cell model\'s run small: its 4,900 tiles are not in it', async () => {
    // 141,422 cells a side at 1 m: 2 × 10¹⁰ cells, 70 × 70 tiles of 2,048.
    const tiles = tileWindows(141_422, 141_422, 2048);
    expect(tiles).toHaveLength(4900);
    await new StepFunctionsConnectionFanOut(MACHINE).start({ ...start, tiles });
    // The list alone is 255 KiB: with the run, at a state's 256 KiB limit (more tiles in any other shape).
    expect(JSON.stringify({ run: start.run, tiles }).length).toBeGreaterThan(255 * 1024);
    expect(calls[0]!.body.input.length).toBeLessThan(1024);
    expect(JSON.parse(calls[0]!.body.input).tile_count).toBe(4900);
  });

  it('fails the start when Step Functions refuses it, so the run is recorded failed', async () => {
    answer = { status: 400, body: { __type: 'com.amazonaws.swf.service.v2.model#StateMachineDoesNotExist', message: 'State Machine Does Not Exist' } };
    await expect(new StepFunctionsConnectionFanOut(MACHINE).start(start)).rejects.toThrow(/State Machine Does Not Exist/);
  });

  it('needs the machine\'s ARN from the environment the stack sets, and fails only the start without it', async () => {
    delete process.env.CONNECTION_STATE_MACHINE_ARN;
    const fanOut = new StepFunctionsConnectionFanOut();
    await expect(fanOut.start(start)).rejects.toThrow('Missing required environment variable CONNECTION_STATE_MACHINE_ARN');
    expect(calls).toHaveLength(0);
  });

  it('starts a model\'s processing on the machine the stack names, named after the run, with the run and its batches as the input', async () => {
    const processing = { run: { ...start.run, run_id: 'proc_1' } as unknown as ProcessingRunStart['run'], batches: [{ first: 0, count: 4 }, { first: 4, count: 1 }] };
    const PROCESSING = MACHINE.replace('ElevationTiles', 'ElevationProcessing');
    process.env.PROCESSING_STATE_MACHINE_ARN = PROCESSING;
    resetConfigForTests();
    await new StepFunctionsProcessingFanOut().start(processing);
    expect(calls.map((call) => call.body)).toEqual([{ stateMachineArn: PROCESSING, name: 'proc_1', input: JSON.stringify(processing) }]);
    expect(new StepFunctionsProcessingFanOut().leaseMs).toBe(130 * 60_000);
    delete process.env.PROCESSING_STATE_MACHINE_ARN;
    resetConfigForTests();
    await expect(new StepFunctionsProcessingFanOut().start(processing)).rejects.toThrow('Missing required environment variable PROCESSING_STATE_MACHINE_ARN');
    expect(calls).toHaveLength(1);
  });
});
