import type { Database } from 'sql.js';
import { knownCrs } from '../crs';
import { AssetFileError } from '../file-error';
import { crsFromPrj, type CrsStatement, type FeatureFile, type RawFeature } from './features';
import { gpkgBlobToGeometry, WkbError } from './wkb';
import { checkSpatialIndex } from './geopackage-index';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const GPKG_APPLICATION_ID = 0x47504b47; // 'GPKG' (GeoPackage 1.2+)
const GP10_APPLICATION_ID = 0x47503130; // 'GP10' (GeoPackage 1.0)

export function isSqlite(head: Uint8Array): boolean {
  return head.length >= SQLITE_HEADER.length && SQLITE_HEADER.every((byte, i) => head[i] === byte);
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function rows<T>(db: Database, sql: string, params: (string | number)[] = []): T[] {
  const statement = db.prepare(sql, params);
  const result: T[] = [];
  try {
    while (statement.step()) result.push(statement.getAsObject() as T);
  } finally {
    statement.free();
  }
  return result;
}

/** The layer's coordinate system: an EPSG code this API knows, else the WKT the package holds. */
function crsOfLayer(db: Database, srsId: number): CrsStatement {
  const [srs] = rows<{ organization: string; organization_coordsys_id: number; definition: string; srs_name: string }>(
    db, 'SELECT organization, organization_coordsys_id, definition, srs_name FROM gpkg_spatial_ref_sys WHERE srs_id = ?', [srsId]);
  if (!srs) return { source: 'gpkg_srs', unreadable: `The layer's srs_id ${srsId} is not in gpkg_spatial_ref_sys.` };
  if (srs.organization.toUpperCase() === 'EPSG' && knownCrs(srs.organization_coordsys_id)) {
    const known = knownCrs(srs.organization_coordsys_id)!;
    return { source: 'gpkg_srs', detected: { epsg: srs.organization_coordsys_id, name: known.name, projected: known.projected }, wkt: srs.definition };
  }
  if (srsId <= 0) return { source: 'none' }; // GeoPackage's "undefined" systems state nothing
  return { ...crsFromPrj(srs.definition), source: 'gpkg_srs' };
}

/** The metadata document the package links to the layer (or to the whole package). */
function metadataOf(db: Database, table: string): string | undefined {
  const hasMetadata = rows(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('gpkg_metadata', 'gpkg_metadata_reference')").length === 2;
  if (!hasMetadata) return undefined;
  const [linked] = rows<{ metadata: string }>(db,
    `SELECT m.metadata FROM gpkg_metadata_reference r JOIN gpkg_metadata m ON m.id = r.md_file_id
     WHERE (r.reference_scope = 'table' AND r.table_name = ?) OR r.reference_scope = 'geopackage'
     ORDER BY r.reference_scope = 'table' DESC, m.id LIMIT 1`, [table]);
  return linked?.metadata;
}

/**
 * Opens a GeoPackage (SQLite in WebAssembly through sql.js: no native module) and reads one feature
 * layer: the one named, or the only one. Attribute columns keep their order; geometry blobs become
 * GeoJSON in the layer's own coordinate system; the layer's metadata comes from the metadata
 * extension.
 */
export async function readGeoPackage(buffer: Buffer, layer?: string): Promise<FeatureFile> {
  if (buffer.length === 0) throw new AssetFileError('empty_file', 'The file is empty.');
  if (!isSqlite(buffer)) throw new AssetFileError('malformed_geopackage', 'The file is not a GeoPackage (no SQLite header).');
  // Loaded on first use: most requests of the function read no GeoPackage.
  const { default: initSqlJs } = await import('sql.js');
  let db: Database;
  try {
    db = new (await initSqlJs()).Database(buffer);
  } catch (error) {
    throw new AssetFileError('malformed_geopackage', `The GeoPackage cannot be opened: ${(error as Error).message}`);
  }
  try {
    let layers: { table_name: string; column_name: string; srs_id: number }[];
    try {
      const [{ application_id: applicationId } = { application_id: 0 }] = rows<{ application_id: number }>(db, 'PRAGMA application_id');
      if (applicationId !== GPKG_APPLICATION_ID && applicationId !== GP10_APPLICATION_ID) {
        throw new AssetFileError('malformed_geopackage', 'The file is an SQLite database but not a GeoPackage (its application_id is not "GPKG").');
      }
      layers = rows(db, `SELECT g.table_name, g.column_name, g.srs_id FROM gpkg_geometry_columns g
        JOIN gpkg_contents c ON c.table_name = g.table_name WHERE c.data_type = 'features' ORDER BY g.table_name`);
    } catch (error) {
      if (error instanceof AssetFileError) throw error;
      throw new AssetFileError('malformed_geopackage', `The GeoPackage cannot be read: ${(error as Error).message}`);
    }
    const names = layers.map((l) => l.table_name);
    if (layers.length === 0) throw new AssetFileError('malformed_geopackage', 'The GeoPackage holds no feature layer.');
    const chosen = layer === undefined ? (layers.length === 1 ? layers[0] : undefined) : layers.find((l) => l.table_name === layer);
    if (!chosen) {
      throw new AssetFileError('layer_not_chosen', layer === undefined
        ? `The GeoPackage holds ${layers.length} layers (${names.join(', ')}); name the one to read in "layer".`
        : `The GeoPackage holds no feature layer "${layer}" (layers: ${names.join(', ')}).`);
    }
    const geometryColumn = chosen.column_name;
    const features: RawFeature[] = [];
    let headers: string[] = [];
    try {
      const statement = db.prepare(`SELECT * FROM ${quoted(chosen.table_name)}`);
      try {
        headers = statement.getColumnNames().filter((c) => c !== geometryColumn && c.toLowerCase() !== 'fid');
        while (statement.step()) {
          const row = statement.getAsObject();
          const blob = row[geometryColumn];
          const index = features.length + 1;
          const properties = Object.fromEntries(headers.map((h) => [h, row[h] instanceof Uint8Array ? null : row[h]]));
          try {
            features.push({ index, properties, geometry: blob instanceof Uint8Array ? gpkgBlobToGeometry(blob) : null });
          } catch (error) {
            if (!(error instanceof WkbError)) throw error;
            features.push({ index, properties, geometry: null, malformed: `Feature ${index}: ${error.message}` });
          }
        }
      } finally {
        statement.free();
      }
    } catch (error) {
      throw new AssetFileError('malformed_geopackage', `The layer "${chosen.table_name}" cannot be read: ${(error as Error).message}`);
    }
    if (features.length === 0) throw new AssetFileError('empty_file', `The layer "${chosen.table_name}" has no features.`);
    return {
      format: 'geopackage', layer: chosen.table_name, crs: crsOfLayer(db, chosen.srs_id), headers, features, metadataXml: metadataOf(db, chosen.table_name),
      spatialIndex: checkSpatialIndex((sql, params) => rows(db, sql, params), chosen.table_name, geometryColumn),
    };
  } finally {
    db.close();
  }
}
