import { forEachPosition } from '../geometry';
import { gpkgBlobToGeometry, WkbError } from './wkb';

/**
 * Whether a GeoPackage layer carries a valid "RTree Spatial Indexes" extension (gpkg_rtree_index),
 * read from the R*Tree module's shadow tables, since sql.js has no module to open the virtual table
 * with: node blobs (SQLite's rtree.c format: big-endian tree depth on node 1, cell count, cells of a
 * 64-bit id and float32 min/max of x then y), `_rowid` (feature → leaf) and `_parent` (node →
 * parent). Valid means what GDAL and QGIS rely on: a registered, consistent tree whose leaves hold
 * exactly the features with a non-empty geometry, each inside its cell.
 */

export interface SpatialIndexCheck {
  status: 'valid' | 'missing' | 'invalid';
  /** Features the index holds; null without a readable index. */
  indexed_features: number | null;
  /** Why the index is missing or invalid; null when valid. */
  detail: string | null;
}

type Query = <T>(sql: string, params?: (string | number)[]) => T[];

interface Box { minX: number; maxX: number; minY: number; maxY: number }

const CELL_BYTES = 24;
/** rtree.c's RTREE_MAX_DEPTH. */
const MAX_DEPTH = 40;
/** rtree.c refuses nodes under 512 − 64 bytes. */
const MIN_NODE_BYTES = 448;

class IndexDefect extends Error {}

function defect(condition: boolean, detail: string): void {
  if (condition) throw new IndexDefect(detail);
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The tree from node 1 down: each leaf cell's box by feature id, each non-root node's parent. */
function walkTree(blobs: Map<number, Uint8Array>): { leaves: Map<number, { node: number; box: Box }>; parents: Map<number, number> } {
  const root = blobs.get(1);
  defect(!root, 'The index has no root node (node 1).');
  const size = root!.length;
  defect(size < MIN_NODE_BYTES, `Node 1 is ${size} bytes, under SQLite's minimum of ${MIN_NODE_BYTES}.`);
  const view = (blob: Uint8Array) => new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const depth = view(root!).getUint16(0);
  defect(depth > MAX_DEPTH, `The tree claims a depth of ${depth}, over SQLite's ${MAX_DEPTH}.`);
  const leaves = new Map<number, { node: number; box: Box }>();
  const parents = new Map<number, number>();
  const seen = new Set<number>();
  const visit = (node: number, height: number, bound: Box | undefined): void => {
    const blob = blobs.get(node);
    defect(!blob, `Node ${node} is referenced but absent.`);
    defect(seen.has(node), `Node ${node} is referenced twice.`);
    seen.add(node);
    defect(blob!.length !== size, `Node ${node} is ${blob!.length} bytes, not the ${size} of node 1.`);
    const data = view(blob!);
    const count = data.getUint16(2);
    defect(4 + count * CELL_BYTES > size, `Node ${node} claims ${count} cells, more than its ${size} bytes hold.`);
    for (let i = 0; i < count; i++) {
      const at = 4 + i * CELL_BYTES;
      const id = Number(data.getBigInt64(at));
      const box = { minX: data.getFloat32(at + 8), maxX: data.getFloat32(at + 12), minY: data.getFloat32(at + 16), maxY: data.getFloat32(at + 20) };
      defect(!(box.minX <= box.maxX && box.minY <= box.maxY), `Node ${node} has a cell whose minimum exceeds its maximum.`);
      defect(bound !== undefined && !(bound.minX <= box.minX && box.maxX <= bound.maxX && bound.minY <= box.minY && box.maxY <= bound.maxY),
        `A cell of node ${node} reaches outside its parent's cell.`);
      if (height === 0) {
        defect(leaves.has(id), `Feature ${id} is indexed twice.`);
        leaves.set(id, { node, box });
      } else {
        parents.set(id, node);
        visit(id, height - 1, box);
      }
    }
  };
  visit(1, depth, undefined);
  defect(seen.size !== blobs.size, `${blobs.size - seen.size} node(s) are not in the tree.`);
  return { leaves, parents };
}

function sameMap(table: Map<number, number>, tree: Map<number, number>): boolean {
  return table.size === tree.size && [...tree].every(([key, value]) => table.get(key) === value);
}

/** The index of `table`.`column`: `query` runs SQL on the package (sql.js, without the R*Tree module). */
export function checkSpatialIndex(query: Query, table: string, column: string): SpatialIndexCheck {
  const rtree = `rtree_${table}_${column}`;
  const declared = query<{ sql: string }>('SELECT sql FROM sqlite_master WHERE type = \'table\' AND name = ?', [rtree])[0];
  const registered = query<{ n: number }>('SELECT COUNT(*) AS n FROM sqlite_master WHERE type = \'table\' AND name = \'gpkg_extensions\'')[0]!.n > 0
    && query('SELECT 1 FROM gpkg_extensions WHERE table_name = ? AND lower(column_name) = lower(?) AND extension_name = \'gpkg_rtree_index\'', [table, column]).length > 0;
  if (!declared) {
    return registered
      ? { status: 'invalid', indexed_features: null, detail: `gpkg_extensions registers a spatial index but the package has no table ${rtree}.`.slice(0, 400) }
      : { status: 'missing', indexed_features: null, detail: `The layer has no spatial index (no ${rtree}); GIS tools build one on demand.`.slice(0, 400) };
  }
  try {
    defect(!/^CREATE VIRTUAL TABLE\s+\S+\s+USING\s+rtree\s*\(\s*\w+\s*(,\s*\w+\s*){4}\)$/i.test(declared.sql.trim()), `${rtree} is not a two-dimensional rtree virtual table.`);
    defect(!registered, `${rtree} exists but gpkg_extensions does not register it (extension gpkg_rtree_index).`);
    let shadow: { nodes: { nodeno: number; data: Uint8Array }[]; rowids: { k: number; v: number }[]; parents: { k: number; v: number }[] };
    try {
      shadow = {
        nodes: query(`SELECT nodeno, data FROM ${quoted(`${rtree}_node`)}`),
        rowids: query(`SELECT rowid AS k, nodeno AS v FROM ${quoted(`${rtree}_rowid`)}`),
        parents: query(`SELECT nodeno AS k, parentnode AS v FROM ${quoted(`${rtree}_parent`)}`),
      };
    } catch (error) {
      throw new IndexDefect(`The index's tables cannot be read: ${(error as Error).message}`);
    }
    defect(shadow.nodes.some((n) => !(n.data instanceof Uint8Array)), 'A node of the index is not a blob.');
    const { leaves, parents } = walkTree(new Map(shadow.nodes.map((n) => [n.nodeno, n.data])));
    defect(!sameMap(new Map(shadow.rowids.map((r) => [r.k, r.v])), new Map([...leaves].map(([id, leaf]) => [id, leaf.node]))), `${rtree}_rowid does not map each indexed feature to its leaf.`);
    defect(!sameMap(new Map(shadow.parents.map((r) => [r.k, r.v])), parents), `${rtree}_parent does not map each node to its parent.`);
    const pk = query<{ name: string; pk: number }>(`PRAGMA table_info(${quoted(table)})`).find((c) => c.pk === 1)?.name;
    defect(pk === undefined, `The layer ${table} has no integer primary key to index.`);
    const unindexed = new Set(leaves.keys());
    for (const row of query<{ id: number; geom: unknown }>(`SELECT ${quoted(pk!)} AS id, ${quoted(column)} AS geom FROM ${quoted(table)}`)) {
      unindexed.delete(row.id);
      let envelope: Box | undefined;
      try {
        const geometry = row.geom instanceof Uint8Array ? gpkgBlobToGeometry(row.geom) : null;
        if (geometry) {
          forEachPosition(geometry, ([x, y]) => {
            envelope = envelope
              ? { minX: Math.min(envelope.minX, x!), maxX: Math.max(envelope.maxX, x!), minY: Math.min(envelope.minY, y!), maxY: Math.max(envelope.maxY, y!) }
              : { minX: x!, maxX: x!, minY: y!, maxY: y! };
          });
        }
      } catch (error) {
        if (!(error instanceof WkbError)) throw error;
        continue; // a broken geometry is reported as a feature error; whether it is indexed is not decidable
      }
      const cell = leaves.get(row.id)?.box;
      if (!envelope) {
        defect(cell !== undefined, `Feature ${row.id} has no geometry but is indexed.`);
        continue;
      }
      defect(!cell, `Feature ${row.id} is not in the index.`);
      defect(!(cell!.minX <= envelope.minX && envelope.maxX <= cell!.maxX && cell!.minY <= envelope.minY && envelope.maxY <= cell!.maxY), `Feature ${row.id} lies outside its cell in the index.`);
    }
    defect(unindexed.size > 0, `The index holds ${unindexed.size} feature id(s) the layer does not have.`);
    return { status: 'valid', indexed_features: leaves.size, detail: null };
  } catch (error) {
    // Whatever the tables hold, an unreadable index is a finding, never a failed request.
    const detail = error instanceof IndexDefect ? error.message : `The index cannot be read: ${(error as Error).message}`;
    return { status: 'invalid', indexed_features: null, detail: detail.slice(0, 400) };
  }
}
