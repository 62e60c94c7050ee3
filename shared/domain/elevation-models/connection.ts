import type { JobFailure as ModelFailure } from '../job-failure';
import { leaseExpired, type JobLease } from '../job-lease';

/**
 * The tidal connection of an uploaded model: once the model is `ready`, every cell's spill level
 * over the whole model is traced tile by tile (a Step Functions Distributed Map in AWS, a pool of
 * worker threads locally) and cached beside its tiles. The model records the run's state.
 */
export const CONNECTION_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ConnectionState = typeof CONNECTION_STATUSES[number];

/** Why a connection run ended `failed`, in `error.code`. */
export const CONNECTION_ERRORS = ['tile_pass_failed', 'connection_not_started', 'connection_lost', 'connection_too_large'] as const;

/** Level 0 is traced in windows of at most this many cells a side (4 M cells: about 70 MB of arrays a tile). */
export const CONNECTION_TILE_SIDE = 2048;

/**
 * Tiles with data whose rims one join holds: it runs in a function of 10,240 MB, Lambda's largest,
 * and peaks at about 1.4 MB a tile (bench/connection-join.bench.ts). A model with data in more is
 * not traced (`connection_too_large`); its analyses trace their connection as for any model.
 */
export const MAX_CONNECTION_TILES = 6_000;

/**
 * The longest a run may take (the state machine's timeout): a run stored before connection runs
 * were leased, still `pending` past it, had no outcome recorded (its executor was lost).
 */
export const CONNECTION_RUN_LIMIT_MS = 6 * 3600 * 1000;

/**
 * A run is held under a lease, as every job. On the state machine it lasts past the machine's
 * timeout: the machine records its own failure, so only a lost execution lets it lapse. (Locally
 * the fan-out holds a short lease that its process renews, see model-connection.ts.)
 */
export const CONNECTION_LEASE_MS = CONNECTION_RUN_LIMIT_MS + 10 * 60 * 1000;
/** A run whose executor was lost is started again; the third loss ends it `failed` `connection_lost`. */
export const MAX_CONNECTION_ATTEMPTS = 3;

export interface ModelConnection {
  status: ConnectionState;
  /** Tiles the run traces. */
  tiles: number;
  /** The run's id (its execution name in AWS): only that run's outcome is recorded. */
  run_id: string;
  started_at: string;
  finished_at: string | null;
  error: ModelFailure | null;
  /** The run's executor while it is `pending` (owner: the run's id); null once it ended, absent on runs stored before leases. */
  lease?: JobLease | null;
}

/** Why a run ended `failed` when its executor was lost on its last attempt. */
export const lostConnectionError = (attempt: number): ModelFailure => ({
  code: 'connection_lost',
  detail: `Its executor was lost on attempt ${attempt} of ${MAX_CONNECTION_ATTEMPTS}; upload the model again to trace it.`,
});

/**
 * What a reader is told of the connection at `now`: as recorded (the sweep runs a lost run again
 * or fails it), except a lost run with no attempt left, which is failed before the sweep says so,
 * and a run stored before leases still pending past the run's time limit.
 */
export function currentConnection(connection: ModelConnection, now: Date): { status: ConnectionState; tiles: number; error: ModelFailure | null } {
  const { status, tiles, error, lease } = connection;
  if (status === 'pending') {
    if (lease && leaseExpired(lease, now) && lease.attempt >= MAX_CONNECTION_ATTEMPTS) return { status: 'failed', tiles, error: lostConnectionError(lease.attempt) };
    if (!lease && now.getTime() > Date.parse(connection.started_at) + CONNECTION_RUN_LIMIT_MS) return { status: 'failed', tiles, error: lostConnectionError(1) };
  }
  return { status, tiles, error };
}
