import type { ConnectionOutcome, ConnectionRecords } from '../../shared/application/elevation-models/model-connection';
import type { ModelConnection } from '../../shared/domain/elevation-models/connection';
import type { JobLease, LeaseHolder } from '../../shared/domain/job-lease';

/** A run as started at 21:00 on 2026-11-23, leased to it for an hour (attempt `attempt`). */
export const pendingRun = (runId: string, tiles: number, attempt = 1): ModelConnection => ({
  status: 'pending', tiles, run_id: runId, started_at: '2026-11-23T21:00:00.000Z', finished_at: null, error: null,
  lease: { owner: runId, expires_at: '2026-11-23T22:00:00.000Z', attempt },
});

/**
 * Models' connection states in memory, with the store's conditions: a run starts on a ready model;
 * only the pending run its holder holds (its own id, or the lapsed lease a sweep saw) is renewed,
 * replaced or ended.
 */
export class MemoryConnectionRecords implements ConnectionRecords {
  readonly connections = new Map<string, ModelConnection>();
  /** Every renewal that landed, in order. */
  readonly renewals: { runId: string; expiresAt: string }[] = [];
  constructor(private readonly readyModels: readonly string[]) {}

  private held(id: string, holder: LeaseHolder): ModelConnection | undefined {
    const connection = this.connections.get(id);
    if (connection?.status !== 'pending' || !connection.lease) return undefined;
    const holds = 'owner' in holder ? connection.lease.owner === holder.owner : connection.lease.expires_at === holder.seen.expires_at;
    return holds ? connection : undefined;
  }

  async startConnection(_account: string, id: string, connection: ModelConnection) {
    if (!this.readyModels.includes(id)) return false;
    this.connections.set(id, connection);
    return true;
  }

  async restartConnection(_account: string, id: string, seen: JobLease, connection: ModelConnection) {
    if (!this.held(id, { seen })) return false;
    this.connections.set(id, connection);
    return true;
  }

  async renewConnection(_account: string, id: string, runId: string, expiresAt: string) {
    const connection = this.held(id, { owner: runId });
    if (!connection) return false;
    this.connections.set(id, { ...connection, lease: { ...connection.lease!, expires_at: expiresAt } });
    this.renewals.push({ runId, expiresAt });
    return true;
  }

  async endConnection(_account: string, id: string, holder: LeaseHolder, outcome: ConnectionOutcome) {
    const connection = this.held(id, holder);
    if (!connection) return false;
    this.connections.set(id, { ...connection, ...outcome, lease: null });
    return true;
  }
}
