import initSqlJs from 'sql.js';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { readGeoPackage } from '../../shared/domain/assets/formats/geopackage';
import { gpkgBlobToGeometry, wkbToGeometry, WkbError } from '../../shared/domain/assets/formats/wkb';

/** WKB written by hand in the test, byte by byte (OGC 06-103r4 §8.2). */
class WkbBytes {
  private readonly parts: Buffer[] = [];
  constructor(private readonly little = true) {}
  byte(value: number): this {
    this.parts.push(Buffer.from([value]));
    return this;
  }
  uint32(value: number): this {
    const b = Buffer.alloc(4);
    if (this.little) b.writeUInt32LE(value);
    else b.writeUInt32BE(value);
    this.parts.push(b);
    return this;
  }
  doubles(...values: number[]): this {
    for (const value of values) {
      const b = Buffer.alloc(8);
      if (this.little) b.writeDoubleLE(value);
      else b.writeDoubleBE(value);
      this.parts.push(b);
    }
    return this;
  }
  header(type: number): this {
    return this.byte(this.little ? 1 : 0).uint32(type);
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const point = (x: number, y: number, little = true) => new WkbBytes(little).header(1).doubles(x, y).bytes();

/** A GeoPackage blob: 'GP', version 0, flags (little-endian, envelope code), srs_id, envelope, WKB. */
function gpkgBlob(wkb: Buffer, options: { srsId?: number; envelope?: number[]; empty?: boolean } = {}): Buffer {
  const envelope = options.envelope ?? [];
  const code = { 0: 0, 4: 1, 6: 2, 8: 4 }[envelope.length]!;
  const head = Buffer.alloc(8);
  head.write('GP', 0, 'latin1');
  head[2] = 0;
  head[3] = 0x01 | (code << 1) | (options.empty ? 0x10 : 0);
  head.writeInt32LE(options.srsId ?? 3087, 4);
  const env = Buffer.alloc(envelope.length * 8);
  envelope.forEach((v, i) => env.writeDoubleLE(v, i * 8));
  return Buffer.concat([head, env, wkb]);
}

describe('WKB', () => {
  it('reads points in both byte orders', () => {
    expect(wkbToGeometry(point(-81.78, 24.55))).toEqual({ type: 'Point', coordinates: [-81.78, 24.55] });
    expect(wkbToGeometry(point(600000.5, 150000.25, false))).toEqual({ type: 'Point', coordinates: [600000.5, 150000.25] });
  });

  it('reads a polygon with a hole and drops Z of ISO and EWKB codes', () => {
    const polygon = new WkbBytes().header(3).uint32(2)
      .uint32(4).doubles(0, 0, 10, 0, 10, 10, 0, 0)
      .uint32(4).doubles(2, 2, 3, 2, 3, 3, 2, 2).bytes();
    expect(wkbToGeometry(polygon)).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 0]], [[2, 2], [3, 2], [3, 3], [2, 2]]] });
    const isoZ = new WkbBytes().header(1002).uint32(2).doubles(1, 2, 99, 3, 4, 98).bytes();
    expect(wkbToGeometry(isoZ)).toEqual({ type: 'LineString', coordinates: [[1, 2], [3, 4]] });
    const ewkbZM = new WkbBytes().header(0xc0000001).doubles(5, 6, 7, 8).bytes();
    expect(wkbToGeometry(ewkbZM)).toEqual({ type: 'Point', coordinates: [5, 6] });
    const ewkbSrid = new WkbBytes().header(0x20000001).uint32(4326).doubles(5, 6).bytes();
    expect(wkbToGeometry(ewkbSrid)).toEqual({ type: 'Point', coordinates: [5, 6] });
  });

  it('reads multi-geometries and collections, and an empty point', () => {
    const multi = new WkbBytes().header(4).uint32(2).bytes();
    expect(wkbToGeometry(Buffer.concat([multi, point(1, 2), point(3, 4)]))).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] });
    const collection = Buffer.concat([new WkbBytes().header(7).uint32(1).bytes(), point(1, 2)]);
    expect(wkbToGeometry(collection)).toEqual({ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] });
    expect(wkbToGeometry(point(Number.NaN, Number.NaN))).toEqual({ type: 'Point', coordinates: [] });
  });

  it('refuses truncated bytes, trailing bytes, impossible counts, wrong members and unknown types', () => {
    expect(() => wkbToGeometry(point(1, 2).subarray(0, 20))).toThrow(WkbError);
    expect(() => wkbToGeometry(Buffer.concat([point(1, 2), Buffer.from([0])]))).toThrow('1 bytes follow the geometry');
    expect(() => wkbToGeometry(new WkbBytes().header(2).uint32(0x7fffffff).bytes())).toThrow('cannot hold');
    const wrongMember = Buffer.concat([new WkbBytes().header(6).uint32(1).bytes(), point(1, 2)]);
    expect(() => wkbToGeometry(wrongMember)).toThrow('A MultiPolygon holds a Point');
    expect(() => wkbToGeometry(new WkbBytes().header(17).bytes())).toThrow('Unsupported geometry type code 17');
    expect(() => wkbToGeometry(Buffer.from([7, 1, 0, 0, 0]))).toThrow('Unknown byte order 7');
    let deep = point(1, 2);
    for (let i = 0; i < 40; i++) deep = Buffer.concat([new WkbBytes().header(7).uint32(1).bytes(), deep]);
    expect(() => wkbToGeometry(deep)).toThrow('nested too deeply');
  });

  it('skips each GeoPackage envelope size and honours the empty flag', () => {
    for (const envelope of [[], [0, 1, 0, 1], [0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1, 0, 1]]) {
      expect(gpkgBlobToGeometry(gpkgBlob(point(7, 8), { envelope }))).toEqual({ type: 'Point', coordinates: [7, 8] });
    }
    expect(gpkgBlobToGeometry(gpkgBlob(point(Number.NaN, Number.NaN), { empty: true }))).toBeNull();
    expect(() => gpkgBlobToGeometry(point(1, 2))).toThrow('no "GP" header');
    const badEnvelope = gpkgBlob(point(1, 2));
    badEnvelope[3] = 0x01 | (5 << 1);
    expect(() => gpkgBlobToGeometry(badEnvelope)).toThrow('Invalid envelope indicator 5');
  });
});

/** A GeoPackage made with plain SQL here, as another tool would write one. */
async function geoPackage(build: (run: (sql: string, params?: (string | number | Uint8Array | null)[]) => void) => void, applicationId = 0x47504b47): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  const run = (sql: string, params: (string | number | Uint8Array | null)[] = []) => db.run(sql, params);
  run(`PRAGMA application_id = ${applicationId}`);
  run('CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT, srs_id INTEGER PRIMARY KEY, organization TEXT, organization_coordsys_id INTEGER, definition TEXT, description TEXT)');
  run('CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT, identifier TEXT, description TEXT, last_change TEXT, min_x REAL, min_y REAL, max_x REAL, max_y REAL, srs_id INTEGER)');
  run('CREATE TABLE gpkg_geometry_columns (table_name TEXT, column_name TEXT, geometry_type_name TEXT, srs_id INTEGER, z INTEGER, m INTEGER)');
  run("INSERT INTO gpkg_spatial_ref_sys VALUES ('NAD83(HARN) / Florida GDL Albers', 3087, 'EPSG', 3087, 'PROJCS[\"NAD83(HARN) / Florida GDL Albers\"]', '')");
  build(run);
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

function featureLayer(run: (sql: string, params?: (string | number | Uint8Array | null)[]) => void, name: string, srsId = 3087): void {
  run(`INSERT INTO gpkg_contents (table_name, data_type, srs_id) VALUES ('${name}', 'features', ${srsId})`);
  run(`INSERT INTO gpkg_geometry_columns VALUES ('${name}', 'shape', 'POINT', ${srsId}, 0, 0)`);
  run(`CREATE TABLE "${name}" (fid INTEGER PRIMARY KEY, shape BLOB, NAME TEXT, ASSET_TYPE TEXT, ELEV REAL)`);
}

describe('GeoPackage reader', () => {
  it('reads the one feature layer: attributes in order, geometry, EPSG system and linked metadata', async () => {
    const file = await geoPackage((run) => {
      featureLayer(run, 'critical_assets');
      run('INSERT INTO critical_assets (shape, NAME, ASSET_TYPE, ELEV) VALUES (?, ?, ?, ?)', [gpkgBlob(point(600000, 200000), { envelope: [600000, 600000, 200000, 200000] }), 'Lift Station 12', 'Lift Station', 1.25]);
      run('INSERT INTO critical_assets (shape, NAME, ASSET_TYPE, ELEV) VALUES (?, ?, ?, ?)', [null, 'No Geometry', 'Fire Station', null]);
      run('CREATE TABLE gpkg_metadata (id INTEGER PRIMARY KEY, md_scope TEXT, md_standard_uri TEXT, mime_type TEXT, metadata TEXT)');
      run('CREATE TABLE gpkg_metadata_reference (reference_scope TEXT, table_name TEXT, column_name TEXT, row_id_value INTEGER, timestamp TEXT, md_file_id INTEGER, md_parent_id INTEGER)');
      run("INSERT INTO gpkg_metadata VALUES (1, 'dataset', 'x', 'text/xml', '<metadata>package</metadata>'), (2, 'dataset', 'x', 'text/xml', '<metadata>layer</metadata>')");
      run("INSERT INTO gpkg_metadata_reference (reference_scope, table_name, md_file_id) VALUES ('geopackage', NULL, 1), ('table', 'critical_assets', 2)");
    });
    const read = await readGeoPackage(file);
    expect(read.format).toBe('geopackage');
    expect(read.layer).toBe('critical_assets');
    expect(read.headers).toEqual(['NAME', 'ASSET_TYPE', 'ELEV']);
    expect(read.crs).toMatchObject({ source: 'gpkg_srs', detected: { epsg: 3087 } });
    expect(read.metadataXml).toBe('<metadata>layer</metadata>');
    expect(read.features).toEqual([
      { index: 1, properties: { NAME: 'Lift Station 12', ASSET_TYPE: 'Lift Station', ELEV: 1.25 }, geometry: { type: 'Point', coordinates: [600000, 200000] } },
      { index: 2, properties: { NAME: 'No Geometry', ASSET_TYPE: 'Fire Station', ELEV: null }, geometry: null },
    ]);
  });

  it('marks a feature whose blob is broken, and keeps reading', async () => {
    const file = await geoPackage((run) => {
      featureLayer(run, 'assets');
      run('INSERT INTO assets (shape, NAME) VALUES (?, ?)', [gpkgBlob(point(1, 2)).subarray(0, 20), 'Broken']);
      run('INSERT INTO assets (shape, NAME) VALUES (?, ?)', [gpkgBlob(point(3, 4)), 'Fine']);
    });
    const read = await readGeoPackage(file);
    const features = read.features as { malformed?: string; geometry: unknown }[];
    expect(features[0]!.malformed).toMatch(/^Feature 1: The geometry ends early/);
    expect(features[1]!.geometry).toEqual({ type: 'Point', coordinates: [3, 4] });
  });

  it('asks which layer when there are several, and names them', async () => {
    const file = await geoPackage((run) => {
      featureLayer(run, 'assets');
      featureLayer(run, 'boundary');
      run('INSERT INTO boundary (shape, NAME) VALUES (?, ?)', [gpkgBlob(point(1, 2)), 'Monroe']);
    });
    await expect(readGeoPackage(file)).rejects.toMatchObject({ code: 'layer_not_chosen', message: expect.stringContaining('2 layers (assets, boundary)') });
    await expect(readGeoPackage(file, 'roads')).rejects.toMatchObject({ code: 'layer_not_chosen', message: expect.stringContaining('no feature layer "roads"') });
    await expect(readGeoPackage(file, 'assets')).rejects.toMatchObject({ code: 'empty_file' });
    expect((await readGeoPackage(file, 'boundary')).layer).toBe('boundary');
  });

  it('reads an srs outside the known list from its WKT, and states nothing for the undefined systems', async () => {
    const unknown = await geoPackage((run) => {
      run("INSERT INTO gpkg_spatial_ref_sys VALUES ('Local', 990001, 'LOCAL', 1, 'not a WKT', '')");
      featureLayer(run, 'assets', 990001);
      run('INSERT INTO assets (shape, NAME) VALUES (?, ?)', [gpkgBlob(point(1, 2)), 'A']);
    });
    const crs = (await readGeoPackage(unknown)).crs;
    expect(crs.source).toBe('gpkg_srs');
    expect(crs.unreadable).toBeDefined();
    const undefinedSrs = await geoPackage((run) => {
      run("INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', '')");
      featureLayer(run, 'assets', -1);
      run('INSERT INTO assets (shape, NAME) VALUES (?, ?)', [gpkgBlob(point(1, 2)), 'A']);
    });
    expect((await readGeoPackage(undefinedSrs)).crs).toEqual({ source: 'none' });
  });

  it('refuses what is not a GeoPackage with a file error', async () => {
    const refusal = (bytes: Buffer) => readGeoPackage(bytes).then(() => undefined, (error: AssetFileError) => [error.code, error.message]);
    expect(await refusal(Buffer.alloc(0))).toEqual(['empty_file', 'The file is empty.']);
    expect(await refusal(Buffer.from('PK\u0003\u0004 not sqlite'))).toEqual(['malformed_geopackage', 'The file is not a GeoPackage (no SQLite header).']);
    const plainSqlite = await geoPackage(() => undefined, 0);
    expect((await refusal(plainSqlite))![1]).toContain('not a GeoPackage (its application_id');
    const truncated = (await geoPackage((run) => featureLayer(run, 'assets'))).subarray(0, 1000);
    expect((await refusal(truncated))![0]).toBe('malformed_geopackage');
    const noLayers = await geoPackage(() => undefined);
    expect(await refusal(noLayers)).toEqual(['malformed_geopackage', 'The GeoPackage holds no feature layer.']);
  });
});
