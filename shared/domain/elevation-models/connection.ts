import type { JobFailure as ModelFailure } from '../job-failure';

/**
 * The tidal connection of an uploaded model: once the model is `ready`, every cell's spill level
 * over the whole model is traced tile by tile (a Step Functions Distributed Map in AWS, a pool of
 * worker threads locally) and cached beside its tiles. The model records the run's state.
 */
export const CONNECTION_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ConnectionState = typeof CONNECTION_STATUSES[number];

/** Why a connection run ended `failed`, in `error.code`. */
export const CONNECTION_ERRORS = ['tile_pass_failed', 'connection_not_started', 'connection_lost'] as const;

/** Level 0 is traced in windows of at most this many cells a side (4 M cells: about 70 MB of arrays a tile). */
export const CONNECTION_TILE_SIDE = 2048;

/**
 * The sea surface the connection is traced for, m NAVD88: where the source has no water flag,
 * ground at or below it is open water.
 */
export const CONNECTION_SEA_SURFACE_NAVD88_M = 0;

/**
 * The longest a run may take (the state machine's timeout): a run still `pending` after it had no
 * outcome recorded (its executor was lost) and is reported `failed`.
 */
export const CONNECTION_RUN_LIMIT_MS = 6 * 3600 * 1000;

export interface ModelConnection {
  status: ConnectionState;
  /** Tiles the run traces. */
  tiles: number;
  /** The run's id (its execution name in AWS): only that run's outcome is recorded. */
  run_id: string;
  started_at: string;
  finished_at: string | null;
  error: ModelFailure | null;
}

/** What a reader is told of the connection at `now`: a run past its time limit is lost. */
export function currentConnection(connection: ModelConnection, now: Date): { status: ConnectionState; tiles: number; error: ModelFailure | null } {
  const { status, tiles, error } = connection;
  if (status === 'pending' && now.getTime() > Date.parse(connection.started_at) + CONNECTION_RUN_LIMIT_MS) {
    return {
      status: 'failed', tiles,
      error: { code: 'connection_lost', detail: 'The tidal connection run recorded no outcome within its time limit (its executor was lost); upload the model again to trace it.' },
    };
  }
  return { status, tiles, error };
}
