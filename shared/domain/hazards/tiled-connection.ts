import { floodFromSeeds, MinHeap, type FloodRaster } from './flood-fill';

// Hot loops read Math and Number through module bindings (see flood-fill.ts).
const { Math: math, Number: num } = globalThis;

/**
 * Tidal connection over a model held as tiles, exactly as over the single grid they form, without
 * ever holding more than one tile (the parallel priority flood of Barnes 2016, "Parallel
 * priority-flood depression filling for trillion cell digital elevation models"):
 *
 * 1. `traceTile`, per tile: a priority flood seeded from the tile's open water (one node, its sea)
 *    and from every cell of its rim (one node each) labels each cell with the seed that reaches it
 *    lowest; where two labels meet, the lower of the levels at which they meet is an edge between
 *    them. That graph keeps the minimax (lowest-pass) distance between every two of its nodes
 *    within the tile.
 * 2. `joinTiles`, once: the tiles' graphs joined by the rim cells that touch across tile edges
 *    (and corners) give every rim cell its spill level over the whole model (a minimax Dijkstra
 *    from the seas).
 * 3. `settleTile`, per tile: the priority flood seeded from the tile's water and from its rim at
 *    those levels gives every cell its spill level over the whole model.
 *
 * Steps 1 and 3 are independent per tile (a worker pool locally, a Distributed Map in AWS); step 2
 * holds only the rims.
 */

/** A tile of a model: its cells and open water, and where its north-west cell sits in the model's grid. */
export interface ConnectionTile extends FloodRaster {
  /** 1 = open water (see inundation.ts). */
  water: Uint8Array;
  row: number;
  col: number;
}

/** What a tile hands to the join: its rim and the lowest passes between its nodes (0 = its sea, k + 1 = rim cell k). */
export interface TileTrace {
  row: number;
  col: number;
  width: number;
  height: number;
  /** Ground of each rim cell (NaN: no data), in `rimCells` order. */
  rimGround: Float32Array;
  /** 1 where the rim cell is open water. */
  rimWater: Uint8Array;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  edgeLevel: Float32Array;
}

/** A window of a model's grid: the row and column of its north-west cell, and its size. */
export interface TileWindow { row: number; col: number; width: number; height: number }

/** Tiles of at most `side` × `side` cells covering a `width` × `height` grid once, row by row. */
export function tileWindows(width: number, height: number, side: number): TileWindow[] {
  const windows: TileWindow[] = [];
  for (let row = 0; row < height; row += side) {
    for (let col = 0; col < width; col += side) windows.push({ row, col, width: math.min(side, width - col), height: math.min(side, height - row) });
  }
  return windows;
}

/** Local indices of a tile's rim, clockwise from its north-west cell, each cell once. */
export function rimCells(width: number, height: number): Int32Array {
  if (width === 0 || height === 0) return new Int32Array(0);
  if (height === 1) return Int32Array.from({ length: width }, (_, c) => c);
  if (width === 1) return Int32Array.from({ length: height }, (_, r) => r * width);
  const rim = new Int32Array(2 * (width + height) - 4);
  let k = 0;
  for (let c = 0; c < width; c++) rim[k++] = c;
  for (let r = 1; r < height; r++) rim[k++] = r * width + width - 1;
  for (let c = width - 2; c >= 0; c--) rim[k++] = (height - 1) * width + c;
  for (let r = height - 2; r >= 1; r--) rim[k++] = r * width;
  return rim;
}

/** Step 1: the tile's rim and the graph of lowest passes between its sea and its rim cells. */
export function traceTile(tile: ConnectionTile): TileTrace {
  const { width, height, values, water } = tile;
  const n = width * height;
  const rim = rimCells(width, height);
  const level = new Float32Array(n).fill(Infinity);
  const label = new Int32Array(n).fill(-1);
  const heap = new MinHeap(math.min(n, 1 << 16));
  const rimGround = new Float32Array(rim.length);
  const rimWater = new Uint8Array(rim.length);
  for (let k = 0; k < rim.length; k++) {
    const i = rim[k]!;
    rimGround[k] = values[i]!;
    rimWater[k] = water[i]!;
    if (num.isNaN(values[i]!)) continue;
    level[i] = values[i]!;
    label[i] = k + 1;
    heap.push(i, level[i]);
  }
  for (let i = 0; i < n; i++) {
    if (water[i] !== 1 || label[i] !== -1 || num.isNaN(values[i]!)) continue;
    level[i] = values[i]!;
    label[i] = 0;
    heap.push(i, level[i]);
  }
  floodFromSeeds(tile, level, heap, label);

  // Where two watersheds touch (8-neighbour), water passes between their seeds at the higher of the two levels.
  const nodes = rim.length + 1;
  const lowest = new Map<number, number>();
  const meet = (a: number, b: number) => {
    const la = label[a]!, lb = label[b]!;
    if (la === lb || la < 0 || lb < 0) return;
    const key = la < lb ? la * nodes + lb : lb * nodes + la;
    const pass = math.max(level[a]!, level[b]!);
    const known = lowest.get(key);
    if (known === undefined || pass < known) lowest.set(key, pass);
  };
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const i = r * width + c;
      if (c + 1 < width) meet(i, i + 1);
      if (r + 1 < height) {
        meet(i, i + width);
        if (c + 1 < width) meet(i, i + width + 1);
        if (c > 0) meet(i, i + width - 1);
      }
    }
  }
  const edgeFrom = new Int32Array(lowest.size), edgeTo = new Int32Array(lowest.size), edgeLevel = new Float32Array(lowest.size);
  let e = 0;
  for (const [key, pass] of lowest) {
    edgeFrom[e] = math.floor(key / nodes);
    edgeTo[e] = key % nodes;
    edgeLevel[e++] = pass;
  }
  return { row: tile.row, col: tile.col, width, height, rimGround, rimWater, edgeFrom, edgeTo, edgeLevel };
}

/**
 * Step 2: every rim cell's spill level over the whole model (Infinity where no water reaches it),
 * per tile in `traces` order and `rimCells` order. The traces must tile the model's grid without
 * overlap; tiles need not be the same size or on one lattice.
 *
 * It holds the rims only, in typed arrays: 10⁷ rim cells (a 5 × 10⁹-cell model in tiles of 2,048)
 * peak at 1.85 GB with their traces (bench/connection-join.bench.ts).
 */
export function joinTiles(traces: readonly TileTrace[]): Float32Array[] {
  const offsets = new Int32Array(traces.length);
  let total = 0, tileEdges = 0;
  traces.forEach((trace, t) => {
    offsets[t] = total;
    total += trace.rimGround.length + 1;
    tileEdges += trace.edgeFrom.length;
  });
  const ground = new Float32Array(total).fill(NaN);
  traces.forEach((trace, t) => ground.set(trace.rimGround, offsets[t]! + 1));
  const rims = rimsByRow(traces, offsets, total);

  // Edges: the tiles' own graphs, and neighbouring rim cells (at the higher ground; those of one
  // tile repeat a pass its graph already bounds, which leaves the answer as it is). A rim cell with
  // data has at most four such neighbours after it: east in its row, and three in the next row.
  const edges = EdgeList.ofCapacity(tileEdges + 4 * rims.cells);
  traces.forEach((trace, t) => {
    for (let e = 0; e < trace.edgeFrom.length; e++) edges.add(offsets[t]! + trace.edgeFrom[e]!, offsets[t]! + trace.edgeTo[e]!, trace.edgeLevel[e]!);
  });
  const link = (node: number, other: number) => edges.add(node, other, math.max(ground[node]!, ground[other]!));
  for (let row = 0; row + 1 < rims.rowStart.length; row++) {
    const end = rims.rowStart[row + 1]!, nextEnd = rims.rowStart[row + 2] ?? end;
    let below = end;
    for (let i = rims.rowStart[row]!; i < end; i++) {
      const col = rims.colOf(i), node = rims.nodeOf(i);
      if (i + 1 < end && rims.colOf(i + 1) === col + 1) link(node, rims.nodeOf(i + 1));
      while (below < nextEnd && rims.colOf(below) < col - 1) below++;
      for (let j = below; j < nextEnd && rims.colOf(j) <= col + 1; j++) link(node, rims.nodeOf(j));
    }
  }
  const spill = lowestPasses(total, edges, (node) => {
    const t = tileOf(offsets, node);
    const k = node - offsets[t]!;
    if (k === 0) return -Infinity;
    return traces[t]!.rimWater[k - 1] === 1 ? ground[node]! : Infinity;
  });
  return traces.map((trace, t) => spill.slice(offsets[t]! + 1, offsets[t]! + 1 + trace.rimGround.length));
}

/**
 * Every rim cell of the model with data by row, each row's cells in column order, as
 * `column × span + node` (exact in a double while the model is under 2^53 / span columns): a cell's
 * neighbours are found in its row and the next, with no map of every rim cell (a JavaScript Map
 * holds at most 2^24 keys). Cells without data join nothing and are left out.
 */
function rimsByRow(traces: readonly TileTrace[], offsets: Int32Array, total: number) {
  const span = 2 ** math.ceil(math.log2(total + 1));
  const height = math.max(0, ...traces.map((trace) => trace.row + trace.height));
  const width = math.max(0, ...traces.map((trace) => trace.col + trace.width));
  if (width * span > num.MAX_SAFE_INTEGER) throw new Error(`A model of ${width} columns and ${total} rim nodes is too large to join.`);
  const rowStart = new Int32Array(height + 1);
  const rimOf = traces.map((trace) => rimCells(trace.width, trace.height));
  traces.forEach((trace, t) => {
    const rim = rimOf[t]!;
    for (let k = 0; k < rim.length; k++) if (!num.isNaN(trace.rimGround[k]!)) rowStart[trace.row + math.floor(rim[k]! / trace.width) + 1]!++;
  });
  for (let row = 0; row < height; row++) rowStart[row + 1] += rowStart[row]!;
  const entries = new Float64Array(rowStart[height]!);
  const next = rowStart.slice(0, height);
  traces.forEach((trace, t) => {
    const rim = rimOf[t]!;
    for (let k = 0; k < rim.length; k++) {
      if (num.isNaN(trace.rimGround[k]!)) continue;
      const row = trace.row + math.floor(rim[k]! / trace.width), col = trace.col + (rim[k]! % trace.width);
      entries[next[row]!++] = col * span + offsets[t]! + k + 1;
    }
  });
  for (let row = 0; row < height; row++) entries.subarray(rowStart[row]!, rowStart[row + 1]!).sort();
  return {
    rowStart,
    cells: entries.length,
    colOf: (i: number) => math.floor(entries[i]! / span),
    nodeOf: (i: number) => entries[i]! % span,
  };
}

/** Edges of the rims' graph, in typed arrays of a known capacity. */
class EdgeList {
  size = 0;

  private constructor(readonly from: Int32Array, readonly to: Int32Array, readonly pass: Float32Array) {}

  static ofCapacity(capacity: number): EdgeList {
    return new EdgeList(new Int32Array(capacity), new Int32Array(capacity), new Float32Array(capacity));
  }

  add(from: number, to: number, pass: number): void {
    this.from[this.size] = from;
    this.to[this.size] = to;
    this.pass[this.size++] = pass;
  }
}

/** The tile whose nodes hold `node` (offsets ascending). */
function tileOf(offsets: Int32Array, node: number): number {
  let lo = 0, hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= node) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Minimax Dijkstra: each node's lowest level over all paths from the sources (`start` < Infinity).
 * Levels are float32 throughout: every one is a ground or pass value of the tiles, or ±Infinity.
 */
function lowestPasses(count: number, edges: EdgeList, start: (node: number) => number): Float32Array {
  const { from, to, pass, size } = edges;
  const degree = new Int32Array(count + 1);
  for (let e = 0; e < size; e++) { degree[from[e]! + 1]++; degree[to[e]! + 1]++; }
  for (let v = 0; v < count; v++) degree[v + 1] += degree[v]!;
  const next = degree.slice(0, count);
  const neighbour = new Int32Array(2 * size), weight = new Float32Array(2 * size);
  for (let e = 0; e < size; e++) {
    const a = from[e]!, b = to[e]!;
    neighbour[next[a]!] = b; weight[next[a]!++] = pass[e]!;
    neighbour[next[b]!] = a; weight[next[b]!++] = pass[e]!;
  }
  const level = new Float32Array(count);
  const heap = new MinHeap(1 << 12);
  for (let v = 0; v < count; v++) {
    level[v] = start(v);
    if (level[v]! < Infinity) heap.push(v, level[v]!);
  }
  while (heap.size > 0) {
    const [v, at] = heap.pop();
    if (at > level[v]!) continue;
    for (let j = degree[v]!; j < degree[v + 1]!; j++) {
      const candidate = math.max(at, weight[j]!);
      const u = neighbour[j]!;
      if (candidate < level[u]!) {
        level[u] = candidate;
        heap.push(u, candidate);
      }
    }
  }
  return level;
}

/** Step 3: every cell's spill level over the whole model, from the tile's water and its rim's levels (joinTiles). */
export function settleTile(tile: ConnectionTile, rimSpill: Float32Array): Float32Array {
  const { width, height, values, water } = tile;
  const n = width * height;
  const spill = new Float32Array(n).fill(Infinity);
  const heap = new MinHeap(math.min(n, 1 << 16));
  for (let i = 0; i < n; i++) {
    if (water[i] === 1 && !num.isNaN(values[i]!)) {
      spill[i] = values[i]!;
      heap.push(i, spill[i]);
    }
  }
  const rim = rimCells(width, height);
  for (let k = 0; k < rim.length; k++) {
    const i = rim[k]!;
    if (rimSpill[k]! < spill[i]!) {
      spill[i] = rimSpill[k]!;
      heap.push(i, spill[i]);
    }
  }
  floodFromSeeds(tile, spill, heap);
  return spill;
}

const TRACE_FIELDS = ['rimGround', 'rimWater', 'edgeFrom', 'edgeTo', 'edgeLevel'] as const;

/**
 * A trace as bytes, for a join that runs elsewhere (another Lambda): a little-endian header of
 * the tile's place and each array's length, then the arrays, each on a 4-byte boundary.
 */
export function encodeTrace(trace: TileTrace): Uint8Array {
  const arrays = TRACE_FIELDS.map((field) => trace[field]);
  const header = new Int32Array([trace.row, trace.col, trace.width, trace.height, ...arrays.map((a) => a.length)]);
  const padded = (bytes: number) => math.ceil(bytes / 4) * 4;
  const out = new Uint8Array(header.byteLength + arrays.reduce((sum, a) => sum + padded(a.byteLength), 0));
  out.set(new Uint8Array(header.buffer));
  let at = header.byteLength;
  for (const a of arrays) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += padded(a.byteLength);
  }
  return out;
}

export function decodeTrace(bytes: Uint8Array): TileTrace {
  const copy = bytes.slice();
  const header = new Int32Array(copy.buffer, 0, 4 + TRACE_FIELDS.length);
  const [row, col, width, height] = header;
  const lengths = [...header.subarray(4)];
  let at = header.byteLength;
  const take = <T>(make: (buffer: ArrayBuffer, offset: number, length: number) => T, length: number, size: number): T => {
    const array = make(copy.buffer, at, length);
    at += math.ceil((length * size) / 4) * 4;
    return array;
  };
  return {
    row: row!, col: col!, width: width!, height: height!,
    rimGround: take((b, o, l) => new Float32Array(b, o, l), lengths[0]!, 4),
    rimWater: take((b, o, l) => new Uint8Array(b, o, l), lengths[1]!, 1),
    edgeFrom: take((b, o, l) => new Int32Array(b, o, l), lengths[2]!, 4),
    edgeTo: take((b, o, l) => new Int32Array(b, o, l), lengths[3]!, 4),
    edgeLevel: take((b, o, l) => new Float32Array(b, o, l), lengths[4]!, 4),
  };
}
