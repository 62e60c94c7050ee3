import { elevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import type { ConnectionRunStart } from '../../shared/application/elevation-models/model-connection';
import type { UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';
import { TAMPA_SHIFT_M } from './dem-fixture';
import { MemoryConnectionRecords } from './memory-connection-records';

/** The elevation model worker's collaborators as fakes: its connection fan-out, its store, a model. */

/** The fan-out as the worker sees it: the runs it was asked to start. */
export function fakeFanOut(fails = false) {
  const started: ConnectionRunStart[] = [];
  return { started, leaseMs: 3_600_000, start: async (start: ConnectionRunStart) => { if (fails) throw new Error('StartExecution refused'); started.push(start); } };
}

/** A processing fan-out these models (of one window each) never reach. */
export function oneRunOnly() {
  return { fanOut: { leaseMs: 7_800_000, start: async () => { throw new Error('A model of one window was fanned out.'); } } };
}

export const ACCOUNT = 'acct_test';
export const MODEL = `em_${'a'.repeat(32)}`;

export function entry(overrides: Partial<UploadedElevationModel> = {}): UploadedElevationModel {
  return {
    elevation_model_id: MODEL, account_id: ACCOUNT, name: 'Tampa clip', source: 'upload', status: 'processing', vertical_datum: 'NGVD29', units: 'ft',
    vertical_accuracy_m: 0.76, ngvd29_to_navd88_m: TAMPA_SHIFT_M, upload_key: elevationUploadKey(ACCOUNT, MODEL), upload_expires_at: '2026-11-23T21:00:00.000Z',
    crs: null, resolution_m: null, bbox: null, vertical_conversion: null, model_key: null, error: null, processing_started_at: '2026-11-23T20:55:00.000Z',
    created_at: '2026-11-23T20:50:00.000Z', updated_at: '2026-11-23T20:55:00.000Z', ...overrides,
  };
}

/** The store as the worker sees it: claim succeeds once, finish records the outcome (a ready one can start a connection run). */
export function fakeStore(claimed: UploadedElevationModel | undefined) {
  const finished: unknown[] = [];
  const released: string[] = [];
  let available = claimed;
  const connections = new MemoryConnectionRecords(claimed ? [claimed.elevation_model_id] : []);
  return {
    finished,
    released,
    connections: connections.connections,
    startConnection: connections.startConnection.bind(connections),
    restartConnection: connections.restartConnection.bind(connections),
    renewConnection: connections.renewConnection.bind(connections),
    endConnection: connections.endConnection.bind(connections),
    listLapsedConnections: async () => [],
    claim: async () => { const e = available; available = undefined; return e; },
    finish: async (_a: string, _i: string, outcome: unknown) => { finished.push(outcome); return true; },
    release: async (_a: string, _i: string, owner: string) => { released.push(owner); return true; },
    extendLease: async () => true,
    get: async () => claimed,
    listExpiredLeases: async () => [],
    takeOver: async () => undefined,
    listPending: async () => [],
  };
}
