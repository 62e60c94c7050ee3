/**
 * A flood analysis applied to an account's assets (`apply_to_assets`), as the job runs it: Monroe
 * County (us-atlas), the four components, 2 scenarios × 2 horizons over the bundled elevation (SRTM), with
 * 1,000 / 10,000 / 50,000 SYNTHETIC assets inside the county (BENCH_EXPOSURE_SIZES overrides) stored
 * in the DynamoDB emulator, which runs in a process of its own (`lib/dynalite-memory-host.ts`).
 * Each size is analysed and applied in its own process, so its peak RSS is its alone; the anchor,
 * in the same run, is the same analysis of an account without assets. Reports wall-clock time and
 * peak RSS per size, the RSS above the anchor's per 1,000 assets, and the exposure counts.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { LayeredElevationSource } from '../shared/adapters/elevation/layered';
import { SrtmTileSource } from '../shared/adapters/elevation/srtm-tiles';
import { modelsIn } from '../shared/adapters/elevation/tiled-model';
import { BUNDLED_MODELS_DIR } from '../shared/adapters/elevation';
import { harmonicTides } from '../shared/adapters/hazard-tide-predictor';
import { DynamoAssetStore } from '../shared/adapters/asset-store';
import { StoredAssetSource } from '../shared/adapters/hazard-asset-source';
import { defaultAnalysisLinkDeps } from '../shared/adapters/evidence-store';
import { resetAwsClients } from '../shared/adapters/aws-clients';
import { validateBoundary } from '../shared/domain/hazards/boundary';
import { analyzeFlooding } from '../shared/domain/hazards/flood-analysis';
import { countyBoundaryByFips } from '../shared/domain/hazards/florida-counties';
import { runLinkedAnalysis } from '../shared/domain/deliverables/analysis-link';
import type { ImportedAsset } from '../shared/domain/assets/import-rows';
import { syntheticAssets } from '../test/helpers/synthetic-assets';
import { startHost } from './lib/host-process';

const SIZES = (process.env.BENCH_EXPOSURE_SIZES ?? '1000,10000,50000').split(',').map(Number);
const MONROE = '12087';
const JURISDICTION = `county:${MONROE}`;
const SEED_BATCH = 1000;

const accountOf = (size: number) => `acct_bench_exposure_${size}`;

/** Stores `size` synthetic assets inside Monroe County for the account, through the import's writer. */
async function seed(size: number): Promise<void> {
  const store = new DynamoAssetStore();
  const writer = await store.importWriter(accountOf(size), { importId: `imp_bench_${size}`, jurisdictionId: JURISDICTION, rows: size, now: new Date() });
  const points = syntheticAssets(size, [countyBoundaryByFips(MONROE)!], size, 'monroe');
  for (let i = 0; i < points.length; i += SEED_BATCH) {
    await writer.write(points.slice(i, i + SEED_BATCH).map((point): ImportedAsset => ({
      asset_id: point.asset_id, jurisdiction_id: JURISDICTION, name: point.name, category: 'critical_infrastructure', asset_type: 'lift_station', source_type: 'Lift Station',
      classification: { asset_type: 'lift_station', category: 'critical_infrastructure', rule: 'lift_station:lift station', matched_field: 'TYPE', matched_text: 'Lift Station', ruleset_version: 'bench' },
      lon: point.lon, lat: point.lat, geometry_type: 'Point', geometry: null, source_id: point.asset_id, address: null, city: null, county: 'Monroe', owner: null,
      attributes: {}, content_hash: point.asset_id,
    })));
  }
  await writer.finish();
}

interface Measurement {
  size: number;
  seconds: number;
  peakRssMb: number;
  applied: Record<string, number> | null;
}

/** The job's work for one account (its assets listed, the analysis, its exposure written), in this process. */
async function measure(size: number): Promise<void> {
  const monroe = validateBoundary(countyBoundaryByFips(MONROE)!.geometry);
  if (!monroe.ok) throw new Error('Monroe County boundary did not validate');
  const accountId = accountOf(size);
  const start = performance.now();
  const assets = await new StoredAssetSource(new DynamoAssetStore()).listAssets(accountId);
  const result = await runLinkedAnalysis(defaultAnalysisLinkDeps(), accountId, { apply_to_assets: true, boundary_source: 'jurisdiction', jurisdiction_id: JURISDICTION }, (onSurfaces) => analyzeFlooding({
    boundary: monroe.boundary,
    components: ['tidal', 'surge', 'rainfall', 'compound'],
    scenarios: ['intermediate_low', 'intermediate'],
    horizons: [2046, 2076],
    currentYear: 2026,
    // The bundled SRTM is a surface model; without it no ground, and no depth, would be computed.
    allowSurfaceModel: true,
  }, { elevation: new LayeredElevationSource(modelsIn(BUNDLED_MODELS_DIR), new SrtmTileSource()), layers: { layersFor: async () => [] }, tides: harmonicTides, assets, onSurfaces }));
  const seconds = (performance.now() - start) / 1000;
  const applied = (result as { applied_to_assets?: Record<string, number> }).applied_to_assets ?? null;
  const measurement: Measurement = { size, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024, applied };
  console.log(JSON.stringify(measurement));
}

function inChild(size: number, env: Record<string, string>): Measurement {
  // An analysis without an assessment writes no evidence: the bucket is named, never reached.
  const childEnv = { ...process.env, ...env, BUCKET_NAME: 'vac-bench-no-evidence' };
  const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, 'measure', String(size)], { encoding: 'utf8', env: childEnv, maxBuffer: 16 * 1024 * 1024 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('{"size"'));
  if (child.status !== 0 || !line) throw new Error(`the run of ${size} assets failed: ${child.stderr.slice(-2000)}`);
  return JSON.parse(line) as Measurement;
}

async function main(): Promise<void> {
  const host = await startHost('dynalite-memory-host.ts');
  try {
    Object.assign(process.env, host.env);
    resetAwsClients();
    for (const size of SIZES) {
      const started = performance.now();
      await seed(size);
      console.log(`stored ${size.toLocaleString('en-US')} synthetic assets inside Monroe County in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const anchor = inChild(0, host.env);
    console.log(`anchor (no assets): ${anchor.seconds.toFixed(1)} s, peak RSS ${anchor.peakRssMb.toFixed(0)} MB`);
    for (const size of SIZES) {
      const run = inChild(size, host.env);
      const perThousand = ((run.peakRssMb - anchor.peakRssMb) / size) * 1000;
      const counts = run.applied ? Object.entries(run.applied).map(([name, value]) => `${name} ${value}`).join(', ') : 'not applied';
      console.log(`${size.toLocaleString('en-US')} assets: ${run.seconds.toFixed(1)} s (${(run.seconds / anchor.seconds).toFixed(1)}× the anchor), peak RSS ${run.peakRssMb.toFixed(0)} MB (+${(run.peakRssMb - anchor.peakRssMb).toFixed(0)} MB over the anchor, ${perThousand.toFixed(1)} MB per 1,000 assets); ${counts}`);
    }
  } finally {
    await host.stop();
  }
}

const [mode, size] = process.argv.slice(2);
(mode === 'measure' ? measure(Number(size)) : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
