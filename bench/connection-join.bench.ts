/**
 * The join step of a model's tidal connection (`joinTiles`, tiled-connection.ts) at county sizes:
 * it holds every tile's rim at once, so its memory grows with the model, while the per-tile passes
 * do not. Synthetic traces stand for a model of n × n tiles of CONNECTION_TILE_SIDE cells (a sea
 * along the north edge, ground rising inland with noise; each tile's graph has as many edges per
 * rim cell as a traced tile of rough ground). `monroe` is a box of 95 × 95 tiles (Monroe County's
 * at 1 m, 3.8 × 10¹⁰ cells) with data in a mainland block and a band of keys only: the tiles
 * without data are not traced (connectionTiles), so the join holds only the others, each facing
 * the sea (no data) to its north where its northern neighbour has none. Each size runs in its own
 * process, so its peak RSS is its own; the anchor is the first.
 * Set BENCH_JOIN_TILES (tiles a side, or `monroe`, comma-separated) to change the sizes.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CONNECTION_TILE_SIDE, MAX_CONNECTION_TILES } from '../shared/domain/elevation-models/connection';
import { MAX_MODEL_CELLS } from '../shared/domain/elevation-models/budget';
import { joinTiles, rimCells, type TileTrace } from '../shared/domain/hazards/tiled-connection';

/** The join function's memory (`JOIN_WORKER_MEMORY_MB`, lib/elevation-tile-fan-out.ts), which runs the join in AWS. */
const JOIN_WORKER_MB = 10_240;
const SIZES = (process.env.BENCH_JOIN_TILES ?? '5,22,35,49,70,78,monroe').split(',');

/** A box of tiles and which of them hold data. */
interface Layout { tilesASide: number; holds: (tileRow: number, tileCol: number) => boolean }

/** Monroe's box at 1 m: the mainland (Everglades) in its north-east, the keys in a band two tiles wide from south-west to north-east. */
const MONROE: Layout = {
  tilesASide: 95,
  holds: (row, col) => (row < 25 && col >= 45) || (col >= 5 && col < 90 && Math.abs(row - (88 - Math.floor((col - 5) * 0.45))) < 1),
};

const layoutOf = (size: string): Layout => (size === 'monroe' ? MONROE : { tilesASide: Number(size), holds: () => true });

function syntheticTraces({ tilesASide, holds }: Layout): TileTrace[] {
  const side = CONNECTION_TILE_SIDE;
  const rim = rimCells(side, side);
  let seed = 1;
  const noise = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const traces: TileTrace[] = [];
  for (let tileRow = 0; tileRow < tilesASide; tileRow++) {
    for (let tileCol = 0; tileCol < tilesASide; tileCol++) {
      if (!holds(tileRow, tileCol)) continue;
      const seaToNorth = tileRow === 0 || !holds(tileRow - 1, tileCol);
      const rimGround = new Float32Array(rim.length), rimWater = new Uint8Array(rim.length);
      for (let k = 0; k < rim.length; k++) {
        rimGround[k] = (tileRow * side + Math.floor(rim[k]! / side)) * 0.001 + noise() * 2 - 0.5;
        rimWater[k] = seaToNorth && rim[k]! < side ? 1 : 0;
      }
      const from: number[] = [], to: number[] = [], level: number[] = [];
      // About 2.2 edges a rim cell, as a traced tile of the rough synthetic coast of the tests has
      // (test/helpers/synthetic-surface.ts: 2.05–2.24 in tiles of 2,048): the next cell, the one
      // after, and now and then a cell anywhere on the rim.
      const pass = (k: number, other: number) => { from.push(k + 1); to.push(other + 1); level.push(Math.max(rimGround[k]!, rimGround[other]!) + noise()); };
      for (let k = 0; k < rim.length; k++) {
        pass(k, (k + 1) % rim.length);
        pass(k, (k + 2) % rim.length);
        if (noise() < 0.2) pass(k, Math.floor(noise() * rim.length));
        if (rimWater[k] === 1) { from.push(0); to.push(k + 1); level.push(rimGround[k]!); }
      }
      traces.push({
        row: tileRow * side, col: tileCol * side, width: side, height: side, rimGround, rimWater,
        edgeFrom: Int32Array.from(from), edgeTo: Int32Array.from(to), edgeLevel: Float32Array.from(level),
      });
    }
  }
  return traces;
}

/** One size, in this process: prints `cells rimCells seconds peakMb reached` (peak RSS of the whole process). */
function measure(size: string): void {
  const layout = layoutOf(size);
  const traces = syntheticTraces(layout);
  const started = performance.now();
  const rims = joinTiles(traces);
  const seconds = (performance.now() - started) / 1000;
  const rimCount = traces.reduce((sum, trace) => sum + trace.rimGround.length, 0);
  const reached = rims.reduce((sum, levels) => sum + levels.filter((level) => level < Infinity).length, 0);
  const cells = layout.tilesASide ** 2 * CONNECTION_TILE_SIDE ** 2;
  process.stdout.write(`${traces.length} ${cells} ${rimCount} ${seconds} ${process.resourceUsage().maxRSS / 1024} ${reached}\n`);
}

function main(): void {
  console.log(`joinTiles over synthetic tiles of ${CONNECTION_TILE_SIDE} cells, each size in its own process; the join function has ${JOIN_WORKER_MB} MB; MAX_MODEL_CELLS ${MAX_MODEL_CELLS.toExponential(1)}, MAX_CONNECTION_TILES ${MAX_CONNECTION_TILES}`);
  console.log(`${'layout'.padStart(7)} ${'box cells'.padStart(9)} ${'data tiles'.padStart(10)} ${'rim cells'.padStart(11)} ${'join s'.padStart(8)} ${'peak RSS MB'.padStart(12)} ${'× anchor (s, MB)'.padStart(18)}  within ${JOIN_WORKER_MB} MB`);
  let anchor: { seconds: number; peakMb: number } | undefined;
  for (const size of SIZES) {
    const { tilesASide } = layoutOf(size);
    const label = size === 'monroe' ? 'monroe' : `${tilesASide}²`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=16000', __filename, 'measure', size], { encoding: 'utf8' });
    if (child.status !== 0) {
      console.log(`${label.padStart(7)} failed: ${(child.stderr.trim().split('\n').find((line) => /Error/.test(line)) ?? child.stderr.trim()).slice(0, 200)}`);
      continue;
    }
    const [tiles, cells, rimCount, seconds, peakMb, reached] = child.stdout.trim().split(' ').map(Number) as [number, number, number, number, number, number];
    if (reached !== rimCount) throw new Error(`The join left ${rimCount - reached} rim cells of a connected sea unreached.`);
    anchor ??= { seconds, peakMb };
    const ratio = `${(seconds / anchor.seconds).toFixed(1)}, ${(peakMb / anchor.peakMb).toFixed(1)}`;
    console.log(`${label.padStart(7)} ${cells.toExponential(2).padStart(9)} ${String(tiles).padStart(10)} ${String(rimCount).padStart(11)} ${seconds.toFixed(1).padStart(8)} ${peakMb.toFixed(0).padStart(12)} ${ratio.padStart(18)}  ${peakMb < JOIN_WORKER_MB ? 'yes' : 'no'}`);
  }
}

if (process.argv[2] === 'measure') measure(process.argv[3]!);
else main();
