/**
 * Flood analysis over a real county boundary (Monroe County, us-atlas) with 100,000 SYNTHETIC
 * assets (random points inside real Florida county boundaries, not real facilities): which assets
 * lie inside the boundary, by the flatbush index and by a naive point-in-polygon loop in the same
 * run; the whole 4-component analysis; the latency of a scenario lookup; and a year of predicted
 * tides per gauge (day-boundary levels in one timeline pass against one prediction per instant, and
 * the daily highest tides the flood-day projection needs).
 */
import { performance } from 'node:perf_hooks';
import { SrtmTileSource } from '../shared/adapters/elevation/srtm-tiles';
import { harmonicTides } from '../shared/adapters/hazard-tide-predictor';
import { validateBoundary } from '../shared/domain/hazards/boundary';
import { analyzeFlooding } from '../shared/domain/hazards/flood-analysis';
import { countyBoundaryByFips, floridaCountyBoundaries } from '../shared/domain/hazards/florida-counties';
import { GAUGES } from '../shared/domain/hazards/gauges';
import { dailyHighestTides } from '../shared/domain/hazards/tide-flood-days';
import { scenarioReport } from '../shared/domain/hazards/scenario-report';
import { AssetIndex, assetsWithinNaive } from '../shared/domain/hazards/spatial-index';
import { syntheticAssets } from '../test/helpers/synthetic-assets';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const LOOKUP_SECONDS = 1;

const ms = (start: number) => performance.now() - start;

async function main(): Promise<void> {
  const monroe = validateBoundary(countyBoundaryByFips('12087')!.geometry);
  if (!monroe.ok) throw new Error('Monroe County boundary did not validate');
  const { boundary } = monroe;
  console.log(`Monroe County (us-atlas): ${boundary.vertex_count} vertices, ${boundary.area_km2.toFixed(0)} km²; ${ASSETS} synthetic assets per set`);
  const statewide = syntheticAssets(ASSETS, floridaCountyBoundaries(), 2026, 'statewide');
  // Half of the assets in Monroe County, half spread over all 67 counties.
  const halfInside = [
    ...syntheticAssets(ASSETS / 2, [countyBoundaryByFips('12087')!], 2027, 'monroe'),
    ...syntheticAssets(ASSETS / 2, floridaCountyBoundaries(), 2028, 'spread'),
  ];
  for (const [label, assets] of [['statewide (uniform by county)', statewide], ['half in Monroe', halfInside]] as const) {
    let start = performance.now();
    const index = new AssetIndex(assets);
    const buildMs = ms(start);
    start = performance.now();
    const indexed = index.within(boundary.geometry, boundary.bbox);
    const indexedMs = ms(start);
    start = performance.now();
    const naive = assetsWithinNaive(assets, boundary.geometry);
    const naiveMs = ms(start);
    if (indexed.length !== naive.length) throw new Error(`index found ${indexed.length}, naive ${naive.length}`);
    console.log(`${label}: ${indexed.length} inside; flatbush build ${buildMs.toFixed(1)} ms + query ${indexedMs.toFixed(1)} ms; naive loop ${naiveMs.toFixed(1)} ms; naive/query ${(naiveMs / indexedMs).toFixed(1)}x, naive/(build+query) ${(naiveMs / (buildMs + indexedMs)).toFixed(2)}x`);
  }

  let start = performance.now();
  const result = await analyzeFlooding(
    { boundary, components: ['tidal', 'surge', 'rainfall', 'compound'], scenarios: ['intermediate_low', 'intermediate'], horizons: [2046, 2076] },
    { elevation: new SrtmTileSource(), layers: { layersFor: async () => [] }, tides: harmonicTides, assets: halfInside },
  );
  const analysisMs = ms(start);
  const elevation = result.elevation as { cell_size_m?: number; coverage_fraction?: number };
  console.log(`4-component analysis of the half-in-Monroe set (2 scenarios × 2 horizons, SRTM at ${elevation.cell_size_m} m cells, coverage ${elevation.coverage_fraction}): ${analysisMs.toFixed(0)} ms`);

  let ops = 0;
  start = performance.now();
  while (ms(start) < LOOKUP_SECONDS * 1000) {
    scenarioReport({ target: { point: { lat: 24.6 + (ops % 100) / 100, lon: -81.5 }, label: 'bench' }, years: [2050, 2075], scenarios: ['intermediate'], assessmentYear: 2026 });
    ops++;
  }
  const elapsed = ms(start);
  console.log(`scenario lookup (location → two gauges, 2 years): ${(ops / (elapsed / 1000)).toFixed(0)} ops/s, ${(elapsed / ops).toFixed(3)} ms each`);

  await tideYears();
}

/** A year of tides at every gauge: the flood-day projection's expensive part. */
async function tideYears(): Promise<void> {
  const { createTidePredictor } = await import('@neaps/tide-predictor');
  const year = 2050;
  const start = Date.UTC(year, 0, 1);
  const boundaries = Array.from({ length: 366 }, (_, i) => new Date(start + i * 86_400_000));
  await harmonicTides.levelsAt(GAUGES[0]!, boundaries);
  let begin = performance.now();
  for (const gauge of GAUGES) {
    const predictor = createTidePredictor(gauge.constituents);
    for (const time of boundaries) predictor.getWaterLevelAtTime({ time });
  }
  const perInstantMs = ms(begin);
  begin = performance.now();
  for (const gauge of GAUGES) await harmonicTides.levelsAt(gauge, boundaries);
  const timelineMs = ms(begin);
  console.log(`${year} day-boundary levels at ${GAUGES.length} gauges (366 instants each): one prediction per instant ${perInstantMs.toFixed(0)} ms, one timeline per gauge ${timelineMs.toFixed(0)} ms (${(perInstantMs / timelineMs).toFixed(1)}x)`);
  begin = performance.now();
  for (const gauge of GAUGES) await dailyHighestTides(harmonicTides, gauge, year);
  console.log(`${year} daily highest tides at ${GAUGES.length} gauges (high waters + day boundaries): ${ms(begin).toFixed(0)} ms, ${(ms(begin) / GAUGES.length).toFixed(1)} ms per gauge-year`);
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
