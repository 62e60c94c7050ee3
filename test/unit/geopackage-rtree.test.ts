import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Geometry } from 'geojson';
import initSqlJs from 'sql.js';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import type { GeoPackageTable } from '../../shared/domain/deliverables/ports';
import { readGeoPackage } from '../../shared/domain/assets/formats/geopackage';
import { validateGisDeliverable } from '../../shared/domain/assets/gis-validation';
import { withSqliteFile, type Sqlite } from '../helpers/sqlite';

/**
 * The spatial index the GeoPackage writer builds without SQLite's R*Tree module, read back with a
 * decoder written here from SQLite's rtree.c format (node blobs: big-endian depth on node 1, cell
 * count, cells of a 64-bit id and four float32 bounds), checked against envelopes this file reads
 * from the geometry blobs' WKB, and, where python3 is installed, by SQLite's own R*Tree module.
 */

const SRS = { id: 32617, name: 'WGS 84 / UTM zone 17N', organization: 'EPSG', organizationId: 32617, definition: 'PROJCS["WGS 84 / UTM zone 17N"]', description: 'test' };
const RECORD = { standardUri: 'http://www.fgdc.gov/metadata/csdgm', mimeType: 'text/xml', document: '<metadata/>' };

// SQLite sizes a new rtree's nodes as the page size less 64 bytes, capped at 51 cells of 8 + 4 × 4 bytes.
const CELL = 24;
const nodeBytes = (pageSize: number) => Math.min(pageSize - 64, 4 + 51 * CELL);

const layer = (name: string, geometryType: GeoPackageTable['geometryType'], geometries: Geometry[]): GeoPackageTable => ({
  name, title: name, description: '', geometryType, columns: [], features: geometries.map((geometry) => ({ geometry, properties: {} })), metadata: RECORD,
});

/** n points on a jittered grid, none on a float32 value, so every bound must be rounded outwards. */
const points = (n: number): Geometry[] => Array.from({ length: n }, (_, i) => ({ type: 'Point', coordinates: [500_000.1 + (i % 67) * 37.3 + Math.sin(i) * 5, 2_700_000.3 + Math.floor(i / 67) * 41.7] }));

interface Box { minx: number; maxx: number; miny: number; maxy: number }

/** The xy envelope of a GeoPackage geometry blob from its WKB (not its header); undefined when empty. */
function wkbEnvelope(blob: Buffer): Box | undefined {
  const envelopeBytes = [0, 32, 48, 48, 64][(blob[3]! >> 1) & 7]!;
  let at = 8 + envelopeBytes;
  const box = { minx: Infinity, maxx: -Infinity, miny: Infinity, maxy: -Infinity };
  const geometry = (): void => {
    const little = blob[at] === 1;
    const u32 = () => { const v = little ? blob.readUInt32LE(at) : blob.readUInt32BE(at); at += 4; return v; };
    const point = () => {
      const [x, y] = [0, 8].map((o) => (little ? blob.readDoubleLE(at + o) : blob.readDoubleBE(at + o)));
      at += 16;
      box.minx = Math.min(box.minx, x!); box.maxx = Math.max(box.maxx, x!); box.miny = Math.min(box.miny, y!); box.maxy = Math.max(box.maxy, y!);
    };
    at += 1;
    const type = u32();
    if (type === 1) point();
    else if (type === 2) for (let n = u32(); n > 0; n--) point();
    else if (type === 3) for (let rings = u32(); rings > 0; rings--) for (let n = u32(); n > 0; n--) point();
    else for (let parts = u32(); parts > 0; parts--) geometry();
  };
  geometry();
  return Number.isFinite(box.minx) ? box : undefined;
}

interface Tree {
  depth: number;
  /** Cells of each node, by node number. */
  nodes: Map<number, { id: number; box: Box }[]>;
  /** Feature id → the leaf holding it, as the tree says. */
  leafOf: Map<number, number>;
  /** Node → parent, as the tree says. */
  parentOf: Map<number, number>;
  leafCell: Map<number, Box>;
}

const inside = (inner: Box, outer: Box) => outer.minx <= inner.minx && inner.maxx <= outer.maxx && outer.miny <= inner.miny && inner.maxy <= outer.maxy;

/** Decodes the index of `table` from its shadow tables and checks the invariants every node must keep. */
function decodeTree(db: Sqlite, table: string): Tree {
  const size = nodeBytes((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
  const blobs = new Map((db.prepare(`SELECT nodeno, data FROM rtree_${table}_geom_node`).all() as { nodeno: number; data: Buffer }[]).map((r) => [r.nodeno, r.data]));
  for (const blob of blobs.values()) expect(blob.length).toBe(size);
  const tree: Tree = { depth: blobs.get(1)!.readUInt16BE(0), nodes: new Map(), leafOf: new Map(), parentOf: new Map(), leafCell: new Map() };
  const visit = (node: number, height: number, bound: Box | undefined): Box | undefined => {
    expect(tree.nodes.has(node)).toBe(false);
    const blob = blobs.get(node)!;
    const count = blob.readUInt16BE(2);
    expect(count).toBeLessThanOrEqual((size - 4) / CELL);
    const cells = Array.from({ length: count }, (_, i) => {
      const at = 4 + CELL * i;
      const [minx, maxx, miny, maxy] = [0, 1, 2, 3].map((k) => blob.readFloatBE(at + 8 + 4 * k)) as [number, number, number, number];
      return { id: Number(blob.readBigInt64BE(at)), box: { minx, maxx, miny, maxy } };
    });
    tree.nodes.set(node, cells);
    for (const { id, box } of cells) {
      expect(box.minx).toBeLessThanOrEqual(box.maxx);
      expect(box.miny).toBeLessThanOrEqual(box.maxy);
      if (bound) expect(inside(box, bound)).toBe(true);
      if (height === 0) {
        tree.leafOf.set(id, node);
        tree.leafCell.set(id, box);
      } else {
        tree.parentOf.set(id, node);
        // The parent's cell is exactly the union of the child's cells.
        expect(visit(id, height - 1, box)).toEqual(box);
      }
    }
    return count === 0 ? undefined : {
      minx: Math.min(...cells.map((c) => c.box.minx)), maxx: Math.max(...cells.map((c) => c.box.maxx)),
      miny: Math.min(...cells.map((c) => c.box.miny)), maxy: Math.max(...cells.map((c) => c.box.maxy)),
    };
  };
  visit(1, tree.depth, undefined);
  expect([...tree.nodes.keys()].sort((a, b) => a - b)).toEqual([...blobs.keys()].sort((a, b) => a - b));
  const pairs = (sql: string) => new Map((db.prepare(sql).all() as { k: number; v: number }[]).map((r) => [r.k, r.v]));
  expect(pairs(`SELECT rowid AS k, nodeno AS v FROM rtree_${table}_geom_rowid`)).toEqual(tree.leafOf);
  expect(pairs(`SELECT nodeno AS k, parentnode AS v FROM rtree_${table}_geom_parent`)).toEqual(tree.parentOf);
  // Every feature with a geometry lies inside its leaf cell; the empty ones are not indexed.
  const features = db.prepare(`SELECT fid, geom FROM ${table}`).all() as { fid: number; geom: Buffer }[];
  const envelopes = new Map(features.flatMap((f) => { const e = wkbEnvelope(f.geom); return e ? [[f.fid, e] as const] : []; }));
  expect([...tree.leafOf.keys()].sort((a, b) => a - b)).toEqual([...envelopes.keys()].sort((a, b) => a - b));
  for (const [fid, envelope] of envelopes) expect(inside(envelope, tree.leafCell.get(fid)!)).toBe(true);
  return tree;
}

const python = spawnSync('python3', ['-c', 'import sqlite3; sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE r USING rtree(id, a, b)")']).status === 0;
const gdal = spawnSync('ogrinfo', ['--version']).status === 0;
const NO_PYTHON = 'python3 with an SQLite that has the R*Tree module is not installed, so SQLite\'s own check cannot run';

async function withPackage(tables: GeoPackageTable[], use: (db: Sqlite, file: string, bytes: Buffer) => Promise<void> | void): Promise<void> {
  const bytes = await new SqlJsGeoPackageWriter().write({ srs: SRS, tables });
  await withSqliteFile(bytes, (db, file) => use(db, file, bytes));
}

describe('the GeoPackage spatial index', () => {
  it('holds one feature in a root leaf, its box the envelope rounded outwards to float32', async () => {
    await withPackage([layer('one', 'LINESTRING', [{ type: 'LineString', coordinates: [[0.1, -0.1], [0.3, 2.5]] }])], (db) => {
      const tree = decodeTree(db, 'one');
      expect(tree.depth).toBe(0);
      expect([...tree.nodes.keys()]).toEqual([1]);
      const box = tree.leafCell.get(1)!;
      // 0.1 and 0.3 are no float32: the bounds are the nearest float32 outside, within 2 units in the last place.
      expect(box.minx).toBeLessThan(0.1);
      expect(box.maxx).toBeGreaterThan(0.3);
      expect(box.miny).toBeLessThan(-0.1);
      expect(0.1 - box.minx).toBeLessThan(2 * 2 ** -27);
      expect(box.maxx - 0.3).toBeLessThan(2 * 2 ** -25);
      expect(box.maxy).toBe(2.5); // a float32 is kept as it is
    });
  });

  it('leaves an empty layer with an empty root, and leaves empty geometries out', async () => {
    const hollow: Geometry = { type: 'MultiPolygon', coordinates: [] };
    await withPackage([layer('none', 'POINT', []), layer('some', 'MULTIPOLYGON', [hollow, { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]]] }, hollow])], (db) => {
      const none = decodeTree(db, 'none');
      expect([none.depth, none.nodes.get(1)]).toEqual([0, []]);
      expect((db.prepare('SELECT data FROM rtree_none_geom_node WHERE nodeno = 1').get() as { data: Buffer }).data.every((b) => b === 0)).toBe(true);
      expect([...decodeTree(db, 'some').leafOf.keys()]).toEqual([2]);
    });
  });

  it('splits 52 features into two leaves under the root, and 3,000 into three levels (51 cells at most per node)', async () => {
    await withPackage([layer('two', 'POINT', points(52)), layer('three', 'POINT', points(3_000))], (db) => {
      const two = decodeTree(db, 'two');
      expect(two.depth).toBe(1);
      expect(two.nodes.get(1)!.length).toBe(2);
      expect(two.nodes.size).toBe(3);
      const three = decodeTree(db, 'three');
      // 3,000 > 51² entries need a third level.
      expect(three.depth).toBe(2);
      const leaves = new Set(three.leafOf.values());
      expect(leaves.size).toBeGreaterThanOrEqual(Math.ceil(3_000 / 51));
      // No node is left nearly empty: each holds at least a third of the capacity, SQLite's own floor.
      for (const leaf of leaves) expect(three.nodes.get(leaf)!.length).toBeGreaterThanOrEqual(17);
    });
  });

  it('declares the virtual table, the triggers and the extension row the standard names', async () => {
    await withPackage([layer('sites', 'POINT', points(3))], (db) => {
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'rtree_sites_geom'").get()).toEqual({ sql: 'CREATE VIRTUAL TABLE rtree_sites_geom USING rtree(id, minx, maxx, miny, maxy)' });
      expect((db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((r) => r.name))
        .toEqual(['delete', 'insert', 'update1', 'update2', 'update3', 'update4'].map((s) => `rtree_sites_geom_${s}`));
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'rtree_sites_geom_delete'").get()).toEqual({
        sql: 'CREATE TRIGGER rtree_sites_geom_delete AFTER DELETE ON sites\n  WHEN old.geom NOT NULL\nBEGIN\n  DELETE FROM rtree_sites_geom WHERE id = OLD.fid;\nEND',
      });
      expect(db.prepare("SELECT table_name, column_name, scope FROM gpkg_extensions WHERE extension_name = 'gpkg_rtree_index'").all()).toEqual([{ table_name: 'sites', column_name: 'geom', scope: 'write-only' }]);
    });
  });

  it('keeps the package readable without the R*Tree module: only the virtual table itself is unknown', async () => {
    await withPackage([layer('sites', 'POINT', points(3))], async (db, _file, bytes) => {
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      expect(() => db.prepare('SELECT * FROM rtree_sites_geom').all()).toThrow(/no such module: rtree/);
      const read = await readGeoPackage(bytes, 'sites');
      expect(read.features).toHaveLength(3);
    });
  });

  (python ? it : it.skip)(python
    ? 'passes SQLite\'s own rtreecheck, answers box queries and keeps in step through the triggers'
    : `SKIPPED: ${NO_PYTHON}`, async () => {
    const grid = points(700);
    const query = { minx: 500_300, maxx: 501_000, miny: 2_700_100, maxy: 2_700_500 };
    const positions = grid.map((g) => (g as { coordinates: number[] }).coordinates as [number, number]);
    const expected = positions.flatMap(([x, y], i) => (x >= query.minx && x <= query.maxx && y >= query.miny && y <= query.maxy ? [i + 1] : []));
    expect(expected.length).toBeGreaterThan(10);
    // No point within a metre of the query's edges, far more than float32's 0.25 m here: rounding cannot change the answer.
    expect(positions.every(([x, y]) => [query.minx, query.maxx].every((e) => Math.abs(x - e) > 1) && [query.miny, query.maxy].every((e) => Math.abs(y - e) > 1))).toBe(true);
    await withPackage([layer('grid', 'POINT', grid), layer('none', 'POINT', [])], (_db, file) => {
      // ST_* as the standard defines them, from the blob's envelope or its point.
      const script = `
import json, sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
def env(b):
    if b is None: return None
    n = [0, 4, 6, 6, 8][(b[3] >> 1) & 7]
    if n: return struct.unpack('<4d', b[8:40])
    x, y = struct.unpack('<2d', b[13:29])
    return (x, x, y, y)
db.create_function('ST_IsEmpty', 1, lambda b: None if b is None else (b[3] >> 4) & 1)
for i, name in enumerate(['ST_MinX', 'ST_MaxX', 'ST_MinY', 'ST_MaxY']):
    db.create_function(name, 1, lambda b, i=i: env(b)[i])
out = {'check': [db.execute("SELECT rtreecheck(?)", (t,)).fetchone()[0] for t in ['rtree_grid_geom', 'rtree_none_geom']]}
q = ${JSON.stringify([query.minx, query.maxx, query.miny, query.maxy])}
out['ids'] = [r[0] for r in db.execute('SELECT id FROM rtree_grid_geom WHERE maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ? ORDER BY id', (q[0], q[1], q[2], q[3]))]
blob = db.execute('SELECT geom FROM grid WHERE fid = 1').fetchone()[0]
moved = blob[:13] + struct.pack('<2d', 900000.0, 3000000.0)
db.execute('INSERT INTO grid (fid, geom) VALUES (701, ?)', (moved,))
db.execute('UPDATE grid SET geom = ? WHERE fid = 2', (moved,))
db.execute('DELETE FROM grid WHERE fid = 3')
out['moved'] = [r[0] for r in db.execute('SELECT id FROM rtree_grid_geom WHERE minx >= 899999 ORDER BY id')]
out['after'] = [db.execute("SELECT rtreecheck('rtree_grid_geom')").fetchone()[0], db.execute('SELECT count(*) FROM rtree_grid_geom').fetchone()[0]]
print(json.dumps(out))
`;
      const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      const out = JSON.parse(run.stdout) as { check: string[]; ids: number[]; moved: number[]; after: [string, number] };
      expect(out.check).toEqual(['ok', 'ok']);
      expect(out.ids).toEqual(expected);
      expect(out.moved).toEqual([2, 701]);
      expect(out.after).toEqual(['ok', 700]);
    });
  });
  (gdal ? it : it.skip)(gdal ? 'is found and used by GDAL (ogrinfo)' : 'SKIPPED: GDAL\'s ogrinfo is not installed', async () => {
    const grid = points(700);
    const inBox = grid.filter((g) => { const [x, y] = (g as { coordinates: number[] }).coordinates as [number, number]; return x >= 500_300 && x <= 501_000 && y >= 2_700_100 && y <= 2_700_500; });
    await withPackage([layer('grid', 'POINT', grid)], (_db, file) => {
      const has = spawnSync('ogrinfo', ['-ro', file, '-sql', "SELECT HasSpatialIndex('grid', 'geom')"], { encoding: 'utf8' });
      expect(has.stdout).toMatch(/HasSpatialIndex \(Integer\) = 1/);
      const filtered = spawnSync('ogrinfo', ['-ro', '--debug', 'on', file, 'grid', '-spat', '500300', '2700100', '501000', '2700500'], { encoding: 'utf8' });
      expect(filtered.stderr).toContain('JOIN "rtree_grid_geom"');
      expect(filtered.stdout.match(/^OGRFeature/gm)).toHaveLength(inBox.length);
    });
  });
});

describe('the GIS validation\'s reading of a GeoPackage spatial index', () => {
  const areas = layer('areas', 'MULTIPOLYGON', [
    { type: 'MultiPolygon', coordinates: [[[[10, 20], [30, 20], [30, 45], [10, 20]]]] },
    { type: 'MultiPolygon', coordinates: [] },
    { type: 'MultiPolygon', coordinates: [[[[-5, 0], [0, 0], [0, 5], [-5, 0]]]] },
  ]);
  const written = () => new SqlJsGeoPackageWriter().write({ srs: SRS, tables: [areas] });
  /** The package after `edit` ran on it in SQLite (without the R*Tree module). */
  const edited = async (bytes: Buffer, edit: (db: initSqlJs.Database) => void) => {
    const db = new (await initSqlJs()).Database(bytes);
    try {
      edit(db);
      return Buffer.from(db.export());
    } finally {
      db.close();
    }
  };
  const indexOf = async (bytes: Buffer) => (await readGeoPackage(bytes, 'areas')).spatialIndex;

  it('finds the written index valid, holding the two features with a geometry', async () => {
    expect(await indexOf(await written())).toEqual({ status: 'valid', indexed_features: 2, detail: null });
  });

  it('reports a layer without an index as missing', async () => {
    const bare = await edited(await written(), (db) => db.exec(`PRAGMA writable_schema = ON; DELETE FROM sqlite_master WHERE name LIKE 'rtree_%';
      PRAGMA writable_schema = OFF; DELETE FROM gpkg_extensions WHERE extension_name = 'gpkg_rtree_index'`));
    expect(await indexOf(bare)).toMatchObject({ status: 'missing', indexed_features: null });
  });

  it.each([
    ['a leaf cell that no longer holds its feature', /Feature 1 lies outside its cell/, (db: initSqlJs.Database) => {
      const blob = Buffer.from(db.exec('SELECT data FROM rtree_areas_geom_node WHERE nodeno = 1')[0]!.values[0]![0] as Uint8Array);
      const first = blob.readBigInt64BE(4) === 1n ? 0 : 1;
      blob.writeFloatBE(blob.readFloatBE(4 + CELL * first + 8), 4 + CELL * first + 12); // maxx := minx
      db.run('UPDATE rtree_areas_geom_node SET data = ? WHERE nodeno = 1', [blob]);
    }],
    ['a feature missing from _rowid', /_rowid does not map/, (db: initSqlJs.Database) => db.run('DELETE FROM rtree_areas_geom_rowid WHERE rowid = 3')],
    ['a node shorter than SQLite allows', /under SQLite's minimum/, (db: initSqlJs.Database) => db.run('UPDATE rtree_areas_geom_node SET data = zeroblob(100)')],
    ['an index gpkg_extensions does not register', /does not register/, (db: initSqlJs.Database) => db.run("DELETE FROM gpkg_extensions WHERE extension_name = 'gpkg_rtree_index'")],
    ['an indexed feature the layer lacks', /the layer does not have/, (db: initSqlJs.Database) => db.exec('DROP TRIGGER rtree_areas_geom_delete; DELETE FROM areas WHERE fid = 3')],
  ])('reports %s as invalid, and the GIS validation warns', async (_case, detail, edit) => {
    const broken = await edited(await written(), edit);
    const index = await indexOf(broken);
    expect(index).toMatchObject({ status: 'invalid', indexed_features: null });
    expect(index!.detail).toMatch(detail);
    const report = await validateGisDeliverable(await readGeoPackage(broken, 'areas'), { coordinateSystem: 'EPSG:32617', metadata: '<metadata/>' });
    expect(report.spatial_index).toEqual(index);
    expect(report.warnings.map((w) => w.code)).toContain('spatial_index_invalid');
  });

  (python ? it : it.skip)(python ? 'accepts an index SQLite\'s own module built' : `SKIPPED: ${NO_PYTHON}`, async () => {
    await withPackage([layer('grid', 'POINT', points(700))], async (_db, file) => {
      // SQLite's own insertion (node splits, its own node numbers) over the features' points.
      const script = `
import sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
db.execute('DROP TABLE rtree_grid_geom')
db.execute('CREATE VIRTUAL TABLE rtree_grid_geom USING rtree(id, minx, maxx, miny, maxy)')
for fid, blob in db.execute('SELECT fid, geom FROM grid').fetchall():
    x, y = struct.unpack('<2d', blob[13:29])
    db.execute('INSERT INTO rtree_grid_geom VALUES (?, ?, ?, ?, ?)', (fid, x, x, y, y))
db.commit()
`;
      const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect((await readGeoPackage(readFileSync(file), 'grid')).spatialIndex).toEqual({ status: 'valid', indexed_features: 700, detail: null });
    });
  });
});
