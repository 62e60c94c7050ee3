import type { Geometry } from 'geojson';

/** Secondary ports of the evidence and deliverables use cases. */

/** A local datum check as evidence and report carry it: `agrees`, `differs` or `no_station_nearby`, and its note. */
export interface DatumCheckNote {
  status: string;
  note: string;
}

export interface ComponentEvidence {
  component: string;
  status: string;
  source?: string;
  /** The gauge of a `tide_gauge_gev` fit, or the names given to the loaded layers. */
  source_detail?: string[];
  return_periods_years?: number[];
  /** Tidal: every result gave tidal flood days (per scenario and horizon). */
  flood_days_reported?: boolean;
}

/** What one flood analysis linked to an assessment ran and found: the checklist's evidence. */
export interface AnalysisEvidence {
  analysis_id: string;
  assessment_id: string;
  analysed_at: string;
  boundary: { source: 'jurisdiction' | 'boundary_geojson'; jurisdiction_id: string | null; area_km2: number | null; counties: string[] };
  /**
   * Components requested and their outcome (`ok`, `partial`, `no_data`). `source`: where the
   * component's water levels came from (`tide_gauge_gev`: this API's GEV fit to a tide gauge's
   * annual maxima; `loaded_layers` with the layers' stated `layer_sources`); `return_periods_years`:
   * the events it produced. Both absent in evidence kept before they were recorded.
   */
  components: ComponentEvidence[];
  scenarios: string[];
  planning_horizons: number[];
  /** `elevation_model_id`: the model's id where it has one; absent in evidence kept before it was recorded. */
  elevation: { status: string; source_name: string | null; native_resolution: string | null; cell_size_m: number | null; elevation_model_id?: string };
  gauges: string[];
  /**
   * How the gauges were chosen and why (a single gauge only on the caller's recorded choice); absent in
   * evidence kept before it was recorded. `cautions`: the answer's, when it had any.
   */
  gauge_selection?: { method: string; reason: string; cautions?: string[] };
  /** The tidal component's local datum check; absent without a tidal result or in evidence kept before it was recorded. */
  tidal_datum_check?: DatumCheckNote;
  assets_inside: number;
  /** Assets whose exposure was written (`apply_to_assets`), null when not applied. */
  assets_applied: number | null;
  /** The full analysis answer and the inundation extents, in the blob store. */
  result_key: string;
  extents_key: string | null;
}

/** An asset import linked to an assessment, as it stands when the checklist is read. */
export interface ImportEvidence {
  import_id: string;
  filename: string;
  status: string;
  /** Assets the import accepted (null until it completes). */
  asset_count: number | null;
  created_at: string;
}

export interface EvidenceStore {
  putAnalysis(accountId: string, evidence: AnalysisEvidence): Promise<void>;
  /** Oldest first. */
  listAnalyses(accountId: string, assessmentId: string): Promise<AnalysisEvidence[]>;
  /** Records that an import is evidence for the assessment. */
  linkImport(accountId: string, assessmentId: string, importId: string): Promise<void>;
  /** The linked imports that still exist (a deleted import is no evidence), oldest first. */
  listImports(accountId: string, assessmentId: string): Promise<ImportEvidence[]>;
}

/** The account's assets of one jurisdiction, as the checklist counts them. */
export interface JurisdictionAssetCounts {
  total: number;
  by_category: Record<string, number>;
}

export interface AssetCounter {
  countByCategory(accountId: string, jurisdictionId: string): Promise<JurisdictionAssetCounts>;
}

/** The one coordinate reference system of a GeoPackage's feature tables (a `gpkg_spatial_ref_sys` row). */
export interface GeoPackageSrs {
  id: number;
  name: string;
  organization: string;
  organizationId: number;
  /** OGC WKT. */
  definition: string;
  description: string;
}

/** One feature table's definition: its columns and its metadata record. */
export interface GeoPackageTableHead {
  name: string;
  title: string;
  description: string;
  geometryType: 'POINT' | 'LINESTRING' | 'POLYGON' | 'MULTIPOINT' | 'MULTILINESTRING' | 'MULTIPOLYGON';
  columns: readonly { name: string; type: 'TEXT' | 'REAL' | 'INTEGER' }[];
  /** The record `gpkg_metadata` holds for the table (scope `dataset`), referenced from `gpkg_metadata_reference`. */
  metadata: { standardUri: string; mimeType: string; document: string };
}

/** A feature already in the package's coordinate system. */
export interface ProjectedFeature {
  geometry: Geometry;
  properties: Readonly<Record<string, unknown>>;
}

/** One feature table with its features. */
export interface GeoPackageTable extends GeoPackageTableHead {
  features: readonly ProjectedFeature[];
}

export interface GeoPackageContent {
  srs: GeoPackageSrs;
  tables: readonly GeoPackageTable[];
}

/** One layer's Shapefile: its shape type, its dBASE fields in order, its projection (.prj WKT) and metadata (.shp.xml). */
export interface ShapefileLayerHead {
  name: string;
  shapeType: 'POINT' | 'POLYLINE' | 'POLYGON';
  fields: readonly string[];
  prj: string;
  metadataXml: string;
}
