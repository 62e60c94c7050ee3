import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { readCells, type PyramidIndex } from '../../domain/elevation-models/pyramid';
import { settleTile, traceTile, type ConnectionTile } from '../../domain/hazards/tiled-connection';
import { serveTasks } from '../worker-pool';
import type { ConnectionReply, ConnectionTask, TileCells } from './connection-threads';
import { MODEL_FILE } from './tiled-model';

/** A thread of the connection pool: one pass over one tile, read from where the task says. */

const indexes = new Map<string, Promise<PyramidIndex>>();

async function readTile(cells: TileCells, seaSurface: number): Promise<ConnectionTile> {
  const { row, col, width, height } = cells;
  let values: Float32Array, water: Uint8Array, flagged: boolean;
  if (cells.kind === 'given') {
    // Open water already decided by the caller.
    ({ values, water } = cells);
    flagged = true;
  } else if (cells.kind === 'raw') {
    const bytes = await readFile(cells.file);
    const n = width * height;
    if (bytes.byteLength !== n * 5) throw new Error(`Tile file ${path.basename(cells.file)} has ${bytes.byteLength} bytes, expected ${n * 5}.`);
    const copy = new Uint8Array(bytes);
    values = new Float32Array(copy.buffer, 0, n);
    water = copy.subarray(n * 4);
    flagged = true;
  } else {
    let index = indexes.get(cells.directory);
    if (!index) {
      index = readFile(path.join(cells.directory, MODEL_FILE), 'utf8').then((text) => (JSON.parse(text) as { pyramid: PyramidIndex }).pyramid);
      indexes.set(cells.directory, index);
    }
    const pyramid = await index;
    ({ values, water } = await readCells(pyramid, 0, row, col, width, height, (key) => readFile(path.join(cells.directory, key))));
    flagged = pyramid.has_water_flag;
  }
  // Without the source's own water flag, water is ground at or below the sea surface (as inundation.ts).
  if (!flagged) {
    const surface = Math.fround(seaSurface);
    for (let i = 0; i < values.length; i++) water[i] = values[i]! <= surface ? 1 : 0;
  }
  return { values, water, width, height, row, col };
}

/** Heap and off-heap arrays of this thread now (taken while the tile's arrays are still held). */
const threadBytes = () => {
  const heap = getHeapStatistics();
  return heap.used_heap_size + heap.external_memory;
};

serveTasks<ConnectionTask, ConnectionReply>(async (task) => {
  const tile = await readTile(task.cells, task.seaSurface);
  if (task.pass === 'trace') {
    const trace = traceTile(tile);
    const threadPeakBytes = threadBytes();
    return { result: { trace, threadPeakBytes }, transfer: [trace.rimGround.buffer, trace.rimWater.buffer, trace.edgeFrom.buffer, trace.edgeTo.buffer, trace.edgeLevel.buffer] as ArrayBuffer[] };
  }
  const spill = settleTile(tile, task.rimSpill);
  if (task.pass === 'spill') return { result: { spill, threadPeakBytes: threadBytes() }, transfer: [spill.buffer as ArrayBuffer] };
  const connected = task.levels.map(() => 0);
  let cells = 0;
  for (let i = 0; i < spill.length; i++) {
    if (Number.isNaN(tile.values[i]!)) continue;
    cells++;
    if (tile.water[i] === 1) continue;
    for (let k = 0; k < task.levels.length; k++) if (spill[i]! < task.levels[k]!) connected[k]!++;
  }
  return { result: { connected, cells, threadPeakBytes: threadBytes() } };
});
