import type { ConnectionOutcome, ConnectionRecords } from '../../shared/application/elevation-models/model-connection';
import type { ModelConnection } from '../../shared/domain/elevation-models/connection';

/** Models' connection states in memory, with the store's conditions: a run starts on a ready model, only its own outcome lands. */
export class MemoryConnectionRecords implements ConnectionRecords {
  readonly connections = new Map<string, ModelConnection>();
  constructor(private readonly readyModels: readonly string[]) {}
  async startConnection(_account: string, id: string, connection: ModelConnection) {
    if (!this.readyModels.includes(id)) return false;
    this.connections.set(id, connection);
    return true;
  }
  async endConnection(_account: string, id: string, runId: string, outcome: ConnectionOutcome) {
    const connection = this.connections.get(id);
    if (connection?.run_id !== runId) return false;
    this.connections.set(id, { ...connection, ...outcome });
    return true;
  }
}
