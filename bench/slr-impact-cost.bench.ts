/**
 * What a point's sea level rise answer costs beyond reading its ground: in this process, the whole
 * `assessSlrImpact` use case (gauges, projection, the window's ground, the point, the tidal
 * connection over the whole model, the inundated area) against a bare read of the same elevation
 * window from the same source, for points on the bundled quads, in alternating rounds. The ratio
 * per point is the median over rounds of (median answer time) / (median window-read time); the
 * target is an answer within 3 × the read. Both run warm: the model's tiles are then in its tile
 * cache, decoded, so the read is a copy out of memory and the ratio shows the answer's own work
 * (the flood model of the window above all). Successive answers take turns over scenarios, horizons
 * and percentiles, as a client asking a place's several futures does: the window's ground, flood
 * model and cells within the radius do not depend on them and are kept, so the first answer at a
 * window (reported apart) pays for them. No HTTP, no inventory: `slr-impact` (the other bench)
 * measures those.
 */
import { performance } from 'node:perf_hooks';
import { defaultElevationSource } from '../shared/adapters/elevation';
import { assessSlrImpact, windowAround } from '../shared/domain/hazards/slr-impact';
import { DEFAULT_IMPACT_RADIUS_KM } from '../shared/domain/hazards/vocabulary';
import { medianOf } from './lib/report';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 10);
const MAX_RATIO = 3;
/** The same cell limit the use case reads its window at. */
const WINDOW_CELLS = 400_000;
/** The futures a client asks of one place in turn. */
const FUTURES = [
  { scenario: 'intermediate', planningHorizon: 2070, percentile: '50' },
  { scenario: 'high', planningHorizon: 2100, percentile: '83' },
  { scenario: 'intermediate_low', planningHorizon: 2040, percentile: '17' },
  { scenario: 'intermediate_high', planningHorizon: 2070, percentile: '50' },
] as const;
const POINTS = [
  { name: 'Tampa, Hillsborough Bay shore', lat: 27.932, lon: -82.445 },
  { name: 'Cedar Key', lat: 29.138, lon: -83.035 },
  { name: 'Merritt Island (three adjoining quads)', lat: 28.36, lon: -80.68 },
];

async function timed(run: () => Promise<unknown>, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return medianOf(times);
}

async function main(): Promise<void> {
  // The local ground order: bundled quads, then SRTM (no bucket, no statewide source).
  process.env.APP_MODE ??= 'local';
  const elevation = defaultElevationSource();
  let worst = 0;
  for (const point of POINTS) {
    const read = () => elevation.grid(windowAround(point, DEFAULT_IMPACT_RADIUS_KM), WINDOW_CELLS);
    let asked = 0;
    const answer = () => assessSlrImpact({
      point, ...FUTURES[asked++ % FUTURES.length]!, radiusKm: DEFAULT_IMPACT_RADIUS_KM, includeGeoJson: false, currentYear: 2026,
    }, { elevation, assets: [] });
    if (!(await read())) throw new Error(`no elevation at ${point.name}`);
    const first = performance.now();
    await answer();
    const firstMs = performance.now() - first;
    await timed(read, 3);
    await timed(answer, 3);
    const ratios: number[] = [];
    const reads: number[] = [];
    const answers: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order, so a change in the machine's load hits both alike.
      let readMs: number;
      let answerMs: number;
      if (round % 2 === 0) {
        readMs = await timed(read, PER_ROUND);
        answerMs = await timed(answer, PER_ROUND);
      } else {
        answerMs = await timed(answer, PER_ROUND);
        readMs = await timed(read, PER_ROUND);
      }
      reads.push(readMs);
      answers.push(answerMs);
      ratios.push(answerMs / readMs);
    }
    const ratio = medianOf(ratios);
    worst = Math.max(worst, ratio);
    console.log(`${point.name} (${point.lat}, ${point.lon}), radius ${DEFAULT_IMPACT_RADIUS_KM} km: first answer ${firstMs.toFixed(0)} ms;`
      + ` median per round, window read ${reads.map((m) => m.toFixed(2)).join(', ')} ms; answer ${answers.map((m) => m.toFixed(2)).join(', ')} ms;`
      + ` ratio answer/read median ${ratio.toFixed(2)}`);
  }
  console.log(`worst ratio ${worst.toFixed(2)} (target ${MAX_RATIO})`);
  if (worst > MAX_RATIO) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
