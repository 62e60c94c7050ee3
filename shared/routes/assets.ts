import { z } from '../schemas/zod';
import { CONFLICT, KEYED_ERRORS, NOT_FOUND, PRECONDITION_FAILED, ok } from './responses';
import { defineRoute } from './types';

const Passthrough = z.object({}).passthrough();

export const assetRoutes = [
  defineRoute({
    id: 'importAssets', method: 'POST', path: '/assets/import', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Import critical assets from CSV, Excel, GeoJSON or zipped Shapefile',
    request: { body: z.string().max(6_000_000), bodyContentType: 'multipart/form-data', maxBodyBytes: 6 * 1024 * 1024 },
    responses: { 201: ok('The import report.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'startAssetImport', method: 'POST', path: '/assets/imports', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Start a large import: returns a presigned upload URL',
    request: { body: Passthrough, maxBodyBytes: 16 * 1024 },
    responses: { 201: ok('The import and its upload URL.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'getAssetImport', method: 'GET', path: '/assets/imports/{import_id}', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Status and report of an import',
    request: { params: z.object({ import_id: z.string().min(1).max(64) }) },
    responses: { 200: ok('The import.', Passthrough), ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'listAssets', method: 'GET', path: '/assets', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '10', tags: ['Assets'], summary: 'Critical assets of a jurisdiction (JSON, GeoJSON, CSV, XLSX)',
    responses: { 200: ok('A page of assets.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'updateAssetVulnerability', method: 'PUT', path: '/assets/{asset_id}/vulnerability', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '11', tags: ['Assets'], summary: 'Set an asset\'s vulnerability',
    request: { params: z.object({ asset_id: z.string().min(1).max(100) }), body: Passthrough, maxBodyBytes: 16 * 1024 },
    responses: { 200: ok('The asset.', Passthrough), ...NOT_FOUND, ...CONFLICT, ...PRECONDITION_FAILED, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'validateGisData', method: 'POST', path: '/compliance/gis-validation', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '20', tags: ['Compliance'], summary: 'Validate a GIS deliverable (GeoJSON or zipped Shapefile)',
    request: { body: z.string().max(6_000_000), bodyContentType: 'multipart/form-data', maxBodyBytes: 6 * 1024 * 1024 },
    responses: { 200: ok('The GIS report.', Passthrough), ...KEYED_ERRORS },
  }),
];
