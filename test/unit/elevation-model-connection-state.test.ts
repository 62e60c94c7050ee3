import { StepFunctionsConnectionFanOut } from '../../shared/adapters/step-functions-fan-out';
import { MAX_CONNECTION_ATTEMPTS, type ModelConnection } from '../../shared/domain/elevation-models/connection';
import { currentState, type UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';

/**
 * What a reader is told of a model's connection run: as recorded while the sweep may still run it
 * again; lost once its last attempt's lease lapsed, or (a run stored before leases) once past the
 * state machine's time limit.
 */
const started = '2026-11-23T21:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(started) + ms);
const HOUR = 3_600_000;
const lease = (attempt: number) => ({ owner: 'conn_1', expires_at: at(HOUR).toISOString(), attempt });
const connection = (overrides: Partial<ModelConnection> = {}): ModelConnection => ({
  status: 'pending', tiles: 12, run_id: 'conn_1', started_at: started, finished_at: null, error: null, lease: lease(1), ...overrides,
});
const model = (overrides: Partial<UploadedElevationModel> = {}): UploadedElevationModel => ({
  elevation_model_id: 'em_x', account_id: 'acct_x', name: 'x', source: 'upload', status: 'ready', vertical_datum: 'NAVD88', units: 'm',
  vertical_accuracy_m: null, ngvd29_to_navd88_m: null, upload_key: 'k', upload_expires_at: null, crs: null, resolution_m: null, bbox: null,
  vertical_conversion: null, model_key: 'elevation-models/acct_x/em_x/model.json', error: null, processing_started_at: null,
  created_at: started, updated_at: started, connection: connection(), ...overrides,
});

describe('the connection state a reader sees', () => {
  it('is the recorded run within its lease, and past it while an attempt is left (the sweep runs it again)', () => {
    expect(currentState(model(), at(HOUR - 1)).connection).toEqual({ status: 'pending', tiles: 12, error: null });
    expect(currentState(model(), at(10 * HOUR)).connection).toEqual({ status: 'pending', tiles: 12, error: null });
    const retried = connection({ lease: lease(MAX_CONNECTION_ATTEMPTS - 1) });
    expect(currentState(model({ connection: retried }), at(10 * HOUR)).connection).toEqual({ status: 'pending', tiles: 12, error: null });
    const ready = connection({ status: 'ready', finished_at: started, lease: null });
    expect(currentState(model({ connection: ready }), at(100 * HOUR)).connection).toEqual({ status: 'ready', tiles: 12, error: null });
  });

  it('is failed connection_lost once the lease of its last attempt lapsed, before the sweep says so', () => {
    const last = model({ connection: connection({ lease: lease(MAX_CONNECTION_ATTEMPTS) }) });
    expect(currentState(last, at(HOUR)).connection).toEqual({ status: 'pending', tiles: 12, error: null });
    const state = currentState(last, at(HOUR + 1));
    expect(state.status).toBe('ready');
    expect(state.connection).toEqual({ status: 'failed', tiles: 12, error: { code: 'connection_lost', detail: expect.stringContaining(`attempt ${MAX_CONNECTION_ATTEMPTS} of ${MAX_CONNECTION_ATTEMPTS}`) } });
  });

  it('is failed connection_lost for a run stored before leases still pending past the time limit', () => {
    const unleased = model({ connection: connection({ lease: undefined }) });
    // The state machine's timeout: 6 hours.
    expect(currentState(unleased, at(6 * HOUR)).connection).toEqual({ status: 'pending', tiles: 12, error: null });
    expect(currentState(unleased, at(6 * HOUR + 1)).connection).toEqual({ status: 'failed', tiles: 12, error: { code: 'connection_lost', detail: expect.stringContaining('lost on attempt 1 of 3') } });
  });

  it('is leased on the state machine 10 minutes past its 6-hour timeout, so only a lost execution lapses', () => {
    expect(new StepFunctionsConnectionFanOut('arn:aws:states:us-east-1:123456789012:stateMachine:ElevationTiles').leaseMs).toBe(6 * HOUR + 10 * 60_000);
  });

  it('is null for a model with no run (ready before connections, or not ready yet)', () => {
    expect(currentState(model({ connection: undefined }), at(0)).connection).toBeNull();
    expect(currentState(model({ status: 'pending', connection: null }), at(0)).connection).toBeNull();
  });
});
