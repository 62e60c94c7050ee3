import type { OperationExample } from './types';

const PENDING_MODEL = {
  elevation_model_id: 'em_c9036d679df443ea87b281e5e8b062e8',
  name: 'Pinellas County 2018 lidar DEM',
  status: 'pending',
  crs: null,
  resolution_m: null,
  bbox: null,
  vertical_datum: 'NAVD88',
  units: 'ft',
  vertical_conversion: null,
  vertical_accuracy_m: 0.1,
  error: null,
  created_at: '2026-11-23T20:58:11.375Z',
  updated_at: '2026-11-23T20:58:11.375Z',
};

/** A county brings its lidar DEM: the model is created, read back and listed before its file is uploaded, then deleted. */
export const elevationModelExamples: OperationExample[] = [
  {
    operationId: 'createElevationModel',
    request: {
      headers: { 'Idempotency-Key': 'pinellas-lidar-2018' },
      body: { name: 'Pinellas County 2018 lidar DEM', vertical_datum: 'NAVD88', units: 'ft', vertical_accuracy_m: 0.1 },
    },
    response: {
      status: 201,
      body: {
        ...PENDING_MODEL,
        upload_url: 'https://va-compliance-data.s3.us-east-1.amazonaws.com/elevation-uploads/acct_8b45c716-3ecc-4cb1-8526-30d9a4fdecbe/em_c9036d679df443ea87b281e5e8b062e8.tif?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=fdd9b0',
        upload_method: 'PUT',
        upload_expires_at: '2026-11-23T21:03:11.375Z',
        max_upload_bytes: 268435456,
      },
      headers: { Location: '/api/hazards/elevation-models/em_c9036d679df443ea87b281e5e8b062e8' },
    },
  },
  {
    operationId: 'getElevationModel',
    request: { params: { elevation_model_id: 'em_c9036d679df443ea87b281e5e8b062e8' } },
    response: { status: 200, body: PENDING_MODEL },
  },
  {
    operationId: 'listElevationModels',
    response: { status: 200, body: { data: [PENDING_MODEL], next_cursor: null } },
  },
  {
    operationId: 'deleteElevationModel',
    request: { params: { elevation_model_id: 'em_c9036d679df443ea87b281e5e8b062e8' } },
    response: { status: 204 },
  },
];
