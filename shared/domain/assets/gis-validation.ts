import type { Geometry } from 'geojson';
import { matchColumns } from './columns';
import { DEP_ACCEPTED_EPSG, knownCrs, parseCrsReference, toWgs84 } from './crs';
import { checkCoordinates, FLORIDA_BBOX } from './florida-extent';
import type { CrsStatement, FeatureFile } from './formats/features';
import type { SpatialIndexCheck } from './formats/geopackage-index';
import { crossingMessage, forEachPosition, isPolygonal, POLYGON_REPAIR_HINT, reprojectGeometry, selfIntersection, structuralProblems } from './geometry';
import { checkMetadata, type MetadataCheck } from './metadata';

/**
 * Checks a GIS deliverable before it goes to DEP (s. 380.093(3)(c): mapping data "projected to the
 * appropriate coordinate system, with metadata"): the coordinate system declared vs the one the file
 * states, geometry validity and extent, the attributes a critical-asset layer needs, and metadata
 * completeness. Every finding has a code, the feature (1-based) or field, and a fix hint.
 */

export interface GisIssue {
  code: string;
  message: string;
  feature: number | null;
  field: string | null;
  hint: string;
}

export interface GisReport {
  valid: boolean;
  format: FeatureFile['format'];
  layer: string | null;
  feature_count: number;
  geometry_types: Record<string, number>;
  crs: {
    declared: string;
    declared_epsg: number | null;
    detected_epsg: number | null;
    detected_name: string | null;
    detected_from: CrsStatement['source'];
    dep_accepted: boolean;
  };
  /** WGS84 bounds of all positions; null when the coordinate system is unknown. */
  extent_wgs84: { west: number; south: number; east: number; north: number } | null;
  attributes: {
    mapped: Record<string, string | string[] | null>;
    missing_required: string[];
    missing_recommended: string[];
  };
  metadata: MetadataCheck & { source: 'request' | 'archive' | null };
  /** A GeoPackage layer's R-tree spatial index (a check, never an error); null for GeoJSON and Shapefiles. */
  spatial_index: SpatialIndexCheck | null;
  errors: GisIssue[];
  warnings: GisIssue[];
  error_count: number;
  warning_count: number;
  /** More issues than the lists hold (the counts are complete). */
  issues_truncated: boolean;
}

const MAX_LISTED = 200;
const DEP_CRS_TEXT = `Florida GDL Albers (EPSG:${DEP_ACCEPTED_EPSG.join(', ')})`;
const REPROJECT_HINT = 'Project the layer to NAD83(HARN) / Florida GDL Albers (EPSG:3087), as DEP\'s statewide critical-asset layers are, and export again with its .prj.';

class IssueList {
  readonly errors: GisIssue[] = [];
  readonly warnings: GisIssue[] = [];
  errorCount = 0;
  warningCount = 0;

  add(severity: 'error' | 'warning', issue: Omit<GisIssue, 'feature' | 'field'> & Partial<GisIssue>): void {
    const full: GisIssue = { feature: null, field: null, ...issue };
    if (severity === 'error') {
      this.errorCount++;
      if (this.errors.length < MAX_LISTED) this.errors.push(full);
    } else {
      this.warningCount++;
      if (this.warnings.length < MAX_LISTED) this.warnings.push(full);
    }
  }
}

function checkCrs(crs: CrsStatement, declared: string, issues: IssueList): GisReport['crs'] {
  const declaredEpsg = parseCrsReference(declared) ?? null;
  const detected = crs.detected;
  const result: GisReport['crs'] = {
    declared,
    declared_epsg: declaredEpsg,
    detected_epsg: detected?.epsg ?? null,
    detected_name: detected?.name ?? null,
    detected_from: crs.source,
    dep_accepted: detected?.epsg !== null && detected?.epsg !== undefined && DEP_ACCEPTED_EPSG.includes(detected.epsg),
  };
  if (declaredEpsg === null) {
    issues.add('error', { code: 'crs_declared_invalid', field: 'coordinate_system', message: `"${declared}" is not an EPSG reference.`, hint: 'Declare the coordinate system as EPSG:<code>, e.g. EPSG:3087.' });
  }
  if (crs.unreadable) {
    issues.add('error', { code: 'crs_unreadable', field: crs.source === 'prj' ? '.prj' : 'crs', message: `The coordinate system in the file cannot be read: ${crs.unreadable}`, hint: REPROJECT_HINT });
  } else if (!detected) {
    issues.add('error', { code: 'crs_missing', field: '.prj', message: 'The Shapefile has no .prj: its coordinate system is unknown.', hint: 'Include the .prj file in the zip (export the layer again from your GIS).' });
  } else if (detected.epsg === null) {
    issues.add('error', { code: 'crs_unsupported', field: crs.source === 'prj' ? '.prj' : 'crs', message: `The file is in "${detected.name}", a coordinate system this check does not know.`, hint: REPROJECT_HINT });
  } else {
    if (declaredEpsg !== null && declaredEpsg !== detected.epsg) {
      issues.add('error', { code: 'crs_mismatch', field: 'coordinate_system', message: `Declared EPSG:${declaredEpsg} but the file is in EPSG:${detected.epsg} (${detected.name}).`, hint: 'Declare the system the file is actually in, or reproject the file to the declared one.' });
    }
    if (!result.dep_accepted) {
      issues.add('error', { code: 'crs_not_accepted', field: crs.source === 'prj' ? '.prj' : 'crs', message: `EPSG:${detected.epsg} (${detected.name}) is not ${DEP_CRS_TEXT}.`, hint: REPROJECT_HINT });
    }
  }
  return result;
}

function checkGeometry(index: number, raw: unknown, project: ((g: Geometry) => Geometry) | undefined, issues: IssueList, extent: { west: number; south: number; east: number; north: number }): string | undefined {
  const problems = structuralProblems(raw);
  if (problems.length > 0) {
    for (const p of problems) issues.add('error', { code: p.code, feature: index, field: 'geometry', message: p.message, hint: p.hint });
    return undefined;
  }
  const geometry = raw as Geometry;
  const crossing = selfIntersection(geometry);
  if (crossing === 'skipped') {
    issues.add('warning', { code: 'geometry_check_skipped', feature: index, field: 'geometry', message: 'Too many vertices to test for self-intersection here.', hint: 'Run "Check Geometry" in your GIS on this feature.' });
  } else if (crossing) {
    const polygonal = isPolygonal(geometry);
    issues.add(polygonal ? 'error' : 'warning', {
      code: 'self_intersection',
      feature: index,
      field: 'geometry',
      message: `${crossingMessage(geometry.type, crossing.at)} in the file's coordinates.`,
      hint: polygonal ? POLYGON_REPAIR_HINT : 'Split the line where it crosses itself if it should be simple.',
    });
  }
  if (project) {
    let outside = 0;
    let swapped = 0;
    let total = 0;
    forEachPosition(project(geometry), ([lon, lat]) => {
      total++;
      const verdict = checkCoordinates(lon!, lat!);
      if (verdict === 'ok') {
        extent.west = Math.min(extent.west, lon!);
        extent.east = Math.max(extent.east, lon!);
        extent.south = Math.min(extent.south, lat!);
        extent.north = Math.max(extent.north, lat!);
      } else if (verdict === 'swapped') swapped++;
      else outside++;
    });
    if (swapped === total) {
      issues.add('error', { code: 'coordinate_order', feature: index, field: 'geometry', message: 'The positions are in Florida only with latitude and longitude exchanged.', hint: 'Write positions as [longitude, latitude] (RFC 7946), or fix the axis order of the export.' });
    } else if (outside + swapped > 0) {
      issues.add('error', { code: 'outside_florida', feature: index, field: 'geometry', message: `${outside + swapped} of ${total} positions are outside Florida (lon ${FLORIDA_BBOX.west}…${FLORIDA_BBOX.east}, lat ${FLORIDA_BBOX.south}…${FLORIDA_BBOX.north}).`, hint: 'Check the coordinate system stated in the file, and remove features that do not belong to the layer.' });
    }
  }
  return geometry.type;
}

function checkAttributes(headers: string[], issues: IssueList): { report: GisReport['attributes']; nameColumn?: string } {
  const mapping = matchColumns(headers);
  const mapped: Record<string, string | string[] | null> = {
    name: mapping.name ?? null,
    asset_type: mapping.type_columns.length > 0 ? mapping.type_columns : null,
    source_id: mapping.source_id ?? null,
    owner: mapping.owner ?? null,
    address: mapping.address ?? null,
  };
  const missingRequired = (['name', 'asset_type'] as const).filter((field) => mapped[field] === null);
  const missingRecommended = (['source_id', 'owner', 'address'] as const).filter((field) => mapped[field] === null);
  for (const field of missingRequired) {
    issues.add('error', { code: 'missing_attribute', field, message: `No ${field === 'name' ? 'asset name' : 'asset type'} attribute.`, hint: `Add a "${field === 'name' ? 'NAME' : 'ASSET_TYPE'}" field to the attribute table (s. 380.093(2)(a) asset type, or the category).` });
  }
  for (const field of missingRecommended) {
    issues.add('warning', { code: 'missing_recommended_attribute', field, message: `No ${field} attribute.`, hint: `Add a "${field.toUpperCase()}" field: DEP's asset lists identify assets by id, owner and location.` });
  }
  return { report: { mapped, missing_required: [...missingRequired], missing_recommended: [...missingRecommended] }, nameColumn: mapping.name };
}

/** Metadata found in `source`; none at all (`text` undefined or blank) is an error with no source. */
function checkMetadataText(text: string | undefined, source: 'request' | 'archive', issues: IssueList): GisReport['metadata'] {
  if (text === undefined || text.trim() === '') {
    issues.add('error', { code: 'metadata_missing', field: 'metadata', message: 'No metadata was sent and none is inside the archive.', hint: 'Send the layer\'s FGDC CSDGM (or ISO 19115) XML in the "metadata" field, or include the .shp.xml in the zip.' });
    return { standard: null, present: [], missing_required: [], missing_recommended: [], source: null };
  }
  const check = checkMetadata(text);
  if (check.problem) {
    issues.add('error', {
      code: check.problem === 'not_xml' ? 'metadata_not_xml' : 'metadata_standard_unknown',
      field: 'metadata',
      message: check.problem === 'not_xml' ? `The metadata is not well-formed XML${check.detail ? ` (${check.detail})` : ''}.` : 'The metadata is neither FGDC CSDGM nor ISO 19115 XML (ArcGIS item metadata must be exported to one of them).',
      hint: 'Export the metadata as FGDC CSDGM XML (Florida\'s convention) or ISO 19115/19139 XML.',
    });
  }
  for (const element of check.missing_required) {
    issues.add('error', { code: 'metadata_incomplete', field: element, message: `Required ${check.standard === 'fgdc_csdgm' ? 'FGDC CSDGM' : 'ISO 19115'} element ${element} is missing or empty.`, hint: `Fill in ${element} in your metadata editor.` });
  }
  for (const element of check.missing_recommended) {
    issues.add('warning', { code: 'metadata_recommended_missing', field: element, message: `Recommended element ${element} is missing or empty.`, hint: `Fill in ${element} if you can.` });
  }
  return { ...check, source };
}

export async function validateGisDeliverable(file: FeatureFile, input: { coordinateSystem: string; metadata?: string }): Promise<GisReport> {
  const issues = new IssueList();
  const crs = checkCrs(file.crs, input.coordinateSystem, issues);
  const epsg = file.crs.detected?.epsg;
  const project = epsg !== null && epsg !== undefined && knownCrs(epsg)
    ? ((projector) => (g: Geometry) => reprojectGeometry(g, projector))(toWgs84(epsg))
    : undefined;
  if (!project) {
    issues.add('warning', { code: 'extent_not_checked', message: 'Without a known coordinate system the positions cannot be checked against Florida.', hint: REPROJECT_HINT });
  }
  const { report: attributes, nameColumn } = checkAttributes(file.headers, issues);

  const extent = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  const geometryTypes: Record<string, number> = {};
  let count = 0;
  for await (const feature of file.features) {
    count++;
    if (feature.malformed !== undefined) {
      issues.add('error', { code: 'invalid_feature', feature: feature.index, message: feature.malformed, hint: 'Each member of "features" must be {"type": "Feature", "geometry": …, "properties": …}.' });
      continue;
    }
    const type = checkGeometry(feature.index, feature.geometry, project, issues, extent);
    if (type) geometryTypes[type] = (geometryTypes[type] ?? 0) + 1;
    if (nameColumn) {
      const name = feature.properties[nameColumn];
      if (name === null || name === undefined || String(name).trim() === '') {
        issues.add('warning', { code: 'empty_attribute', feature: feature.index, field: nameColumn, message: 'The asset name is empty.', hint: 'Name every asset: DEP\'s lists identify assets by name.' });
      }
    }
  }
  if (Object.keys(geometryTypes).length > 1) {
    issues.add('warning', { code: 'mixed_geometry_types', message: `The layer mixes ${Object.keys(geometryTypes).join(', ')}.`, hint: 'Deliver one geometry type per layer (points, lines or polygons).' });
  }

  if (file.spatialIndex?.status === 'invalid') {
    issues.add('warning', { code: 'spatial_index_invalid', message: `The layer's spatial index is not valid: ${file.spatialIndex.detail}`, hint: 'Rebuild the index, e.g. with GDAL: ogrinfo file.gpkg -sql "SELECT DisableSpatialIndex(\'layer\', \'geom\')" then the same with CreateSpatialIndex; until then queries by area may miss features.' });
  }

  const metadata = input.metadata !== undefined
    ? checkMetadataText(input.metadata, 'request', issues)
    : checkMetadataText(file.metadataXml, 'archive', issues);

  return {
    valid: issues.errorCount === 0,
    format: file.format,
    layer: file.layer ?? null,
    feature_count: count,
    geometry_types: geometryTypes,
    crs,
    extent_wgs84: project && Number.isFinite(extent.west) ? extent : null,
    attributes,
    metadata,
    spatial_index: file.spatialIndex ?? null,
    errors: issues.errors,
    warnings: issues.warnings,
    error_count: issues.errorCount,
    warning_count: issues.warningCount,
    issues_truncated: issues.errors.length < issues.errorCount || issues.warnings.length < issues.warningCount,
  };
}
