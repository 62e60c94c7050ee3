/**
 * The join step of a model's tidal connection (`joinTiles`, tiled-connection.ts) at county sizes:
 * it holds every tile's rim at once, so its memory grows with the model, while the per-tile passes
 * do not. Synthetic traces stand for a model of n × n tiles of CONNECTION_TILE_SIDE cells (a sea
 * along the north edge, ground rising inland with noise; each tile's graph has as many edges per
 * rim cell as a traced tile of rough ground). Each size runs in its own process, so its peak RSS is
 * its own; the anchor is the smallest.
 * Set BENCH_JOIN_TILES (tiles a side, comma-separated) to change the sizes.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CONNECTION_TILE_SIDE } from '../shared/domain/elevation-models/connection';
import { MAX_MODEL_CELLS } from '../shared/domain/elevation-models/budget';
import { joinTiles, rimCells, type TileTrace } from '../shared/domain/hazards/tiled-connection';

/** The join function's memory (`JOIN_WORKER_MEMORY_MB`, lib/elevation-tile-fan-out.ts), which runs the join in AWS. */
const JOIN_WORKER_MB = 10_240;
const SIDES = (process.env.BENCH_JOIN_TILES ?? '5,22,35,49,70').split(',').map(Number);

function syntheticTraces(tilesASide: number): TileTrace[] {
  const side = CONNECTION_TILE_SIDE;
  const rim = rimCells(side, side);
  let seed = 1;
  const noise = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const traces: TileTrace[] = [];
  for (let tileRow = 0; tileRow < tilesASide; tileRow++) {
    for (let tileCol = 0; tileCol < tilesASide; tileCol++) {
      const rimGround = new Float32Array(rim.length), rimWater = new Uint8Array(rim.length);
      for (let k = 0; k < rim.length; k++) {
        rimGround[k] = (tileRow * side + Math.floor(rim[k]! / side)) * 0.001 + noise() * 2 - 0.5;
        rimWater[k] = tileRow === 0 && rim[k]! < side ? 1 : 0;
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
function measure(tilesASide: number): void {
  const traces = syntheticTraces(tilesASide);
  const started = performance.now();
  const rims = joinTiles(traces);
  const seconds = (performance.now() - started) / 1000;
  const rimCount = traces.reduce((sum, trace) => sum + trace.rimGround.length, 0);
  const reached = rims.reduce((sum, levels) => sum + levels.filter((level) => level < Infinity).length, 0);
  const cells = tilesASide ** 2 * CONNECTION_TILE_SIDE ** 2;
  process.stdout.write(`${cells} ${rimCount} ${seconds} ${process.resourceUsage().maxRSS / 1024} ${reached}\n`);
}

function main(): void {
  console.log(`joinTiles over n × n synthetic tiles of ${CONNECTION_TILE_SIDE} cells, each size in its own process; the join function has ${JOIN_WORKER_MB} MB; MAX_MODEL_CELLS ${MAX_MODEL_CELLS.toExponential(1)}`);
  console.log(`${'tiles'.padStart(7)} ${'cells'.padStart(9)} ${'rim cells'.padStart(11)} ${'join s'.padStart(8)} ${'peak RSS MB'.padStart(12)} ${'× anchor (s, MB)'.padStart(18)}  within ${JOIN_WORKER_MB} MB`);
  let anchor: { seconds: number; peakMb: number } | undefined;
  for (const tilesASide of SIDES) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=16000', __filename, 'measure', String(tilesASide)], { encoding: 'utf8' });
    if (child.status !== 0) {
      console.log(`${String(tilesASide ** 2).padStart(7)} failed: ${(child.stderr.trim().split('\n').find((line) => /Error/.test(line)) ?? child.stderr.trim()).slice(0, 200)}`);
      continue;
    }
    const [cells, rimCount, seconds, peakMb, reached] = child.stdout.trim().split(' ').map(Number) as [number, number, number, number, number];
    if (reached !== rimCount) throw new Error(`The join left ${rimCount - reached} rim cells of a connected sea unreached.`);
    anchor ??= { seconds, peakMb };
    const ratio = `${(seconds / anchor.seconds).toFixed(1)}, ${(peakMb / anchor.peakMb).toFixed(1)}`;
    console.log(`${String(tilesASide ** 2).padStart(7)} ${cells.toExponential(2).padStart(9)} ${String(rimCount).padStart(11)} ${seconds.toFixed(1).padStart(8)} ${peakMb.toFixed(0).padStart(12)} ${ratio.padStart(18)}  ${peakMb < JOIN_WORKER_MB ? 'yes' : 'no'}`);
  }
}

if (process.argv[2] === 'measure') measure(Number(process.argv[3]));
else main();
