import type { OperationExample } from './types';

/**
 * A county brings its lidar DEM: the model is created, read back and listed before its file is
 * uploaded, then deleted. A COG registered by URL must be reachable on the public internet: one on
 * a private address is refused before anything is read.
 */
export const elevationModelExamples: OperationExample[] = [
  {
    operationId: 'createElevationModel',
    request: {
      headers: { 'Idempotency-Key': 'pinellas-lidar-2018' },
      body: { name: 'Pinellas County 2018 lidar DEM', vertical_datum: 'NAVD88', units: 'ft', vertical_accuracy_m: 0.1 },
    },
    response: { status: 201, headers: ['Location'] },
  },
  {
    operationId: 'getElevationModel',
    request: { params: { elevation_model_id: 'em_47427400149007988588365401608869' } },
    response: { status: 200 },
  },
  {
    operationId: 'listElevationModels',
    response: { status: 200 },
  },
  {
    operationId: 'deleteElevationModel',
    request: { params: { elevation_model_id: 'em_47427400149007988588365401608869' } },
    response: { status: 204 },
  },
  {
    operationId: 'createElevationModel',
    request: {
      body: { name: 'Pinellas County 2018 lidar COG', vertical_datum: 'NAVD88', units: 'm', cog_url: 'https://192.168.10.5/lidar/pinellas_2018_cog.tif' },
    },
    response: { status: 400 },
  },
];
