import type * as SFN from '@aws-sdk/client-sfn';
import { sfn } from './aws-clients';
import { commandOnFirstUse } from './sdk-commands';
import { requiredSetting } from '../config';
import type { ConnectionFanOut, ConnectionRunStart, ModelConnectionRun } from '../application/elevation-models/model-connection';
import { connectionKeys } from './elevation/processed-keys';
import type { ProcessingFanOut, ProcessingRunStart } from '../application/elevation-models/processing-fan-out';
import { CONNECTION_LEASE_MS } from '../domain/elevation-models/connection';
import { PROCESSING_FAN_OUT_LEASE_MS } from '../domain/elevation-models/processing-job';

const client = () => require('@aws-sdk/client-sfn') as typeof SFN;
const StartExecutionCommand = commandOnFirstUse(client, 'StartExecutionCommand');

/**
 * An execution named after the run: a repeated start of the same run is the same execution, not a
 * second one. The machine's ARN is the one given, else the one the stack sets, read at each start.
 */
async function startRun(stateMachineArn: string, runId: string, input: unknown): Promise<void> {
  await sfn().send(new StartExecutionCommand({ stateMachineArn, name: runId, input: JSON.stringify(input) }));
}

/**
 * The input of a connection run's execution: its tiles are not in it (a state's input is limited to
 * 256 KiB) but where the run's start listed them, which the machine's maps read as their items.
 */
export interface ConnectionExecutionInput {
  run: ModelConnectionRun;
  tiles_key: string;
  tile_count: number;
}

export function connectionExecutionInput({ run, tiles }: ConnectionRunStart): ConnectionExecutionInput {
  return { run, tiles_key: connectionKeys(run.model_prefix).tiles, tile_count: tiles.length };
}

/** The connection run as an execution of the tile fan-out state machine (lib/elevation-tile-fan-out.ts). */
export class StepFunctionsConnectionFanOut implements ConnectionFanOut {
  readonly leaseMs = CONNECTION_LEASE_MS;

  /** Without an ARN a start fails (recorded on the model), the processing does not. */
  constructor(private readonly stateMachineArn?: string) {}

  async start(start: ConnectionRunStart): Promise<void> {
    await startRun(this.stateMachineArn ?? requiredSetting('CONNECTION_STATE_MACHINE_ARN'), start.run.run_id, connectionExecutionInput(start));
  }
}

/** A model's processing in batches of windows as an execution of the processing fan-out state machine (lib/elevation-processing-fan-out.ts). */
export class StepFunctionsProcessingFanOut implements ProcessingFanOut {
  readonly leaseMs = PROCESSING_FAN_OUT_LEASE_MS;

  constructor(private readonly stateMachineArn?: string) {}

  async start({ run, batches }: ProcessingRunStart): Promise<void> {
    await startRun(this.stateMachineArn ?? requiredSetting('PROCESSING_STATE_MACHINE_ARN'), run.run_id, { run, batches });
  }
}
