import { MinHeap } from './flood-fill';

// Hot loops read Math and Number through module bindings (see flood-fill.ts).
const { Math: math, Number: num } = globalThis;

/**
 * Ground for depression storage: row-major elevations (NAVD88 m, NaN = no data), the area of one
 * cell of each row, and the open water (the sea or a bay: an outlet). Water leaves the model at
 * its edge and beside cells without data.
 */
export interface DepressionSurface {
  values: Float32Array | Float64Array;
  width: number;
  height: number;
  /** m² of one cell of each row. */
  rowAreas: Float64Array;
  /** 1 = open water. */
  water?: Uint8Array;
}

/** Where water goes that leaves every depression: the sea (open water) or off the model. */
export const SEA = 0;
export const OFF_MODEL = 1;
const FIRST_DEPRESSION = 2;

/**
 * The depression hierarchy of Barnes, Callaghan & Wickert (2020, part 2): the leaves are the
 * basins of the pits, found by one priority flood from the pits and the outlets; two depressions
 * that meet at their lowest outlet become a parent (a meta-depression) that fills as one lake above
 * that level; a depression whose lowest outlet leads to the sea or off the model is a top. Node
 * ids: SEA, OFF_MODEL, then the leaves, then the parents in the order they form (rising level),
 * so a parent's id is always above its children's.
 */
export interface DepressionHierarchy {
  surface: DepressionSurface;
  /** The coastal water level the sea stands at (NAVD88 m); -Infinity when none. */
  tailwater: number;
  /** Nodes, SEA and OFF_MODEL included. */
  count: number;
  leafCount: number;
  /** Parent node; for a top, SEA or OFF_MODEL; -1 for SEA and OFF_MODEL themselves. */
  parent: Int32Array;
  /** Children of a parent; -1 for a leaf. */
  left: Int32Array;
  right: Int32Array;
  /** Level (NAVD88 m) at which the node overflows: its lowest outlet. */
  spill: Float64Array;
  /** The leaf beyond the node's outlet, which receives its overflow (-1 for a top). */
  overflowLeaf: Int32Array;
  /** Lowest cell of the node. */
  pitCell: Int32Array;
  /** m² of the cells below the spill level, children included. */
  floodedArea: Float64Array;
  /** Σ elevation × area over those cells. */
  elevationArea: Float64Array;
  /** m³ held below the spill level, children included. */
  capacity: Float64Array;
  /** m² draining into the node (its leaves' basins); for SEA and OFF_MODEL, the land draining straight out. */
  catchment: Float64Array;
  /**
   * Per cell: the lowest node whose spill level lies above the cell (the lake that first covers
   * it), SEA or OFF_MODEL for cells above every depression on their way out, -1 without data.
   */
  cellNode: Int32Array;
  /** Merges in the order they happen: a parent's id, or -(node + 1) for a top leaving to SEA/OFF_MODEL. */
  events: Int32Array;
}

/** Elevation a cell holds water against: open water stands at the tailwater when it is higher. */
function effective(surface: DepressionSurface, tailwater: number, index: number): number {
  const z = surface.values[index]!;
  return surface.water?.[index] === 1 ? math.max(z, tailwater) : z;
}

/** Growable typed arrays of outlets between two leaves, keeping the lowest per pair. */
class Outlets {
  private readonly byPair = new Map<number, number>();
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  level = new Float64Array(1024);
  size = 0;

  constructor(private readonly labelSpan: number) {}

  record(x: number, y: number, level: number): void {
    const key = x < y ? x * this.labelSpan + y : y * this.labelSpan + x;
    const at = this.byPair.get(key);
    if (at !== undefined) {
      if (level < this.level[at]!) this.level[at] = level;
      return;
    }
    if (this.size === this.a.length) this.grow();
    this.a[this.size] = x;
    this.b[this.size] = y;
    this.level[this.size] = level;
    this.byPair.set(key, this.size++);
  }

  private grow(): void {
    const a = new Int32Array(this.a.length * 2); a.set(this.a); this.a = a;
    const b = new Int32Array(this.b.length * 2); b.set(this.b); this.b = b;
    const level = new Float64Array(this.level.length * 2); level.set(this.level); this.level = level;
  }
}

/**
 * Builds the hierarchy in time O(n log n) and memory linear in the cells (typed arrays only).
 * With a tailwater, open water stands at that level, so land draining to the sea cannot drain
 * below it (compound flooding).
 */
export function depressionHierarchy(surface: DepressionSurface, tailwater = -Infinity): DepressionHierarchy {
  const { width, height, values } = surface;
  const n = width * height;
  const label = new Int32Array(n).fill(-1);
  const heap = new MinHeap(math.min(n, 1 << 16));
  const noData = (i: number) => num.isNaN(values[i]!);

  // Seeds: open water (the sea), cells at the model's edge or beside no data (off the model),
  // and pits (no lower neighbour), labelled when first popped.
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      if (noData(i)) continue;
      const z = effective(surface, tailwater, i);
      if (surface.water?.[i] === 1) { label[i] = SEA; heap.push(i, z); continue; }
      let border = row === 0 || col === 0 || row === height - 1 || col === width - 1;
      let lower = false;
      for (let dr = -1; dr <= 1 && !border; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          if (dr === 0 && dc === 0) continue;
          const j = i + dr * width + dc;
          if (noData(j)) { border = true; break; }
          if (effective(surface, tailwater, j) < z) lower = true;
        }
      }
      if (border) { label[i] = OFF_MODEL; heap.push(i, z); } else if (!lower) heap.push(i, z);
    }
  }

  let nextLabel = FIRST_DEPRESSION;
  const outlets = new Outlets(n + FIRST_DEPRESSION);
  const pits: number[] = [];
  while (heap.size > 0) {
    const [i, z] = heap.pop();
    if (label[i] === -1) { label[i] = nextLabel++; pits.push(i); }
    const own = label[i]!;
    const row = math.floor(i / width);
    const col = i - row * width;
    for (let dr = -1; dr <= 1; dr++) {
      const r = row + dr;
      if (r < 0 || r >= height) continue;
      for (let dc = -1; dc <= 1; dc++) {
        const c = col + dc;
        if ((dr === 0 && dc === 0) || c < 0 || c >= width) continue;
        const j = r * width + c;
        if (noData(j)) continue;
        const other = label[j]!;
        if (other === -1) {
          label[j] = own;
          heap.push(j, effective(surface, tailwater, j));
        } else if (other !== own && (own >= FIRST_DEPRESSION || other >= FIRST_DEPRESSION)) {
          outlets.record(own, other, math.max(z, effective(surface, tailwater, j)));
        }
      }
    }
  }

  const leafCount = nextLabel - FIRST_DEPRESSION;
  const capacityOfNodes = FIRST_DEPRESSION + 2 * leafCount;
  const h = emptyHierarchy(surface, tailwater, capacityOfNodes, n, leafCount);
  pits.forEach((cell, k) => { h.pitCell[FIRST_DEPRESSION + k] = cell; });
  const count = joinAtOutlets(h, outlets, nextLabel);
  h.count = count;
  measureVolumes(h, label);
  return h;
}

function emptyHierarchy(surface: DepressionSurface, tailwater: number, nodes: number, cells: number, leafCount: number): DepressionHierarchy {
  return {
    surface, tailwater, count: 0, leafCount,
    parent: new Int32Array(nodes).fill(-1),
    left: new Int32Array(nodes).fill(-1),
    right: new Int32Array(nodes).fill(-1),
    spill: new Float64Array(nodes).fill(Infinity),
    overflowLeaf: new Int32Array(nodes).fill(-1),
    pitCell: new Int32Array(nodes).fill(-1),
    floodedArea: new Float64Array(nodes),
    elevationArea: new Float64Array(nodes),
    capacity: new Float64Array(nodes),
    catchment: new Float64Array(nodes),
    cellNode: new Int32Array(cells).fill(-1),
    events: new Int32Array(nodes),
  };
}

/** Joins the depressions at their outlets, lowest first (a Kruskal pass with union–find); returns the node count. */
function joinAtOutlets(h: DepressionHierarchy, outlets: Outlets, firstParent: number): number {
  const order = new Uint32Array(outlets.size);
  for (let k = 0; k < order.length; k++) order[k] = k;
  order.sort((x, y) => outlets.level[x]! - outlets.level[y]! || x - y);

  const set = new Int32Array(h.parent.length);
  for (let k = 0; k < set.length; k++) set[k] = k;
  const top = Int32Array.from(set);
  const find = (x: number) => {
    while (set[x] !== x) { set[x] = set[set[x]!]!; x = set[x]!; }
    return x;
  };
  let next = firstParent;
  let events = 0;
  for (const k of order) {
    const a = outlets.a[k]!, b = outlets.b[k]!, level = outlets.level[k]!;
    const setA = find(a), setB = find(b);
    if (setA === setB) continue;
    const topA = top[setA]!, topB = top[setB]!;
    if (topA < FIRST_DEPRESSION && topB < FIRST_DEPRESSION) continue;
    if (topA < FIRST_DEPRESSION || topB < FIRST_DEPRESSION) {
      const [outlet, leaving] = topA < FIRST_DEPRESSION ? [topA, topB] : [topB, topA];
      h.parent[leaving] = outlet;
      h.spill[leaving] = level;
      h.events[events++] = -(leaving + 1);
      set[leaving === topA ? setA : setB] = outlet === topA ? setA : setB;
      continue;
    }
    const parent = next++;
    h.left[parent] = topA;
    h.right[parent] = topB;
    h.parent[topA] = parent;
    h.parent[topB] = parent;
    h.spill[topA] = level;
    h.spill[topB] = level;
    h.overflowLeaf[topA] = b;
    h.overflowLeaf[topB] = a;
    h.pitCell[parent] = h.surface.values[h.pitCell[topA]!]! <= h.surface.values[h.pitCell[topB]!]! ? h.pitCell[topA]! : h.pitCell[topB]!;
    h.events[events++] = parent;
    set[setB] = setA;
    top[setA] = parent;
  }
  h.events = h.events.subarray(0, events);
  return next;
}

/** Assigns every cell to the lowest node whose spill level lies above it, then sums areas and volumes up the tree. */
function measureVolumes(h: DepressionHierarchy, label: Int32Array): void {
  const { width, rowAreas } = h.surface;
  for (let i = 0; i < label.length; i++) {
    const leaf = label[i]!;
    if (leaf < 0) continue;
    const a = rowAreas[math.floor(i / width)]!;
    if (h.surface.water?.[i] === 1) { h.cellNode[i] = SEA; continue; }
    h.catchment[leaf] += a;
    const z = h.surface.values[i]!;
    let node = leaf;
    while (node >= FIRST_DEPRESSION && h.spill[node]! <= z) node = h.parent[node]!;
    h.cellNode[i] = node;
    if (node < FIRST_DEPRESSION) continue;
    h.floodedArea[node] += a;
    h.elevationArea[node] += a * z;
  }
  for (let node = FIRST_DEPRESSION; node < h.count; node++) {
    const parent = h.parent[node]!;
    h.capacity[node] = math.max(0, h.floodedArea[node]! * h.spill[node]! - h.elevationArea[node]!);
    if (parent < FIRST_DEPRESSION) continue;
    h.floodedArea[parent] += h.floodedArea[node]!;
    h.elevationArea[parent] += h.elevationArea[node]!;
    h.catchment[parent] += h.catchment[node]!;
  }
}

export function isDepression(node: number): boolean {
  return node >= FIRST_DEPRESSION;
}
