/**
 * `POST /hazards/slr-impact` through the local gateway for an account holding BENCH_SLR_ASSETS
 * assets (default 100,000, spread over inland Hillsborough County) at a point about 390 km from
 * any of them (Key West), against an account holding none, in the same run. The two accounts take
 * turns over several rounds of sequential requests; the ratio reported is the median over rounds
 * of (median latency with the inventory) / (median latency without). A point read that scanned
 * the inventory would grow with it; one that reads the geohash cells around the point does not.
 */
import { performance } from 'node:perf_hooks';
import { DynamoAccountStore } from '../shared/adapters/account-store';
import { DynamoAssetStore } from '../shared/adapters/asset-store';
import { classifyAsset } from '../shared/domain/assets/classification';
import type { ImportedAsset } from '../shared/domain/assets/import-rows';
import { openAccountWithKey } from '../shared/domain/api-keys';
import { startBenchApp } from './lib/local-app';
import { medianOf } from './lib/report';

const ASSETS = Number(process.env.BENCH_SLR_ASSETS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REQUESTS_PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 20);
const WARMUP = 10;
const MAX_RATIO = 1.1;
const POINT = { lat: 24.555, lon: -81.78 };
const JURISDICTION = 'county:12057';
const WRITE_BATCH = 1000;

async function fillInventory(accountId: string): Promise<void> {
  const store = new DynamoAssetStore();
  const classification = classifyAsset([{ field: 'type', text: 'Lift Station' }]);
  const writer = await store.importWriter(accountId, { importId: 'imp_bench_slr', jurisdictionId: JURISDICTION, rows: ASSETS, now: new Date() });
  for (let start = 0; start < ASSETS; start += WRITE_BATCH) {
    const batch: ImportedAsset[] = [];
    for (let i = start; i < Math.min(ASSETS, start + WRITE_BATCH); i++) {
      batch.push({
        asset_id: `a_${i.toString(16).padStart(24, '0')}`, jurisdiction_id: JURISDICTION, name: `Lift station ${i}`,
        category: classification.category!, asset_type: classification.asset_type, source_type: 'Lift Station', classification,
        // Deterministic spread over inland Hillsborough County, as the import bench's.
        lat: 27.8 + ((i * 7919) % 30_000) / 100_000, lon: -82.4 + ((i * 104_729) % 30_000) / 100_000,
        geometry_type: 'Point', source_id: String(i), address: null, city: null, county: null, owner: null, attributes: {}, content_hash: `h${i}`,
      });
    }
    await writer.write(batch);
  }
  await writer.finish();
}

async function timeRequests(url: string, key: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...POINT, scenario: 'intermediate', planning_horizon: 2070 }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`slr-impact answered ${response.status}`);
    latencies.push(performance.now() - start);
  }
  return latencies;
}

async function main(): Promise<void> {
  const app = await startBenchApp();
  try {
    const accounts = new DynamoAccountStore();
    const [full, empty] = await Promise.all(['Bench inventory', 'Bench empty'].map((name) => openAccountWithKey(accounts, name, 'enterprise', new Date())));
    const filling = performance.now();
    await fillInventory(full!.account.account_id);
    console.log(`${ASSETS.toLocaleString('en-US')} assets written in ${((performance.now() - filling) / 1000).toFixed(1)} s; point ${POINT.lat}, ${POINT.lon} (about 390 km from the nearest)`);
    const url = `${app.baseUrl}/hazards/slr-impact`;
    await timeRequests(url, full!.key, WARMUP);
    await timeRequests(url, empty!.key, WARMUP);
    const ratios: number[] = [];
    const medians = { full: [] as number[], empty: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order, so a change in the machine's load hits both alike.
      const order = round % 2 === 0 ? (['full', 'empty'] as const) : (['empty', 'full'] as const);
      const round_ = { full: 0, empty: 0 };
      for (const which of order) round_[which] = medianOf(await timeRequests(url, (which === 'full' ? full : empty)!.key, REQUESTS_PER_ROUND));
      medians.full.push(round_.full);
      medians.empty.push(round_.empty);
      ratios.push(round_.full / round_.empty);
    }
    const ratio = medianOf(ratios);
    console.log(`median latency per round (ms), ${REQUESTS_PER_ROUND} sequential requests each: with ${ASSETS.toLocaleString('en-US')} assets ${medians.full.map((m) => m.toFixed(1)).join(', ')}; empty ${medians.empty.map((m) => m.toFixed(1)).join(', ')}`);
    console.log(`ratio inventory/empty per round: ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${ratio.toFixed(3)} (limit ${MAX_RATIO})`);
    if (ratio > MAX_RATIO) process.exitCode = 1;
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
