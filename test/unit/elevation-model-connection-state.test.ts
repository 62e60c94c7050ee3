import { CONNECTION_RUN_LIMIT_MS, type ModelConnection } from '../../shared/domain/elevation-models/connection';
import { currentState, type UploadedElevationModel } from '../../shared/domain/elevation-models/stored-model';

/** What a reader is told of a model's connection run: as recorded, or lost once past the state machine's time limit. */
const started = '2026-11-23T21:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(started) + ms);
const connection = (overrides: Partial<ModelConnection> = {}): ModelConnection => ({
  status: 'pending', tiles: 12, run_id: 'conn_1', started_at: started, finished_at: null, error: null, ...overrides,
});
const model = (overrides: Partial<UploadedElevationModel> = {}): UploadedElevationModel => ({
  elevation_model_id: 'em_x', account_id: 'acct_x', name: 'x', source: 'upload', status: 'ready', vertical_datum: 'NAVD88', units: 'm',
  vertical_accuracy_m: null, ngvd29_to_navd88_m: null, upload_key: 'k', upload_expires_at: null, crs: null, resolution_m: null, bbox: null,
  vertical_conversion: null, model_key: 'elevation-models/acct_x/em_x/model.json', error: null, processing_started_at: null,
  created_at: started, updated_at: started, connection: connection(), ...overrides,
});

describe('the connection state a reader sees', () => {
  it('is the recorded run while it is within its time limit', () => {
    expect(currentState(model(), at(CONNECTION_RUN_LIMIT_MS)).connection).toEqual({ status: 'pending', tiles: 12, error: null });
    const ready = connection({ status: 'ready', finished_at: started });
    expect(currentState(model({ connection: ready }), at(10 * CONNECTION_RUN_LIMIT_MS)).connection).toEqual({ status: 'ready', tiles: 12, error: null });
  });

  it('is failed connection_lost for a run still pending past the limit (its executor was lost)', () => {
    const state = currentState(model(), at(CONNECTION_RUN_LIMIT_MS + 1));
    expect(state.status).toBe('ready');
    expect(state.connection).toEqual({ status: 'failed', tiles: 12, error: { code: 'connection_lost', detail: expect.stringContaining('no outcome') } });
  });

  it('is null for a model with no run (ready before connections, or not ready yet)', () => {
    expect(currentState(model({ connection: undefined }), at(0)).connection).toBeNull();
    expect(currentState(model({ status: 'pending', connection: null }), at(0)).connection).toBeNull();
  });
});
