import type { Database } from 'sql.js';

/**
 * The GeoPackage "RTree Spatial Indexes" extension (`gpkg_rtree_index`) written without SQLite's
 * R*Tree module, which sql.js is built without. The module keeps an index in three ordinary
 * "shadow" tables (`_node`, `_rowid`, `_parent`) and reads nothing else when it connects, so those
 * are written here in its on-disk format, filled by a Sort-Tile-Recursive bulk load, and the
 * virtual table is declared in `sqlite_master` as `CREATE VIRTUAL TABLE` would declare it. Readers
 * with the module (GDAL, QGIS, SQLite's own `rtreecheck`) then find a valid index.
 */

/** One cell: the 64-bit rowid (leaf) or child node number, then min and max of x and of y as float32. */
const CELL_BYTES = 8 + 4 * 4;
/** rtree.c's RTREE_MAXCELLS: a new index's nodes hold 51 cells, as 4 KiB pages less 64 bytes allow more. */
const MAX_CELLS = 51;
/** The blob length of every node; SQLite takes it from node 1 when it connects and requires it of every node. */
const NODE_BYTES = 4 + CELL_BYTES * MAX_CELLS;

export interface Envelope { minX: number; maxX: number; minY: number; maxY: number }
export interface IndexEntry { id: number; envelope: Envelope }

/** A node of the packed tree: its number (the root is 1), its cells, and whether they are features. */
interface RTreeNode { number: number; leaf: boolean; cells: IndexEntry[] }

// rtree.c's rtreeValueDown/rtreeValueUp: a bound that float32 would move inwards is scaled outwards
// by one part in 2^23 first, so the stored box always holds the exact one.
const ROUND_TOWARDS_ZERO = 1 - 1 / 8388608;
const ROUND_AWAY_FROM_ZERO = 1 + 1 / 8388608;
const float32Down = (d: number) => (Math.fround(d) > d ? Math.fround(d * (d < 0 ? ROUND_AWAY_FROM_ZERO : ROUND_TOWARDS_ZERO)) : Math.fround(d));
const float32Up = (d: number) => (Math.fround(d) < d ? Math.fround(d * (d < 0 ? ROUND_TOWARDS_ZERO : ROUND_AWAY_FROM_ZERO)) : Math.fround(d));

const centre = (e: Envelope, axis: 'X' | 'Y') => (e[`min${axis}`] + e[`max${axis}`]) / 2;

/** `list` cut into `parts` runs in order whose lengths differ by at most one. */
function evenRuns<T>(list: T[], parts: number): T[][] {
  return Array.from({ length: parts }, (_, i) => list.slice(Math.floor((i * list.length) / parts), Math.floor(((i + 1) * list.length) / parts)));
}

/**
 * Sort-Tile-Recursive grouping (Leutenegger et al., 1997): vertical slices by x centre, each cut
 * into runs by y centre, every run at most MAX_CELLS long and at least about half that (runs are
 * evened out, so no node is left nearly empty).
 */
function tiles(entries: IndexEntry[]): IndexEntry[][] {
  const slices = Math.ceil(Math.sqrt(Math.ceil(entries.length / MAX_CELLS)));
  const byX = [...entries].sort((a, b) => centre(a.envelope, 'X') - centre(b.envelope, 'X'));
  return evenRuns(byX, slices).flatMap((slice) => {
    const byY = slice.sort((a, b) => centre(a.envelope, 'Y') - centre(b.envelope, 'Y'));
    return evenRuns(byY, Math.ceil(byY.length / MAX_CELLS));
  });
}

const union = (cells: IndexEntry[]): Envelope => ({
  minX: Math.min(...cells.map((c) => c.envelope.minX)), maxX: Math.max(...cells.map((c) => c.envelope.maxX)),
  minY: Math.min(...cells.map((c) => c.envelope.minY)), maxY: Math.max(...cells.map((c) => c.envelope.maxY)),
});

/**
 * Packs the entries bottom-up into a balanced tree: returns its depth (0 when the root is a leaf)
 * and its nodes, the root numbered 1 and the others 2, 3, … Envelopes are rounded outwards to float32.
 */
function packRTree(entries: readonly IndexEntry[]): { depth: number; nodes: RTreeNode[] } {
  const nodes: RTreeNode[] = [];
  let level = entries.map(({ id, envelope: e }) => ({ id, envelope: { minX: float32Down(e.minX), maxX: float32Up(e.maxX), minY: float32Down(e.minY), maxY: float32Up(e.maxY) } }));
  let leaf = true;
  let depth = 0;
  let next = 2;
  for (;;) {
    const groups = level.length <= MAX_CELLS ? [level] : tiles(level);
    const placed = groups.map((cells) => ({ number: groups.length === 1 ? 1 : next++, leaf, cells }));
    nodes.push(...placed);
    if (placed.length === 1) return { depth, nodes };
    level = placed.map((node) => ({ id: node.number, envelope: union(node.cells) }));
    leaf = false;
    depth++;
  }
}

/** A node's blob: big-endian tree depth (root only), cell count, then the cells, zero-padded to NODE_BYTES. */
function nodeBlob(node: RTreeNode, depth: number): Uint8Array {
  const blob = Buffer.alloc(NODE_BYTES);
  blob.writeUInt16BE(node.number === 1 ? depth : 0, 0);
  blob.writeUInt16BE(node.cells.length, 2);
  node.cells.forEach(({ id, envelope: e }, i) => {
    const at = 4 + CELL_BYTES * i;
    blob.writeBigInt64BE(BigInt(id), at);
    [e.minX, e.maxX, e.minY, e.maxY].forEach((v, axis) => blob.writeFloatBE(v, at + 8 + 4 * axis));
  });
  return blob;
}

/** The name as the extension's SQL templates take it: bare when it is a plain identifier, else quoted. */
const templateName = (identifier: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(identifier) ? identifier : `"${identifier.replace(/"/g, '""')}"`);
const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The triggers of GeoPackage 1.3 Annex F.3, word for word, that keep the index in step with the table. */
function triggers(index: string, table: string, column: string, pk: string): string[] {
  const [rtree, t, c, i] = [index, table, column, pk].map(templateName) as [string, string, string, string];
  const name = (suffix: string) => templateName(`${index}_${suffix}`);
  const insert = `INSERT OR REPLACE INTO ${rtree} VALUES (
    NEW.${i},
    ST_MinX(NEW.${c}), ST_MaxX(NEW.${c}),
    ST_MinY(NEW.${c}), ST_MaxY(NEW.${c})
  );`;
  return [
    `CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${t}
  WHEN (new.${c} NOT NULL AND NOT ST_IsEmpty(NEW.${c}))
BEGIN
  ${insert}
END`,
    `CREATE TRIGGER ${name('update1')} AFTER UPDATE OF ${c} ON ${t}
  WHEN OLD.${i} = NEW.${i} AND
       (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c}))
BEGIN
  ${insert}
END`,
    `CREATE TRIGGER ${name('update2')} AFTER UPDATE OF ${c} ON ${t}
  WHEN OLD.${i} = NEW.${i} AND
       (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c}))
BEGIN
  DELETE FROM ${rtree} WHERE id = OLD.${i};
END`,
    `CREATE TRIGGER ${name('update3')} AFTER UPDATE OF ${c} ON ${t}
  WHEN OLD.${i} != NEW.${i} AND
       (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c}))
BEGIN
  DELETE FROM ${rtree} WHERE id = OLD.${i};
  ${insert}
END`,
    `CREATE TRIGGER ${name('update4')} AFTER UPDATE ON ${t}
  WHEN OLD.${i} != NEW.${i} AND
       (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c}))
BEGIN
  DELETE FROM ${rtree} WHERE id IN (OLD.${i}, NEW.${i});
END`,
    `CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${t}
  WHEN old.${c} NOT NULL
BEGIN
  DELETE FROM ${rtree} WHERE id = OLD.${i};
END`,
  ];
}

/**
 * Writes the spatial index of `table`.`column` (integer primary key `pk`) over `entries`, the
 * features with a non-empty geometry (the triggers leave the others out too). The triggers call
 * ST_* functions and the virtual table, which sql.js lacks: they come last, after every row.
 */
export function writeSpatialIndex(db: Database, table: string, column: string, pk: string, entries: readonly IndexEntry[]): void {
  const rtree = `rtree_${table}_${column}`;
  // The shadow tables exactly as rtree.c creates them (rtreeSqlInit).
  db.run(`CREATE TABLE ${quoted(`${rtree}_rowid`)}(rowid INTEGER PRIMARY KEY,nodeno)`);
  db.run(`CREATE TABLE ${quoted(`${rtree}_node`)}(nodeno INTEGER PRIMARY KEY,data)`);
  db.run(`CREATE TABLE ${quoted(`${rtree}_parent`)}(nodeno INTEGER PRIMARY KEY,parentnode)`);
  const { depth, nodes } = packRTree(entries);
  const rows = (suffix: string, values: (number | Uint8Array)[][]) => {
    const insert = db.prepare(`INSERT INTO ${quoted(`${rtree}_${suffix}`)} VALUES (?, ?)`);
    try {
      for (const row of values) insert.run(row);
    } finally {
      insert.free();
    }
  };
  rows('node', nodes.map((node) => [node.number, nodeBlob(node, depth)]));
  rows('rowid', nodes.filter((n) => n.leaf).flatMap((n) => n.cells.map((cell) => [cell.id, n.number])));
  rows('parent', nodes.filter((n) => !n.leaf).flatMap((n) => n.cells.map((cell) => [cell.id, n.number])));
  db.run('PRAGMA writable_schema = ON');
  db.run('INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES (\'table\', ?, ?, 0, ?)',
    [rtree, rtree, `CREATE VIRTUAL TABLE ${templateName(rtree)} USING rtree(id, minx, maxx, miny, maxy)`]);
  db.run('PRAGMA writable_schema = OFF');
  for (const trigger of triggers(rtree, table, column, pk)) db.run(trigger);
  db.run('INSERT INTO gpkg_extensions VALUES (?, ?, \'gpkg_rtree_index\', \'http://www.geopackage.org/spec/#extension_rtree\', \'write-only\')', [table, column]);
}
