import type { OperationExample } from './types';

/** The City of Naples boundary an account stores, with its source. */
const NAPLES_BOUNDARY = {
  boundary_geojson: { type: 'Polygon', coordinates: [[[-81.81, 26.1], [-81.77, 26.1], [-81.77, 26.18], [-81.81, 26.18], [-81.81, 26.1]]] },
  source_note: 'City of Naples GIS, annexations to 2025-06',
};

/** A small inventory of the City of Key West, its vulnerability and a GIS check. */
export const assetExamples: OperationExample[] = [
  {
    operationId: 'importAssets',
    request: {
      headers: { 'Idempotency-Key': 'key-west-assets-1' },
      form: {
        file: {
          filename: 'assets.csv',
          contentType: 'text/csv',
          content: 'facility_id,name,type,latitude,longitude\nKW-LS-12,Lift Station 12,Lift Station,24.5557,-81.7826\nKW-FS-1,Fire Station 1,FIRE STATION,24.5590,-81.8020\nKW-BAD-1,Broken Row,Fire Station,,-81.7900\n',
        },
        jurisdiction: 'City of Key West',
      },
    },
    response: { status: 201 },
  },
  {
    operationId: 'getAssetImport',
    request: { params: { import_id: 'imp_38965969455550915905845296939783' } },
    response: { status: 200 },
  },
  {
    operationId: 'listAssets',
    request: { query: { jurisdiction: 'City of Key West', category: 'critical_infrastructure' } },
    response: { status: 200 },
  },
  {
    operationId: 'updateAssetVulnerability',
    request: {
      params: { asset_id: 'a_726392354755266342603900' },
      headers: { 'If-Match': '"1"' },
      body: {
        hazard_type: 'tidal_flooding',
        scenario: 'intermediate',
        exposure: 0.8,
        sensitivity: 0.9,
        adaptive_capacity: 0.3,
        first_exposed_year: 2040,
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'startAssetImport',
    request: {
      headers: { 'Idempotency-Key': 'key-west-assets-2' },
      body: { filename: 'key-west-assets.csv', jurisdiction: 'City of Key West' },
    },
    response: { status: 201 },
  },
  {
    operationId: 'validateGisData',
    request: {
      form: {
        file: {
          filename: 'assets.geojson',
          contentType: 'application/geo+json',
          content: '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Lift Station 12","asset_type":"lift station","asset_id":"KW-LS-12"},"geometry":{"type":"Point","coordinates":[-81.7826,24.5557]}}]}',
        },
        coordinate_system: 'EPSG:4326',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'deleteAsset',
    request: { params: { asset_id: 'a_726392354755266342603900' } },
    response: { status: 204 },
  },
  {
    operationId: 'deleteAssetImport',
    request: { params: { import_id: 'imp_38965969455550915905845296939783' } },
    response: { status: 204 },
  },
  {
    operationId: 'putJurisdictionBoundary',
    request: {
      params: { jurisdiction: 'City of Naples' },
      body: NAPLES_BOUNDARY,
    },
    response: { status: 200 },
  },
  {
    operationId: 'getJurisdictionBoundary',
    request: { params: { jurisdiction: 'municipality:125130' } },
    response: { status: 200 },
  },
  {
    operationId: 'deleteJurisdictionBoundary',
    request: { params: { jurisdiction: 'municipality:125130' } },
    response: { status: 204 },
  },
];
