import initSqlJs, { type Database, type SqlJsStatic, type Statement } from 'sql.js';
import type { Geometry, Position } from 'geojson';
import type { GeoPackageContent, GeoPackageSrs, GeoPackageTableHead, ProjectedFeature } from '../domain/deliverables/ports';
import type { FeatureSink, GeoPackageBuilder, GeoPackageWriter } from '../application/deliverables/ports';
import { writeSpatialIndex, type IndexEntry } from './geopackage-rtree';

/**
 * GeoPackage 1.3 over sql.js (SQLite compiled to WebAssembly): the same file on every machine and
 * Lambda architecture, with no native module. The core tables, one feature table per layer with
 * its extent in `gpkg_contents` and its R-tree spatial index (written without SQLite's R*Tree
 * module, which sql.js lacks: see geopackage-rtree.ts), and the metadata extension.
 */
const GPKG_APPLICATION_ID = 0x47504b47; // 'GPKG'
const GPKG_VERSION = 10300;

const SCHEMA = `
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT DEFAULT '',
  last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL,
  z TINYINT NOT NULL, m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name),
  CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name), CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL, scope TEXT NOT NULL,
  CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
CREATE TABLE gpkg_metadata (id INTEGER CONSTRAINT m_pk PRIMARY KEY ASC NOT NULL, md_scope TEXT NOT NULL DEFAULT 'dataset', md_standard_uri TEXT NOT NULL,
  mime_type TEXT NOT NULL DEFAULT 'text/xml', metadata TEXT NOT NULL DEFAULT '');
CREATE TABLE gpkg_metadata_reference (reference_scope TEXT NOT NULL, table_name TEXT, column_name TEXT, row_id_value INTEGER,
  timestamp DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), md_file_id INTEGER NOT NULL, md_parent_id INTEGER,
  CONSTRAINT crmr_mfi_fk FOREIGN KEY (md_file_id) REFERENCES gpkg_metadata(id), CONSTRAINT crmr_mpi_fk FOREIGN KEY (md_parent_id) REFERENCES gpkg_metadata(id));
INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
  ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
  ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
INSERT INTO gpkg_extensions VALUES ('gpkg_metadata', NULL, 'gpkg_metadata', 'http://www.geopackage.org/spec/#extension_metadata', 'read-write'),
  ('gpkg_metadata_reference', NULL, 'gpkg_metadata', 'http://www.geopackage.org/spec/#extension_metadata', 'read-write');
`;

let sqlite: Promise<SqlJsStatic> | undefined;

export class SqlJsGeoPackageWriter implements GeoPackageWriter {
  async open(srs: GeoPackageSrs): Promise<GeoPackageBuilder> {
    sqlite ??= initSqlJs();
    const db = new (await sqlite).Database();
    try {
      db.exec(`PRAGMA application_id = ${GPKG_APPLICATION_ID}; PRAGMA user_version = ${GPKG_VERSION};${SCHEMA}`);
      db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', [srs.name, srs.id, srs.organization, srs.organizationId, srs.definition, srs.description]);
      db.run('BEGIN');
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqlJsGeoPackageBuilder(db, srs.id);
  }

  async write(content: GeoPackageContent): Promise<Buffer> {
    const builder = await this.open(content.srs);
    for (const table of content.tables) {
      const sink = builder.table(table);
      for (const feature of table.features) sink.add(feature);
    }
    return builder.finish();
  }
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** A table being filled: its insert statement, its extent so far and its index entries (a few numbers a feature). */
interface OpenTable {
  head: GeoPackageTableHead;
  insert: Statement;
  rows: number;
  extent: Extent | undefined;
  indexed: IndexEntry[];
}

/**
 * The database stays in SQLite's own pages (WebAssembly memory) as rows arrive; the extents, the
 * spatial indexes and the metadata are written once every row is in.
 */
class SqlJsGeoPackageBuilder implements GeoPackageBuilder {
  private readonly tables: OpenTable[] = [];

  constructor(private readonly db: Database, private readonly srsId: number) {}

  table(head: GeoPackageTableHead): FeatureSink {
    const { db } = this;
    db.run('INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?, \'features\', ?, ?, ?)', [head.name, head.title, head.description, this.srsId]);
    db.run('INSERT INTO gpkg_geometry_columns VALUES (?, \'geom\', ?, ?, 0, 0)', [head.name, head.geometryType, this.srsId]);
    const columns = head.columns.map((c) => `${quoted(c.name)} ${c.type}`).join(', ');
    db.run(`CREATE TABLE ${quoted(head.name)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom ${head.geometryType}${columns ? `, ${columns}` : ''})`);
    const insert = db.prepare(`INSERT INTO ${quoted(head.name)} (fid, geom${head.columns.map((c) => `, ${quoted(c.name)}`).join('')}) VALUES (?, ?${', ?'.repeat(head.columns.length)})`);
    const table: OpenTable = { head, insert, rows: 0, extent: undefined, indexed: [] };
    this.tables.push(table);
    return { add: (feature) => this.insert(table, feature) };
  }

  private insert(table: OpenTable, feature: ProjectedFeature): void {
    const id = ++table.rows;
    table.insert.run([id, gpkgGeometry(feature.geometry, this.srsId), ...table.head.columns.map((c) => sqlValue(feature.properties[c.name]))]);
    const envelope = extentOf([feature.geometry]);
    // An empty geometry has no envelope and no place in the index (ST_IsEmpty in the triggers).
    if (!envelope) return;
    table.extent = table.extent ? widened(table.extent, envelope) : envelope;
    if ([envelope.minX, envelope.minY, envelope.maxX, envelope.maxY].every(Number.isFinite)) table.indexed.push({ id, envelope });
  }

  async finish(): Promise<Buffer> {
    const { db } = this;
    try {
      for (const table of this.tables) {
        table.insert.free();
        const { extent, head } = table;
        db.run('UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?', [extent?.minX ?? null, extent?.minY ?? null, extent?.maxX ?? null, extent?.maxY ?? null, head.name]);
        writeSpatialIndex(db, head.name, 'geom', 'fid', table.indexed);
        db.run('INSERT INTO gpkg_metadata (md_scope, md_standard_uri, mime_type, metadata) VALUES (\'dataset\', ?, ?, ?)', [head.metadata.standardUri, head.metadata.mimeType, head.metadata.document]);
        db.run('INSERT INTO gpkg_metadata_reference (reference_scope, table_name, md_file_id) VALUES (\'table\', ?, last_insert_rowid())', [head.name]);
      }
      db.run('COMMIT');
      return Buffer.from(db.export());
    } finally {
      db.close();
      // The index entries are a few numbers per feature: not kept past the file.
      this.tables.length = 0;
    }
  }
}

const widened = (a: Extent, b: Extent): Extent => ({ minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) });

function sqlValue(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return String(value);
}

interface Extent { minX: number; minY: number; maxX: number; maxY: number }

function positionsOf(geometry: Geometry): Position[] {
  switch (geometry.type) {
    case 'Point': return [geometry.coordinates];
    case 'MultiPoint': case 'LineString': return geometry.coordinates;
    case 'MultiLineString': case 'Polygon': return geometry.coordinates.flat();
    case 'MultiPolygon': return geometry.coordinates.flat(2);
    case 'GeometryCollection': return geometry.geometries.flatMap(positionsOf);
  }
}

/** The bounding box of every position, or undefined when there is none (an empty layer). */
export function extentOf(geometries: readonly Geometry[]): Extent | undefined {
  let extent: Extent | undefined;
  for (const geometry of geometries) {
    for (const [x, y] of positionsOf(geometry) as [number, number][]) {
      extent = extent
        ? { minX: Math.min(extent.minX, x), minY: Math.min(extent.minY, y), maxX: Math.max(extent.maxX, x), maxY: Math.max(extent.maxY, y) }
        : { minX: x, minY: y, maxX: x, maxY: y };
    }
  }
  return extent;
}

const WKB_TYPES = { Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6, GeometryCollection: 7 } as const;

/** OGC WKB, little-endian, 2D. */
function wkb(geometry: Geometry): Buffer {
  const parts: Buffer[] = [];
  const header = (type: number) => { const b = Buffer.alloc(5); b[0] = 1; b.writeUInt32LE(type, 1); parts.push(b); };
  const count = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); parts.push(b); };
  const points = (list: Position[]) => {
    const b = Buffer.alloc(16 * list.length);
    list.forEach((p, i) => { b.writeDoubleLE(p[0]!, 16 * i); b.writeDoubleLE(p[1]!, 16 * i + 8); });
    parts.push(b);
  };
  const rings = (list: Position[][]) => { count(list.length); list.forEach((ring) => { count(ring.length); points(ring); }); };
  header(WKB_TYPES[geometry.type]);
  switch (geometry.type) {
    case 'Point': points([geometry.coordinates]); break;
    case 'LineString': count(geometry.coordinates.length); points(geometry.coordinates); break;
    case 'Polygon': rings(geometry.coordinates); break;
    case 'MultiPoint': count(geometry.coordinates.length); geometry.coordinates.forEach((p) => parts.push(wkb({ type: 'Point', coordinates: p }))); break;
    case 'MultiLineString': count(geometry.coordinates.length); geometry.coordinates.forEach((l) => parts.push(wkb({ type: 'LineString', coordinates: l }))); break;
    case 'MultiPolygon': count(geometry.coordinates.length); geometry.coordinates.forEach((p) => parts.push(wkb({ type: 'Polygon', coordinates: p }))); break;
    case 'GeometryCollection': count(geometry.geometries.length); geometry.geometries.forEach((g) => parts.push(wkb(g))); break;
  }
  return Buffer.concat(parts);
}

/**
 * A GeoPackage geometry blob: `GP`, version 0, flags (little-endian; an xy envelope except for a
 * point, whose envelope is itself), the SRS id, the envelope, then the WKB.
 */
export function gpkgGeometry(geometry: Geometry, srsId: number): Uint8Array {
  const extent = geometry.type === 'Point' ? undefined : extentOf([geometry]);
  const header = Buffer.alloc(8 + (extent ? 32 : 0));
  header.write('GP', 0, 'latin1');
  header[2] = 0;
  header[3] = (extent ? 1 << 1 : 0) | (extent || geometry.type === 'Point' ? 0 : 1 << 4) | 1;
  header.writeInt32LE(srsId, 4);
  if (extent) [extent.minX, extent.maxX, extent.minY, extent.maxY].forEach((v, i) => header.writeDoubleLE(v, 8 + 8 * i));
  return Buffer.concat([header, wkb(geometry)]);
}
