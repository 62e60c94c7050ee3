import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, decimalParam, LimitParam } from './common';
import { ASSET_CATEGORIES, ASSET_TYPE_IDS } from '../domain/assets/classification';
import { HAZARD_TYPES, IMPACT_TIMELINES, NOT_ASSESSED, SLR_SCENARIOS, VULNERABILITY_LEVELS } from '../domain/assets/vulnerability';
import { ASSET_FILE_FORMATS } from '../domain/assets/file-formats';
import { IMPORT_PHASES, IMPORT_STATUSES } from '../domain/assets/ports';
import { COLUMN_MAP_TARGETS, MAPPED_FIELDS } from '../domain/assets/columns';
import { SURVEYED_ELEVATION_FIELDS } from '../domain/assets/surveyed-columns';
import { parseCrsReference } from '../domain/assets/crs-reference';
import { OUTSIDE_JURISDICTION_MODES } from '../domain/assets/import-options';
import { ASSET_SORTS } from '../domain/deliverables/asset-priority';
import { AssetExposureSchema } from './exposure';
import { parseJsonText, ReservedNameError } from '../domain/json-text';

const Text = (max: number) => z.string().max(max);
const Category = onFirstUse(() => z.enum(ASSET_CATEGORIES).describe('One of the four categories of s. 380.093(2)(a).'));
const StoredCategory = onFirstUse(() => z.enum([...ASSET_CATEGORIES, 'unclassified']));
const Timestamp = onFirstUse(() => z.string().max(40).describe('ISO 8601 date-time (UTC).'));

export const JurisdictionParam = onFirstUse(() => z.string().trim().min(2).max(120)
  .describe('A Florida county or municipality ("Monroe County", "City of Key West") or its id (`county:12087`, `municipality:120168`).'));

const OutsideJurisdiction = onFirstUse(() => z.enum(OUTSIDE_JURISDICTION_MODES)
  .describe('Rows whose position is outside the jurisdiction (its boundary: the account\'s official one if stored, else the Census county or incorporated place; 500 m of tolerance for piers, bridges and causeways): `reject` (default: refused with reason `outside_jurisdiction`), `warn` (imported, listed in `validation.warnings`) or `accept`.'));
const CrsField = onFirstUse(() => z.string().trim().max(60).transform((text, ctx) => {
  const code = parseCrsReference(text);
  if (code === undefined) {
    ctx.addIssue({ code: 'custom', message: 'An EPSG code such as EPSG:2236' });
    return z.NEVER;
  }
  return code;
}).describe('Coordinate system of a table\'s coordinates, as `EPSG:<code>` (Florida State Plane in US feet: EPSG:2236 East, 2237 West, 2238 North; also the HARN and 2011 variants, in feet or metres, UTM 16N/17N and Florida GDL Albers). The table then gives `x`/`y` (or `easting`/`northing`) columns. Without it, coordinates are WGS84 decimal degrees. GeoJSON and Shapefiles state their own system.'));
const HeaderRow = onFirstUse(() => decimalParam(z.number().int().min(1).max(1000)).describe('1-based row of a table\'s header; rows above it (a title, notes) are skipped. Default: the first row.'));
const ColumnMapObject = onFirstUse(() => z.record(z.string().min(1).max(200), z.enum(COLUMN_MAP_TARGETS)).refine((map) => Object.keys(map).length <= 50, 'At most 50 columns')
  .describe(`File column → field, ahead of the name aliases. Fields: ${MAPPED_FIELDS.join(', ')}; or a surveyed elevation (NAVD88, unit in the name), used as the asset's ground or first floor by the hazard analyses: ${SURVEYED_ELEVATION_FIELDS.join(', ')}.`));
const ColumnMapText = onFirstUse(() => z.string().max(10_000).transform((text, ctx) => {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof ReservedNameError ? error.message : 'A JSON object, e.g. {"FAC_NAME": "name"}' });
    return z.NEVER;
  }
  const parsed = ColumnMapObject().safeParse(value);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Not a column map' });
    return z.NEVER;
  }
  return parsed.data;
}).describe(`A JSON object: file column → field, ahead of the name aliases (e.g. {"FAC_NAME": "name", "KIND": "asset_type", "FFE": "first_floor_elevation_ft_navd88"}). Fields: ${MAPPED_FIELDS.join(', ')}; or a surveyed elevation (NAVD88, unit in the name), used as the asset's ground or first floor by the hazard analyses: ${SURVEYED_ELEVATION_FIELDS.join(', ')}.`));

const ImportAssessmentId = onFirstUse(() => z.string().max(29).regex(/^va_[0-9A-Z]{26}$/, 'Not an assessment id')
  .describe('Links the import to an assessment of this account for the same jurisdiction: its checklist counts the linked imports as evidence of the inventory.'));

export const ImportMultipartBody = onFirstUse(() => z.object({
  file: z.string().max(6_000_000).openapi({ format: 'binary' }).describe('CSV, Excel (.xlsx), GeoJSON FeatureCollection (.geojson/.json) or zipped Shapefile (.zip with .shp, .shx, .dbf, .prj). The file name\'s extension states the format.'),
  jurisdiction: JurisdictionParam(),
  asset_category: Category().optional().describe('Category of every asset in the file: rules then choose only among its asset types, and assets no rule matches still get it.'),
  outside_jurisdiction: OutsideJurisdiction().optional(),
  crs: CrsField().optional(),
  header_row: HeaderRow().optional(),
  column_map: ColumnMapText().optional(),
  assessment_id: ImportAssessmentId().optional(),
}).openapi('AssetImportForm'));

/** The text fields of the multipart import (the file part is checked on its own). */
export const ImportFields = onFirstUse(() => ImportMultipartBody().omit({ file: true }).strict());

export const StartImportBody = onFirstUse(() => z.object({
  // A refinement, not `.regex`: OpenAPI patterns cannot carry the case-insensitive flag.
  filename: z.string().trim().min(1).max(200).refine((name) => /\.(csv|txt|xlsx|geojson|json|zip)$/i.test(name), 'Use a .csv, .xlsx, .geojson, .json or .zip (zipped Shapefile) file name')
    .describe('Name of the file you will upload; its extension states the format.'),
  jurisdiction: JurisdictionParam(),
  asset_category: Category().optional(),
  outside_jurisdiction: OutsideJurisdiction().optional(),
  crs: CrsField().optional(),
  header_row: z.number().int().min(1).max(1000).optional().describe(HeaderRow().description!),
  column_map: ColumnMapObject().optional(),
  assessment_id: ImportAssessmentId().optional(),
}).strict().openapi('AssetImportStart'));

export const RowErrorSchema = onFirstUse(() => z.object({
  row: z.number().int().describe('CSV/XLSX: the row number a spreadsheet shows (header = 1). GeoJSON/Shapefile: the 1-based feature number.'),
  field: Text(300).describe('Column (or `geometry`) at fault.'),
  code: z.enum(['required', 'invalid_number', 'coordinate_order', 'outside_florida', 'out_of_range', 'no_geometry', 'invalid_geometry', 'geometry_too_large', 'duplicate', 'malformed_row', 'outside_jurisdiction']),
  message: Text(1000),
}));

export const ImportReportSchema = onFirstUse(() => z.object({
  total_rows: z.number().int().min(0),
  asset_count: z.number().int().min(0).describe('Assets accepted from the file.'),
  categorization: z.object({
    by_category: z.record(z.string(), z.number().int()).describe('Accepted assets per category (`unclassified` when no rule matched).'),
    by_asset_type: z.record(z.string(), z.number().int()).describe('Accepted assets per statute asset type.'),
    unclassified: z.number().int().min(0),
  }),
  validation: z.object({
    accepted: z.number().int().min(0),
    rejected: z.number().int().min(0),
    errors: z.array(RowErrorSchema()).max(500).describe('Per-row errors (the first 500).'),
    errors_truncated: z.boolean(),
    warnings: z.array(RowErrorSchema()).max(500).describe('Rows imported with a remark (`outside_jurisdiction=warn`), the first 500.'),
    outside_jurisdiction: z.object({
      mode: z.enum(OUTSIDE_JURISDICTION_MODES),
      rows: z.number().int().min(0).describe('Rows outside the jurisdiction (rejected, or imported with a warning).'),
      checked_against: Text(300).nullable().describe('The area the rows were checked against; null with `accept`.'),
    }),
    unclassified_types: z.array(z.object({ text: Text(100), count: z.number().int() })).max(100)
      .describe('Type texts (or names) no rule matched, most frequent first: add a type column or an `asset_category`.'),
  }),
  columns: z.object({
    name: Text(300).optional(),
    latitude: Text(300).optional(),
    longitude: Text(300).optional(),
    source_id: Text(300).optional(),
    address: Text(300).optional(),
    city: Text(300).optional(),
    county: Text(300).optional(),
    owner: Text(300).optional(),
    type_columns: z.array(Text(300)).max(20),
    surveyed: z.array(z.object({ column: Text(300), field: z.enum(SURVEYED_ELEVATION_FIELDS) })).max(50).optional()
      .describe('Columns `column_map` named as surveyed elevations, kept on each asset under the standard name (reports of earlier imports lack it).'),
  }).describe('Which column of the file supplied each field.'),
  written: z.object({
    created: z.number().int().min(0),
    updated: z.number().int().min(0),
    unchanged: z.number().int().min(0).describe('Already stored with the same content (a re-import).'),
  }),
}).openapi('AssetImportReport'));

export const ImportSchema = onFirstUse(() => z.object({
  import_id: Text(64),
  status: z.enum(IMPORT_STATUSES),
  filename: Text(200),
  format: z.enum(ASSET_FILE_FORMATS),
  jurisdiction: z.object({ id: Text(40), name: Text(120) }),
  asset_category: Category().nullable(),
  assessment_id: z.string().max(29).nullable().describe('The assessment the import is linked to as evidence, or null.'),
  progress: z.object({
    phase: z.enum(IMPORT_PHASES),
    rows_processed: z.number().int().min(0),
  }),
  asset_count: z.number().int().min(0).nullable(),
  categorization: ImportReportSchema().shape.categorization.nullable().describe('Accepted assets per category and per statute asset type (also in `report`); null until the file is processed.'),
  validation: ImportReportSchema().shape.validation.nullable().describe('Accepted and rejected rows with per-row errors (also in `report`); null until the file is processed.'),
  report: ImportReportSchema().nullable(),
  error: z.object({ code: Text(40), detail: Text(2000) }).nullable().describe('Why a failed import failed: the same codes as the 400s and 413s of `POST /assets/import`, or `time_budget_exceeded`, `worker_lost` (its worker ended unexpectedly and it could not be resumed) and `internal_error`, each of which says to start it again — assets already written are updated, not duplicated.'),
  created_at: Timestamp(),
  updated_at: Timestamp(),
}).openapi('AssetImport'));

export const QueuedImportSchema = onFirstUse(() => ImportSchema().extend({
  reason: Text(300).describe('Why the file is imported in the background rather than within the request.'),
}).openapi('AssetImportQueued'));

export const StartedImportSchema = onFirstUse(() => ImportSchema().extend({
  upload_url: z.url().max(4000).describe('Presigned S3 URL: PUT the file\'s bytes to it before `upload_expires_at`.'),
  upload_method: z.literal('PUT'),
  upload_expires_at: Timestamp(),
  max_upload_bytes: z.number().int(),
}).openapi('AssetImportStarted'));

const Score = onFirstUse(() => z.number().min(0).max(1));

export const VulnerabilitySchema = onFirstUse(() => z.object({
  hazard_type: z.enum(HAZARD_TYPES),
  scenario: z.enum(SLR_SCENARIOS).nullable(),
  exposure: Score().nullable(),
  sensitivity: Score().nullable(),
  adaptive_capacity: Score(),
  vulnerability_score: Score(),
  vulnerability_level: z.enum(VULNERABILITY_LEVELS),
  first_exposed_year: z.number().int().nullable(),
  impact_timeline: z.enum(IMPACT_TIMELINES),
  flood_depth_ft: z.number().nullable(),
  notes: Text(2000).nullable(),
  method: z.enum(['computed', 'assessor_provided']),
  formula: Text(200),
  assessed_at: Timestamp(),
}).openapi('AssetVulnerability'));

export const AssetSchema = onFirstUse(() => z.object({
  asset_id: Text(40),
  name: Text(300),
  category: StoredCategory(),
  asset_type: z.enum(ASSET_TYPE_IDS).nullable().describe('One of the 40 statute asset types; null when unclassified.'),
  asset_type_label: Text(100).nullable(),
  source_type: Text(300).nullable().describe('The type text of the imported file.'),
  classification: z.object({
    rule: Text(300).describe('`<asset_type>:<pattern>` of the rule that matched, `<asset_type>:code:<column>`, `default_category` or `unclassified`.'),
    matched_field: Text(300).nullable(),
    matched_text: Text(300).nullable(),
    ruleset_version: Text(20),
  }),
  jurisdiction_id: Text(40),
  lat: z.number(),
  lon: z.number(),
  geometry_type: Text(30).describe('Geometry of the source feature; `lat`/`lon` place a line or an area at a point on itself (for lists and flood exposure).'),
  geometry: z.object({
    type: z.enum(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']),
    coordinates: z.array(z.unknown()).max(5000).optional(),
    geometries: z.array(z.unknown()).max(5000).optional(),
  }).describe('The whole geometry as imported (GeoJSON, WGS84): a point, or a line or area kept with all its vertices (up to 5,000; larger ones are refused with `geometry_too_large`).'),
  source_id: Text(300).nullable(),
  address: Text(300).nullable(),
  city: Text(300).nullable(),
  county: Text(300).nullable(),
  owner: Text(300).nullable(),
  attributes: z.record(z.string(), z.union([z.string().max(300), z.number(), z.boolean()])).describe('Other columns of the source row (up to 40).'),
  vulnerability: VulnerabilitySchema().nullable(),
  exposure: AssetExposureSchema().nullable().optional().describe('Written by `POST /hazards/flood-analysis` with `apply_to_assets: true`.'),
  vulnerability_level: z.enum([...VULNERABILITY_LEVELS, NOT_ASSESSED]),
  impact_timeline: z.enum([...IMPACT_TIMELINES, NOT_ASSESSED]),
  import_id: Text(64),
  version: z.number().int().min(1).describe('Increases with every change; send it as `If-Match` (or `version`) when updating.'),
  created_at: Timestamp(),
  updated_at: Timestamp(),
}).openapi('Asset'));

export const AssetWithHistorySchema = onFirstUse(() => AssetSchema().extend({
  vulnerability_history: z.array(z.object({ version: z.number().int(), changed_at: Timestamp(), vulnerability: VulnerabilitySchema() })).max(50)
    .describe('Earlier and current vulnerability assessments, oldest first (the last 50).'),
}).openapi('AssetWithHistory'));

export const AssetListSchema = onFirstUse(() => z.object({
  data: z.array(AssetSchema()).max(100),
  next_cursor: z.string().max(2000).nullable(),
}).openapi('AssetList'));

export const ASSET_EXPORT_FORMATS = ['json', 'geojson', 'csv', 'xlsx'] as const;

export const ListAssetsQuery = onFirstUse(() => z.object({
  jurisdiction: JurisdictionParam().optional().describe('Only this jurisdiction\'s assets; all of the account\'s when omitted.'),
  category: StoredCategory().optional(),
  vulnerability_level: z.enum([...VULNERABILITY_LEVELS, NOT_ASSESSED]).optional(),
  impact_timeline: z.enum([...IMPACT_TIMELINES, NOT_ASSESSED]).optional(),
  format: z.enum(ASSET_EXPORT_FORMATS).default('json')
    .describe('`json`: a page (`limit`, `cursor`). `geojson` (FeatureCollection, RFC 7946), `csv`, `xlsx`: every matching asset (up to 100,000) as a download.'),
  sort: z.enum(ASSET_SORTS).optional()
    .describe('`-vulnerability_score` gives the prioritized list of impacted assets (highest score first, then deepest, earliest exposed); also `vulnerability_score`, `name`, `first_exposed_year` (earliest first). Unscored assets come last. Applies to exports too.'),
  limit: LimitParam(),
  cursor: CursorParam(),
}).strict());

export const ImportParams = onFirstUse(() => z.object({ import_id: z.string().regex(/^imp_[a-z0-9]{10,40}$/, 'Not an import id') }));
export const AssetParams = onFirstUse(() => z.object({ asset_id: z.string().regex(/^a_[0-9a-f]{24}$/, 'Not an asset id') }));

export const VulnerabilityBody = onFirstUse(() => z.object({
  hazard_type: z.enum(HAZARD_TYPES),
  scenario: z.enum(SLR_SCENARIOS).optional().describe('NOAA 2022 sea level rise scenario the assessment used.'),
  exposure: Score().optional().describe('0–1: how much of the hazard reaches the asset.'),
  sensitivity: Score().optional().describe('0–1: consequence of the asset being affected.'),
  adaptive_capacity: Score().describe('0–1: ability to cope or recover (1 = fully able).'),
  vulnerability_score: Score().optional().describe('0–1: an assessor\'s own score, instead of exposure and sensitivity.'),
  first_exposed_year: z.number().int().min(2000).max(2150).nullable()
    .describe('Earliest planning horizon (year) at which the asset is exposed; null when it is not exposed in any horizon assessed.'),
  flood_depth_ft: z.number().min(-50).max(100).optional().describe('Flood depth at the asset, feet (NAVD88-based analysis).'),
  notes: z.string().max(2000).optional(),
  version: z.number().int().min(1).optional().describe('The version you read; a mismatch answers 409 (or send it as `If-Match`).'),
}).strict().superRefine((body, ctx) => {
  const direct = body.vulnerability_score !== undefined;
  const parts = body.exposure !== undefined || body.sensitivity !== undefined;
  if (direct && parts) {
    ctx.addIssue({ code: 'custom', path: ['vulnerability_score'], message: 'Give either vulnerability_score or exposure and sensitivity, not both' });
  } else if (!direct) {
    if (body.exposure === undefined) ctx.addIssue({ code: 'custom', path: ['exposure'], message: 'Required (with sensitivity) unless vulnerability_score is given' });
    if (body.sensitivity === undefined) ctx.addIssue({ code: 'custom', path: ['sensitivity'], message: 'Required (with exposure) unless vulnerability_score is given' });
  }
}).openapi('AssetVulnerabilityUpdate'));

export const GisMultipartBody = onFirstUse(() => z.object({
  file: z.string().max(6_000_000).openapi({ format: 'binary' }).describe('GeoJSON (.geojson/.json), zipped Shapefile (.zip) or GeoPackage (.gpkg).'),
  coordinate_system: z.string().trim().min(1).max(200).describe('The coordinate system you state for the deliverable, as `EPSG:<code>` (DEP: EPSG:3087, 6439 or 3086).'),
  metadata: z.string().max(2_000_000).optional().describe('FGDC CSDGM or ISO 19115 XML (text field or file part). Without it, a `.shp.xml`/`.xml` inside the zip, or the GeoPackage metadata linked to the layer, is used.'),
  layer: z.string().trim().min(1).max(200).optional().describe('The GeoPackage feature layer (table) to check; needed when the package holds more than one.'),
}).openapi('GisValidationForm'));

export const GisFields = onFirstUse(() => z.object({
  coordinate_system: GisMultipartBody().shape.coordinate_system,
  metadata: GisMultipartBody().shape.metadata,
  layer: GisMultipartBody().shape.layer,
}).strict());

const GisIssueSchema = onFirstUse(() => z.object({
  code: Text(60),
  message: Text(1000),
  feature: z.number().int().nullable().describe('1-based feature number, null for the layer as a whole.'),
  field: Text(300).nullable(),
  hint: Text(500).describe('How to fix it.'),
}));

export const GisReportSchema = onFirstUse(() => z.object({
  valid: z.boolean().describe('True when there is no error (warnings allowed).'),
  format: z.enum(['geojson', 'shapefile', 'geopackage']),
  layer: Text(200).nullable().describe('The GeoPackage layer checked; null for GeoJSON and Shapefiles.'),
  feature_count: z.number().int().min(0),
  geometry_types: z.record(z.string(), z.number().int()),
  crs: z.object({
    declared: Text(200),
    declared_epsg: z.number().int().nullable(),
    detected_epsg: z.number().int().nullable(),
    detected_name: Text(300).nullable(),
    detected_from: z.enum(['prj', 'geojson_crs', 'rfc7946_default', 'gpkg_srs', 'none']),
    dep_accepted: z.boolean(),
  }),
  extent_wgs84: z.object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() }).nullable(),
  attributes: z.object({
    mapped: z.record(z.string(), z.union([Text(300), z.array(Text(300)).max(20), z.null()])),
    missing_required: z.array(Text(40)).max(10),
    missing_recommended: z.array(Text(40)).max(10),
  }),
  metadata: z.object({
    standard: z.enum(['fgdc_csdgm', 'iso_19115']).nullable(),
    source: z.enum(['request', 'archive']).nullable(),
    present: z.array(Text(100)).max(50),
    missing_required: z.array(Text(100)).max(50),
    missing_recommended: z.array(Text(100)).max(50),
    problem: z.enum(['not_xml', 'unknown_standard']).optional(),
    detail: Text(200).optional().describe('With `not_xml`: where and why the XML is not well-formed.'),
  }),
  spatial_index: z.object({
    status: z.enum(['valid', 'missing', 'invalid']).describe('`valid`: a registered R-tree (GeoPackage extension gpkg_rtree_index) whose leaves hold exactly the features with a geometry, each inside its cell; `missing`: none (GIS tools build one on demand); `invalid`: present but inconsistent (also a warning `spatial_index_invalid`).'),
    indexed_features: z.number().int().min(0).nullable().describe('Features the index holds; null without a readable index.'),
    detail: Text(400).nullable().describe('Why the index is missing or invalid; null when valid.'),
  }).nullable().describe('The GeoPackage layer\'s spatial index, read from the R-tree\'s own tables; a check, never an error. Null for GeoJSON and Shapefiles.'),
  errors: z.array(GisIssueSchema()).max(200),
  warnings: z.array(GisIssueSchema()).max(200),
  error_count: z.number().int().min(0),
  warning_count: z.number().int().min(0),
  issues_truncated: z.boolean(),
}).openapi('GisValidationReport'));
