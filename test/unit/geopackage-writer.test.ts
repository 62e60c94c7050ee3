import proj4 from 'proj4';
import albers from 'epsg-index/s/3087.json';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import type { GeoPackageContent, GeoPackageTable } from '../../shared/domain/deliverables/ports';
import { boundaryLayer } from '../../shared/domain/deliverables/gis-layers';
import { geoPackageContent } from '../../shared/domain/deliverables/gis-package';
import { withSqliteFile, type Sqlite } from '../helpers/sqlite';

/**
 * The GeoPackage writer read back with SQLite: the file's header, the core tables, extents computed
 * here from the input coordinates, the metadata extension, and geometry blobs decoded by hand.
 */

const SRS = { id: 32617, name: 'WGS 84 / UTM zone 17N', organization: 'EPSG', organizationId: 32617, definition: 'PROJCS["WGS 84 / UTM zone 17N"]', description: 'test' };
const RECORD = { standardUri: 'http://www.fgdc.gov/metadata/csdgm', mimeType: 'text/xml' };

const sites: GeoPackageTable = {
  name: 'sites', title: 'Sites', description: 'Points', geometryType: 'POINT',
  columns: [{ name: 'NAME', type: 'TEXT' }, { name: 'DEPTH "ft"', type: 'REAL' }, { name: 'OPEN', type: 'INTEGER' }],
  features: [
    { geometry: { type: 'Point', coordinates: [500_100.5, 2_700_000.25] }, properties: { NAME: 'a', 'DEPTH "ft"': 1.5, OPEN: true } },
    { geometry: { type: 'Point', coordinates: [499_900, 2_700_300] }, properties: { NAME: null, 'DEPTH "ft"': Number.NaN, OPEN: false } },
  ],
  metadata: { ...RECORD, document: '<metadata>sites</metadata>' },
};
const areas: GeoPackageTable = {
  name: 'areas', title: 'Areas', description: 'Polygons', geometryType: 'MULTIPOLYGON', columns: [],
  features: [{ geometry: { type: 'MultiPolygon', coordinates: [[[[10, 20], [30, 20], [30, 45], [10, 20]]], [[[-5, 0], [0, 0], [0, 5], [-5, 0]]]] }, properties: {} }],
  metadata: { ...RECORD, document: '<metadata>areas</metadata>' },
};
const empty: GeoPackageTable = { ...areas, name: 'empty', title: 'Empty', features: [], metadata: { ...RECORD, document: '<metadata>empty</metadata>' } };

async function opened(content: GeoPackageContent, use: (db: Sqlite, bytes: Buffer) => Promise<void> | void): Promise<void> {
  const bytes = await new SqlJsGeoPackageWriter().write(content);
  await withSqliteFile(bytes, (db) => use(db, bytes));
}

describe('the GeoPackage writer', () => {
  it('marks the file a GeoPackage 1.3 in the SQLite header (application_id "GPKG", user_version 10300)', async () => {
    await opened({ srs: SRS, tables: [sites] }, (_db, bytes) => {
      expect(bytes.toString('latin1', 0, 15)).toBe('SQLite format 3');
      expect(bytes.toString('latin1', 68, 72)).toBe('GPKG');
      expect(bytes.readUInt32BE(60)).toBe(10300);
    });
  });

  it('registers the SRS beside the three the standard requires, each table in contents and geometry columns with its real extent', async () => {
    await opened({ srs: SRS, tables: [sites, areas, empty] }, (db) => {
      expect(db.prepare('SELECT srs_id, organization, organization_coordsys_id FROM gpkg_spatial_ref_sys ORDER BY srs_id').all()).toEqual([
        { srs_id: -1, organization: 'NONE', organization_coordsys_id: -1 },
        { srs_id: 0, organization: 'NONE', organization_coordsys_id: 0 },
        { srs_id: 4326, organization: 'EPSG', organization_coordsys_id: 4326 },
        { srs_id: 32617, organization: 'EPSG', organization_coordsys_id: 32617 },
      ]);
      expect(db.prepare('SELECT table_name, data_type, identifier, min_x, min_y, max_x, max_y, srs_id FROM gpkg_contents ORDER BY table_name').all()).toEqual([
        { table_name: 'areas', data_type: 'features', identifier: 'Areas', min_x: -5, min_y: 0, max_x: 30, max_y: 45, srs_id: 32617 },
        { table_name: 'empty', data_type: 'features', identifier: 'Empty', min_x: null, min_y: null, max_x: null, max_y: null, srs_id: 32617 },
        { table_name: 'sites', data_type: 'features', identifier: 'Sites', min_x: 499_900, min_y: 2_700_000.25, max_x: 500_100.5, max_y: 2_700_300, srs_id: 32617 },
      ]);
      expect(db.prepare('SELECT table_name, column_name, geometry_type_name, srs_id, z, m FROM gpkg_geometry_columns ORDER BY table_name').all()).toEqual([
        { table_name: 'areas', column_name: 'geom', geometry_type_name: 'MULTIPOLYGON', srs_id: 32617, z: 0, m: 0 },
        { table_name: 'empty', column_name: 'geom', geometry_type_name: 'MULTIPOLYGON', srs_id: 32617, z: 0, m: 0 },
        { table_name: 'sites', column_name: 'geom', geometry_type_name: 'POINT', srs_id: 32617, z: 0, m: 0 },
      ]);
    });
  });

  it('keeps attribute values (a non-finite figure and an absent text as NULL, booleans as 0/1) under quoted column names', async () => {
    await opened({ srs: SRS, tables: [sites] }, (db) => {
      expect(db.prepare('SELECT fid, NAME, "DEPTH ""ft""" AS depth, OPEN FROM sites ORDER BY fid').all()).toEqual([
        { fid: 1, NAME: 'a', depth: 1.5, OPEN: 1 },
        { fid: 2, NAME: null, depth: null, OPEN: 0 },
      ]);
    });
  });

  it('links each table to its own metadata record through the metadata extension', async () => {
    await opened({ srs: SRS, tables: [sites, areas] }, (db) => {
      expect(db.prepare(`SELECT r.reference_scope, r.table_name, m.md_scope, m.metadata FROM gpkg_metadata_reference r JOIN gpkg_metadata m ON m.id = r.md_file_id ORDER BY r.table_name`).all()).toEqual([
        { reference_scope: 'table', table_name: 'areas', md_scope: 'dataset', metadata: '<metadata>areas</metadata>' },
        { reference_scope: 'table', table_name: 'sites', md_scope: 'dataset', metadata: '<metadata>sites</metadata>' },
      ]);
      expect(db.prepare("SELECT table_name, extension_name, scope FROM gpkg_extensions WHERE extension_name = 'gpkg_metadata' ORDER BY table_name").all()).toEqual([
        { table_name: 'gpkg_metadata', extension_name: 'gpkg_metadata', scope: 'read-write' },
        { table_name: 'gpkg_metadata_reference', extension_name: 'gpkg_metadata', scope: 'read-write' },
      ]);
    });
  });

  it('writes geometry blobs: GP header with the SRS, an xy envelope for all but points, then little-endian WKB', async () => {
    await opened({ srs: SRS, tables: [sites, areas] }, (db) => {
      const point = (db.prepare('SELECT geom FROM sites WHERE fid = 1').get() as { geom: Buffer }).geom;
      expect([point.toString('latin1', 0, 2), point[2], point[3], point.readInt32LE(4)]).toEqual(['GP', 0, 0b0000_0001, 32617]);
      expect([point[8], point.readUInt32LE(9), point.readDoubleLE(13), point.readDoubleLE(21), point.length]).toEqual([1, 1, 500_100.5, 2_700_000.25, 29]);

      const multi = (db.prepare('SELECT geom FROM areas').get() as { geom: Buffer }).geom;
      expect(multi[3]).toBe(0b0000_0011);
      expect([0, 1, 2, 3].map((i) => multi.readDoubleLE(8 + 8 * i))).toEqual([-5, 30, 0, 45]);
      let at = 40;
      const u32 = () => { const v = multi.readUInt32LE(at); at += 4; return v; };
      const f64 = () => { const v = multi.readDoubleLE(at); at += 8; return v; };
      const wkbHeader = () => { expect(multi[at]).toBe(1); at += 1; return u32(); };
      expect(wkbHeader()).toBe(6);
      const polygons = Array.from({ length: u32() }, () => {
        expect(wkbHeader()).toBe(3);
        return Array.from({ length: u32() }, () => Array.from({ length: u32() }, () => [f64(), f64()]));
      });
      expect(at).toBe(multi.length);
      expect(polygons).toEqual((areas.features[0]!.geometry as { coordinates: unknown }).coordinates);
    });
  });

  it('flags an empty geometry as empty, with no envelope', async () => {
    const hollow: GeoPackageTable = { ...areas, features: [{ geometry: { type: 'MultiPolygon', coordinates: [] }, properties: {} }] };
    await opened({ srs: SRS, tables: [hollow] }, (db) => {
      const blob = (db.prepare('SELECT geom FROM areas').get() as { geom: Buffer }).geom;
      expect([blob[3], blob.length]).toEqual([0b0001_0001, 8 + 9]);
    });
  });
});

describe('the deliverable GeoPackage content', () => {
  it('gives each layer its extent in EPSG:3087, projected here with proj4 from the WGS 84 input', async () => {
    const ring = [[-81.8, 24.5], [-81.7, 24.5], [-81.7, 24.6], [-81.8, 24.5]];
    const layer = boundaryLayer('Monroe County', { type: 'Polygon', coordinates: [ring] });
    const toAlbers = proj4('EPSG:4326', albers.proj4);
    const xs = ring.map((p) => toAlbers.forward(p)[0]!);
    const ys = ring.map((p) => toAlbers.forward(p)[1]!);
    await opened(geoPackageContent([layer], new Map([['boundary', '<metadata/>']])), (db) => {
      const extent = db.prepare('SELECT min_x, min_y, max_x, max_y, srs_id FROM gpkg_contents').get() as Record<string, number>;
      expect(extent.srs_id).toBe(3087);
      // Coordinates are kept to the centimetre.
      expect(extent.min_x).toBeCloseTo(Math.min(...xs), 1);
      expect(extent.min_y).toBeCloseTo(Math.min(...ys), 1);
      expect(extent.max_x).toBeCloseTo(Math.max(...xs), 1);
      expect(extent.max_y).toBeCloseTo(Math.max(...ys), 1);
    });
  });
});
