import { isDepression, OFF_MODEL, SEA, type DepressionHierarchy } from './depressions';

const { Math: math, Number: num } = globalThis;

export type DepressionStatus = 'partial' | 'full' | 'spilling';

/** A storm's runoff held in the depressions (fill–spill–merge, Barnes, Callaghan & Wickert 2020, part 3). */
export interface StormPonding {
  hierarchy: DepressionHierarchy;
  /** Runoff depth over the land (m). */
  runoff_m: number;
  /** m³ of runoff produced on the land. */
  runoff_m3: number;
  /** m³ that reached the sea and that left the model at its edge. */
  to_sea_m3: number;
  off_model_m3: number;
  /** m³ held in each node's subtree. */
  stored: Float64Array;
  /** The node passed water on beyond its outlet. */
  spilled: Uint8Array;
  /** Water surface over each node's own cells (NAVD88 m); -Infinity where its lake does not reach them. */
  level: Float64Array;
  /** Ponded depth per cell (m), 0 where dry. */
  depth: Float32Array;
  ponded_area_m2: number;
  ponded_volume_m3: number;
  max_depth_m: number;
}

/**
 * Fills the depressions with a uniform runoff depth: each depression from its own catchment;
 * what exceeds a depression's capacity spills over its outlet into the depression beyond (its
 * sibling in the hierarchy), and once both are full the water rises in their joint lake, until it
 * leaves over a top's outlet to the sea or off the model. Volume is conserved exactly:
 * runoff = stored + to the sea + off the model.
 */
export function fillSpillMerge(h: DepressionHierarchy, runoffMetres: number): StormPonding {
  const q = math.max(0, runoffMetres);
  const stored = new Float64Array(h.count);
  const spilled = new Uint8Array(h.count);
  let runoff = 0;
  for (let node = 0; node < h.count; node++) {
    const own = node < h.leafCount + 2 ? q * h.catchment[node]! : 0;
    runoff += own;
    if (isDepression(node)) stored[node] = own;
  }
  const left = [q * h.catchment[SEA]!, q * h.catchment[OFF_MODEL]!];

  const addUp = (from: number, amount: number, stop: number) => {
    for (let node = from; ; node = h.parent[node]!) {
      stored[node] += amount;
      if (node === stop) return;
    }
  };
  const sibling = (node: number) => {
    const parent = h.parent[node]!;
    return h.left[parent] === node ? h.right[parent]! : h.left[parent]!;
  };
  // Pours `amount` into the leaf `entry` of the settled subtree `stop`; returns what overflows `stop`.
  // Iterative (a stack of suspended pours), so deep hierarchies cannot exhaust the call stack.
  const resume: number[] = [];
  const pour = (entry: number, amount: number, stop: number): number => {
    let node = entry, top = stop, water = amount;
    for (;;) {
      let back: number | undefined;
      const room = h.capacity[node]! - stored[node]!;
      if (water <= 0 || water <= room) { addUp(node, math.max(0, water), top); back = 0; } else {
        if (room > 0) { addUp(node, room, top); water -= room; }
        spilled[node] = 1;
        if (node === top) back = water;
        else {
          resume.push(h.parent[node]!, top, water);
          const next = sibling(node);
          node = h.overflowLeaf[node]!;
          top = next;
          continue;
        }
      }
      if (resume.length === 0) return back;
      const sent = resume.pop()!;
      top = resume.pop()!;
      node = resume.pop()!;
      addUp(node, sent - back, top);
      water = back;
    }
  };

  const settle = (node: number) => {
    const excess = stored[node]! - h.capacity[node]!;
    if (excess <= 0) return 0;
    stored[node] = h.capacity[node]!;
    spilled[node] = 1;
    return excess;
  };
  for (const event of h.events) {
    if (event < 0) {
      const top = -event - 1;
      left[h.parent[top]!]! += settle(top);
      continue;
    }
    const a = h.left[event]!, b = h.right[event]!;
    const fromA = settle(a), fromB = settle(b);
    const beyond = (fromA > 0 ? pour(h.overflowLeaf[a]!, fromA, b) : 0) + (fromB > 0 ? pour(h.overflowLeaf[b]!, fromB, a) : 0);
    stored[event] = stored[a]! + stored[b]! + beyond;
  }

  const level = lakeLevels(h, stored);
  const { depth, area, volume, max } = depthGrid(h, level);
  return {
    hierarchy: h, runoff_m: q, runoff_m3: runoff, to_sea_m3: left[SEA]!, off_model_m3: left[OFF_MODEL]!,
    stored, spilled, level, depth, ponded_area_m2: area, ponded_volume_m3: volume, max_depth_m: max,
  };
}

/** Relative tolerance under which a depression counts as full. */
const FULL = 1e-9;

export function statusOf(p: StormPonding, node: number): DepressionStatus {
  if (p.spilled[node]) return 'spilling';
  return p.stored[node]! >= p.hierarchy.capacity[node]! * (1 - FULL) ? 'full' : 'partial';
}

/**
 * The water surface over each node's own cells, parents first: a full node stands at its spill
 * level; a parent whose water rises above its children's outlet covers them at its own level; a
 * node partly filled is solved on its cells' elevations (sorted) for the level that holds its water.
 */
function lakeLevels(h: DepressionHierarchy, stored: Float64Array): Float64Array {
  const level = new Float64Array(h.count).fill(-Infinity);
  const solve: number[] = [];
  for (let node = h.count - 1; node >= 2; node--) {
    const parent = h.parent[node]!;
    const children = h.left[node]! >= 0 ? h.capacity[h.left[node]!]! + h.capacity[h.right[node]!]! : 0;
    if (isDepression(parent) && level[parent]! >= h.spill[node]!) level[node] = level[parent]!;
    else if (stored[node]! >= h.capacity[node]! * (1 - FULL) && stored[node]! > 0) level[node] = h.spill[node]!;
    else if (stored[node]! > 0 && stored[node]! >= children * (1 - FULL)) solve.push(node);
  }
  if (solve.length === 0) return level;

  // The cells of each node to solve, grouped (a counting sort), each group sorted by elevation.
  const slot = new Int32Array(h.count).fill(-1);
  solve.forEach((node, k) => { slot[node] = k; });
  const start = new Int32Array(solve.length + 1);
  for (let i = 0; i < h.cellNode.length; i++) {
    const node = h.cellNode[i]!;
    if (node >= 0 && slot[node]! >= 0) start[slot[node]! + 1]++;
  }
  for (let k = 0; k < solve.length; k++) start[k + 1] += start[k]!;
  const cells = new Int32Array(start[solve.length]!);
  const fill = start.slice(0, solve.length);
  for (let i = 0; i < h.cellNode.length; i++) {
    const node = h.cellNode[i]!;
    if (node >= 0 && slot[node]! >= 0) cells[fill[slot[node]!]!++] = i;
  }
  const { values, rowAreas, width } = h.surface;
  solve.forEach((node, k) => {
    const own = cells.subarray(start[k]!, start[k + 1]!).sort((x, y) => values[x]! - values[y]!);
    const child = h.left[node]!;
    // Volume below level z: base + area × (z - from), piecewise linear between cell elevations.
    let base = child >= 0 ? h.capacity[child]! + h.capacity[h.right[node]!]! : 0;
    let wet = child >= 0 ? h.floodedArea[child]! + h.floodedArea[h.right[node]!]! : 0;
    let from = child >= 0 ? h.spill[child]! : values[own[0]!]!;
    const target = stored[node]!;
    let surface = h.spill[node]!;
    for (const cell of own) {
      const z = values[cell]!;
      const atZ = base + wet * (z - from);
      if (wet > 0 && atZ >= target) break;
      base = atZ; from = z;
      wet += rowAreas[math.floor(cell / width)]!;
    }
    if (wet > 0) surface = math.min(h.spill[node]!, from + (target - base) / wet);
    level[node] = surface;
  });
  // Nodes under a solved parent's lake take its level (parents come first in descending ids).
  for (let node = h.count - 1; node >= 2; node--) {
    const parent = h.parent[node]!;
    if (isDepression(parent) && level[parent]! >= h.spill[node]!) level[node] = level[parent]!;
  }
  return level;
}

function depthGrid(h: DepressionHierarchy, level: Float64Array) {
  const { values, rowAreas, width } = h.surface;
  const depth = new Float32Array(values.length);
  let area = 0, volume = 0, max = 0;
  for (let i = 0; i < depth.length; i++) {
    const node = h.cellNode[i]!;
    if (!isDepression(node)) continue;
    const d = level[node]! - values[i]!;
    if (!(d > 0)) continue;
    const a = rowAreas[math.floor(i / width)]!;
    depth[i] = d;
    area += a;
    volume += d * a;
    if (d > max) max = d;
  }
  return { depth, area, volume, max };
}

/** Rainfall ponding with a coastal tailwater beside the two components alone. */
export interface CompoundPonding {
  ponding: StormPonding;
  /** Per cell: the deeper of the coastal water (connected below the tailwater) and the ponding held against it. */
  depth: Float32Array;
  extent_m2: number;
  volume_m3: number;
  max_depth_m: number;
  /** m² wet in the compound case that neither the rainfall ponding alone nor the coastal water alone wets. */
  beyond_either_m2: number;
}

/**
 * Compound flooding: the storm's runoff filled on a hierarchy built with the sea at the tailwater
 * (`withTailwater`), combined with the coastal water itself: land whose spill level from open water
 * (`coastalSpill`, see flood-fill.ts) lies below the tailwater stands at the tailwater.
 */
export function compoundPonding(withTailwater: DepressionHierarchy, runoffMetres: number, rainAlone: Float32Array, coastalSpill: ArrayLike<number>): CompoundPonding {
  const ponding = fillSpillMerge(withTailwater, runoffMetres);
  const { values, water, rowAreas, width } = withTailwater.surface;
  const tailwater = withTailwater.tailwater;
  const depth = new Float32Array(values.length);
  let extent = 0, volume = 0, max = 0, beyond = 0;
  for (let i = 0; i < depth.length; i++) {
    const z = values[i]!;
    if (num.isNaN(z) || water?.[i] === 1) continue;
    const coastal = coastalSpill[i]! < tailwater ? tailwater - z : 0;
    const d = math.max(coastal, ponding.depth[i]!);
    if (!(d > 0)) continue;
    const a = rowAreas[math.floor(i / width)]!;
    depth[i] = d;
    extent += a;
    volume += d * a;
    if (d > max) max = d;
    if (!(coastal > 0) && !(rainAlone[i]! > 0)) beyond += a;
  }
  return { ponding, depth, extent_m2: extent, volume_m3: volume, max_depth_m: max, beyond_either_m2: beyond };
}
