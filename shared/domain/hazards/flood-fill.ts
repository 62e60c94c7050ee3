// Hot loops read Math and Number through module bindings (named apart, so no code placed ahead of
// this line meets a shadowed global): a global lookup costs about a hundred times
// more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;

/**
 * Priority flood from open water: for every cell, the lowest water level at which it is connected
 * (8-neighbour) to a water cell of the grid. A cell floods at level L when its spill level is below
 * L, so one pass answers every scenario and horizon. `isWater` says which cells are open water
 * (see inundation.ts); cells without data never flood.
 */
export function spillLevels(grid: FloodRaster, isWater: (index: number) => boolean): Float32Array {
  const { width, height, values } = grid;
  const n = width * height;
  const spill = new Float32Array(n).fill(Infinity);
  const heap = new MinHeap(math.min(n, 1 << 16));
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!num.isNaN(v) && isWater(i)) {
      spill[i] = v;
      heap.push(i, v);
    }
  }
  floodFromSeeds({ values, width, height }, spill, heap);
  return spill;
}

/** The cells of a raster a flood runs over (a grid, or one tile of a tiled model). */
export interface FloodRaster {
  values: Float32Array;
  width: number;
  height: number;
}

/**
 * Runs the priority flood from the seeds already in `heap` (each at its level in `spill`): every
 * reachable cell ends at the lowest level at which water from some seed reaches it. With `label`
 * each flooded cell takes the label of the seed that reached it first (its minimax watershed).
 */
export function floodFromSeeds(raster: FloodRaster, spill: Float32Array, heap: MinHeap, label?: Int32Array): void {
  const { width, height, values } = raster;
  while (heap.size > 0) {
    const [index, level] = heap.pop();
    if (level > spill[index]!) continue;
    const row = math.floor(index / width);
    const col = index - row * width;
    for (let dr = -1; dr <= 1; dr++) {
      const r = row + dr;
      if (r < 0 || r >= height) continue;
      for (let dc = -1; dc <= 1; dc++) {
        const c = col + dc;
        if ((dr === 0 && dc === 0) || c < 0 || c >= width) continue;
        const next = r * width + c;
        const ground = values[next]!;
        if (num.isNaN(ground)) continue;
        const candidate = math.max(level, ground);
        if (candidate < spill[next]!) {
          spill[next] = candidate;
          if (label) label[next] = label[index]!;
          heap.push(next, candidate);
        }
      }
    }
  }
}

/** Binary min-heap of (index, key) in typed arrays. */
export class MinHeap {
  private ids: Int32Array;
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.ids = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  push(id: number, key: number): void {
    if (this.size === this.ids.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.ids[i] = this.ids[parent]!;
      this.keys[i] = this.keys[parent]!;
      i = parent;
    }
    this.ids[i] = id;
    this.keys[i] = key;
  }

  pop(): [number, number] {
    const top: [number, number] = [this.ids[0]!, this.keys[0]!];
    const lastId = this.ids[--this.size]!;
    const lastKey = this.keys[this.size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= lastKey) break;
      this.ids[i] = this.ids[child]!;
      this.keys[i] = this.keys[child]!;
      i = child;
    }
    this.ids[i] = lastId;
    this.keys[i] = lastKey;
    return top;
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    this.ids = ids;
    this.keys = keys;
  }
}
