import type * as SFN from '@aws-sdk/client-sfn';
import { sfn } from './aws-clients';
import { commandOnFirstUse } from './sdk-commands';
import { requiredSetting } from '../config';
import type { ConnectionFanOut, ConnectionRunStart } from '../application/elevation-models/model-connection';
import { CONNECTION_LEASE_MS } from '../domain/elevation-models/connection';

const client = () => require('@aws-sdk/client-sfn') as typeof SFN;
const StartExecutionCommand = commandOnFirstUse(client, 'StartExecutionCommand');

/**
 * The connection run as an execution of the tile fan-out state machine (lib/elevation-tile-fan-out.ts),
 * named after the run: a repeated start of the same run is the same execution, not a second one.
 */
export class StepFunctionsConnectionFanOut implements ConnectionFanOut {
  readonly leaseMs = CONNECTION_LEASE_MS;

  /** The machine's ARN, else the one the stack sets, read at each start: without it a start fails (recorded on the model), the processing does not. */
  constructor(private readonly stateMachineArn?: string) {}

  async start({ run, tiles }: ConnectionRunStart): Promise<void> {
    const stateMachineArn = this.stateMachineArn ?? requiredSetting('CONNECTION_STATE_MACHINE_ARN');
    await sfn().send(new StartExecutionCommand({ stateMachineArn, name: run.run_id, input: JSON.stringify({ run, tiles }) }));
  }
}
