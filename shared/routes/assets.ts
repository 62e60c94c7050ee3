import { IdempotencyHeaders, IfMatchHeaders } from '../schemas/common';
import {
  AssetListSchema, AssetWithHistorySchema, GisFields, GisMultipartBody, GisReportSchema, ImportFields, ImportMultipartBody, ImportSchema,
  AssetParams, ImportParams, ListAssetsQuery, QueuedImportSchema, StartImportBody, StartedImportSchema, VulnerabilityBody,
} from '../schemas/assets';
import { JurisdictionParams, OfficialBoundaryBody, OfficialBoundarySchema } from '../schemas/jurisdictions';
import { columnAliasesMarkdown } from '../domain/assets/columns';
import { CONFLICT, IDEMPOTENCY_REUSED, KEYED_ERRORS, NOT_FOUND, PRECONDITION_REQUIRED, STALE_VERSION_CONFLICT, ok } from './responses';
import { defineRoute } from './types';

/**
 * Multipart uploads: 4 MiB, so the body still fits Lambda's 6 MB synchronous payload once API
 * Gateway has base64-encoded it (a third larger). Larger files go through a presigned upload.
 */
export const MULTIPART_MAX_BYTES = 4 * 1024 * 1024;
const LARGE_FILES = 'Files above 4 MiB (4,194,304 bytes) go through `POST /assets/imports`.';

const FILE_ERRORS = 'A file that is not what its extension claims (bad zip, broken XLSX, invalid JSON, no geometry, '
  + 'coordinates swapped or outside Florida, unknown coordinate system) answers 400 `invalid_request` with `reason` '
  + '(`empty_file`, `unsupported_format`, `malformed_csv`, `malformed_xlsx`, `malformed_json`, `invalid_geojson`, '
  + '`malformed_zip`, `malformed_shapefile`, `missing_name_column`, `no_geometry`, `coordinate_order`, `outside_florida`, '
  + '`unsupported_crs`, `no_valid_rows`, `unknown_column` for a `column_map` naming no column of the file, `column_name_too_long` for a column name over 128 characters, which every asset would carry), and nothing is stored.';

const INLINE_LIMITS = 'A file of up to 5,000 rows that validates within 8 s is imported within the request (201 with the report). A larger one is stored and imported in the background: 202 with the import and its `Location`, as `POST /assets/imports` would; nothing is written by the request itself. '
  + 'Archives are unpacked under a budget: a zipped Shapefile up to 256 MiB unpacked, an .xlsx up to 1 GiB (its shared strings up to 64 MiB); beyond that 413 `payload_too_large` with `reason: file_too_large`. An archive entry that unpacks past the size its header declares is 400 `malformed_zip` (`malformed_xlsx` for a workbook), and a truncated or stalled workbook 400 `malformed_xlsx`.';

const IMPORT_DESCRIPTION = [
  'Imports critical assets (s. 380.093(2)(a)) from a CSV, Excel (.xlsx, first worksheet), GeoJSON FeatureCollection (RFC 7946) or zipped Shapefile (.shp/.shx/.dbf/.prj; reprojected from Florida GDL Albers EPSG:3086/3087/6439 or NAD83 to WGS84). Tables need coordinates in WGS84 decimal degrees.',
  '',
  'Columns are matched by name, case and punctuation ignored; for each field the first alias present wins:',
  columnAliasesMarkdown(),
  '',
  'Every asset type is classified into the 40 statute asset types and 4 categories by data-driven rules (type columns first, then the name); each asset keeps the rule that matched. Invalid rows are reported (row, field, code) and skipped; the valid ones are imported.',
  '',
  'Asset identity is stable per account, jurisdiction and source id (or, without an id column, name + type + position): importing the same file again updates the assets (their vulnerability is kept) instead of duplicating them.',
  '',
  FILE_ERRORS,
].join('\n');

const BOUNDARY_USE = 'A jurisdiction\'s boundary decides which imported rows are outside it (with 500 m of tolerance for piers, bridges and causeways) and what `POST /hazards/flood-analysis` with `jurisdiction` analyses. By default it is the Census boundary: counties dissolved from the Census tracts, municipalities their Census 2018 incorporated place (1:500,000). An account\'s own official boundary wins for that account.';

export const assetRoutes = [
  defineRoute({
    id: 'importAssets', method: 'POST', path: '/assets/import', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Import critical assets from CSV, Excel, GeoJSON or zipped Shapefile',
    description: `${IMPORT_DESCRIPTION}\n\n${LARGE_FILES} ${INLINE_LIMITS}`,
    request: {
      headers: IdempotencyHeaders, body: ImportMultipartBody, bodyContentType: 'multipart/form-data', maxBodyBytes: MULTIPART_MAX_BYTES,
      form: { fields: ImportFields, file: 'file' },
      tooLargeHint: 'Upload larger files through POST /assets/imports (a presigned upload, no size limit here).',
    },
    responses: {
      201: ok('The import report: the file was imported within the request.', ImportSchema),
      202: {
        description: 'The file has more than 5,000 rows or is slow to validate: it is stored and imported in the background. Follow `Location` (`GET /assets/imports/{import_id}`). A retry with the same `Idempotency-Key` answers this same import.',
        schema: QueuedImportSchema,
        headers: { Location: { description: 'The import URL.', schema: { type: 'string' } } },
      },
      ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS,
    },
  }),
  defineRoute({
    id: 'startAssetImport', method: 'POST', path: '/assets/imports', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Start a large import: returns a presigned upload URL',
    description: 'Creates a pending import and a presigned S3 `upload_url`. PUT the file to it; the upload starts the import, which streams the file (memory stays flat as files grow). Follow it with `GET /assets/imports/{import_id}`. Same formats, columns and rules as `POST /assets/import`; a file refused as a whole ends in status `failed` with the `error.code` that route would answer.',
    request: { headers: IdempotencyHeaders, body: StartImportBody, maxBodyBytes: 16 * 1024 },
    responses: { 201: ok('The import and its upload URL.', StartedImportSchema), ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'getAssetImport', method: 'GET', path: '/assets/imports/{import_id}', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Status and report of an import',
    description: 'Poll an import started by `POST /assets/imports` (or answered 202 by `POST /assets/import`): `status` goes `pending` (waiting for the upload) → `processing` → `complete` or `failed`; `progress` gives the phase and the rows processed so far. Once complete, `report` holds the categorization and the validation: rows accepted and rejected, and the first 500 row errors; a failed import says why in `error`.',
    request: { params: ImportParams },
    responses: { 200: ok('The import: status, progress (rows processed) and, once complete, the report.', ImportSchema), ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'deleteAssetImport', method: 'DELETE', path: '/assets/imports/{import_id}', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Undo an import: delete every asset it created',
    description: 'Deletes every asset the import created, then the import itself (a later `GET` is 404). Assets the import only updated (created by an earlier import) stay. An import still running answers 409 `conflict`: delete it once it is complete or failed.',
    request: { params: ImportParams },
    responses: { 204: { description: 'Deleted, with the assets it created.' }, ...NOT_FOUND, ...CONFLICT, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'deleteAsset', method: 'DELETE', path: '/assets/{asset_id}', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '10', tags: ['Assets'], summary: 'Delete an asset',
    description: 'Removes the asset and its vulnerability history. Importing its row again creates it anew (with the same id).',
    request: { params: AssetParams },
    responses: { 204: { description: 'Deleted.' }, ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'listAssets', method: 'GET', path: '/assets', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '10', tags: ['Assets'], summary: 'Critical assets of a jurisdiction (JSON, GeoJSON, CSV, XLSX)',
    description: 'Filters combine. `format=json` pages with `limit`/`cursor`; `geojson` answers `application/geo+json` (a FeatureCollection, WGS84, of each asset\'s whole geometry: lines and areas as imported), `csv` and `xlsx` a table for the vulnerability assessment report (the geometry in a `wkt` column) (`Content-Disposition: attachment`), each with every matching asset. Exports larger than 5 MB answer 303 to a short-lived download URL.',
    request: { query: ListAssetsQuery },
    responses: {
      200: ok('A page of assets, or the export in the requested format.', AssetListSchema),
      303: { description: 'Large export: `Location` is a short-lived download URL.' },
      ...KEYED_ERRORS,
    },
  }),
  defineRoute({
    id: 'updateAssetVulnerability', method: 'PUT', path: '/assets/{asset_id}/vulnerability', group: 'assets', auth: 'api_key', minTier: 'pro', requiresIfMatch: true,
    contractRow: '11', tags: ['Assets'], summary: 'Set an asset\'s vulnerability',
    description: 'vulnerability = exposure × sensitivity × (1 − adaptive_capacity), all on 0–1 scales (or an assessor\'s own `vulnerability_score`). Levels: low < 0.25 ≤ moderate < 0.5 ≤ high < 0.75 ≤ very_high. `impact_timeline` from `first_exposed_year` against the year of the assessment: current (≤ 0 years), near_term (≤ 20), mid_term (≤ 50), long_term (later), not_exposed (null). Inputs, formula and every earlier assessment are kept. Conditional: `If-Match` with the ETag is required (428 `precondition_required` without it); a mismatch is 409 `conflict`.',
    request: { params: AssetParams, headers: IfMatchHeaders, body: VulnerabilityBody, maxBodyBytes: 16 * 1024 },
    responses: {
      200: { ...ok('The asset with its vulnerability history.', AssetWithHistorySchema), headers: { ETag: { description: 'Version of the asset, for `If-Match`.', schema: { type: 'string' } } } },
      ...NOT_FOUND, ...STALE_VERSION_CONFLICT, ...PRECONDITION_REQUIRED, ...KEYED_ERRORS,
    },
  }),
  defineRoute({
    id: 'putJurisdictionBoundary', method: 'PUT', path: '/jurisdictions/{jurisdiction}/boundary', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Store the account\'s official boundary of a jurisdiction',
    description: `${BOUNDARY_USE} The boundary is checked as an analysis boundary is (closed rings in WGS 84, at most 10,000 vertices and 25,000 km², body at most 512 KiB; clockwise exteriors are rewound) and must overlap a county the jurisdiction lies in. Coordinates are stored to 7 decimals. Storing again replaces it.`,
    request: { params: JurisdictionParams, body: OfficialBoundaryBody, maxBodyBytes: 512 * 1024 },
    responses: { 200: ok('The stored boundary.', OfficialBoundarySchema), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'getJurisdictionBoundary', method: 'GET', path: '/jurisdictions/{jurisdiction}/boundary', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'The boundary used for a jurisdiction',
    description: `${BOUNDARY_USE} Answers the account's official boundary when it stored one (\`source: account\`), else the Census boundary in use (\`census_tracts\` for a county, \`census_place\` for a municipality).`,
    request: { params: JurisdictionParams },
    responses: { 200: ok('The boundary and where it comes from.', OfficialBoundarySchema), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'deleteJurisdictionBoundary', method: 'DELETE', path: '/jurisdictions/{jurisdiction}/boundary', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '9', tags: ['Assets'], summary: 'Remove the account\'s official boundary of a jurisdiction',
    description: 'The Census boundary is used again for the jurisdiction. 404 when the account stored none.',
    request: { params: JurisdictionParams },
    responses: { 204: { description: 'Removed.' }, ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'validateGisData', method: 'POST', path: '/compliance/gis-validation', group: 'assets', auth: 'api_key', minTier: 'pro',
    contractRow: '20', tags: ['Compliance'], summary: 'Validate a GIS deliverable (GeoJSON, zipped Shapefile or GeoPackage)',
    description: 'Checks a layer before it goes to DEP: the declared coordinate system against the one the file states (`.prj` WKT, GeoJSON `crs` or the GeoPackage layer\'s `gpkg_spatial_ref_sys` entry; DEP\'s Florida GDL Albers EPSG:3087, 6439, 3086 accepted), geometry validity (empty, malformed, unclosed rings, self-intersections), extent within Florida and coordinate order, the attributes a critical-asset layer needs (name and asset type; id, owner, address recommended) and metadata completeness (FGDC CSDGM or ISO 19115 core elements). Findings are reported, not refused: the answer is 200 with `valid: false` and coded errors, each with the feature and a fix hint. Only an unreadable file (bad zip, invalid JSON, not a FeatureCollection, not a GeoPackage: `malformed_geopackage`) is a 400; a GeoPackage of several feature layers needs `layer` (400 `invalid_request` with `reason: layer_not_chosen` lists them).',
    request: { body: GisMultipartBody, bodyContentType: 'multipart/form-data', maxBodyBytes: MULTIPART_MAX_BYTES, form: { fields: GisFields, file: 'file', optionalFiles: ['metadata'] } },
    responses: { 200: ok('The GIS report.', GisReportSchema), ...KEYED_ERRORS },
  }),
];
