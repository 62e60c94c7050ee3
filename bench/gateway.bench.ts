/**
 * Cost of the local gateway: `GET /api/grants/deadlines` through the gateway (authorizer, metered
 * hourly quota, pipeline, handler) against a bare node:http server replaying the very same
 * response, with the same load generator, concurrency and request count, in the same run. The two
 * targets take turns over several rounds (gateway first in odd rounds, bare first in even ones), so
 * a change in the machine's load hits both alike; the ratio reported is the median of the rounds.
 * Two tiers: an Enterprise key (counted in memory, flushed once a second) and Pro keys (served from
 * quota leases). A Pro key allows 5,000 requests an hour, so the Pro rounds take turns over fresh
 * Pro keys, three rounds each, every key taken through most of its hour: its first leases while
 * its demand grows, the smaller ones near the end of its allowance.
 */
import { DynamoAccountStore } from '../shared/adapters/account-store';
import { openAccountWithKey } from '../shared/domain/api-keys';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load';
import { startBenchApp } from './lib/local-app';
import { medianOf, printTable } from './lib/report';
import { recordResponse, startReplayServer } from './lib/replay-server';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
// 4,000 requests a round: shorter rounds (a tenth of a second) measured the machine's moments more than the servers.
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60_000);
// Odd, so the median is one round's figure; 15 rather than 7, as single rounds swing by ±0.15 on a busy machine.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
// Unmeasured requests before the first round of each target (JIT, lazily loaded modules, caches).
// The gateway's longer path needs a few thousand requests before V8 has optimised it; the bare
// server gets the same warm-up. The Pro rounds come after, on warm code; their warm-up takes a key
// of its own.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 8000);
const PRO_WARMUP = 1000;
// 1,200 requests a round, 3 rounds a key: 3,600 of each key's 5,000 an hour.
const PRO_ROUNDS_PER_KEY = 3;
const PRO_REQUESTS = 18_000;
const SETTLE_MS = 8000;
const ROUTE = '/grants/deadlines';

/** One round of one target, with the CPU time this process spent on it (server and load generator). */
type Measured = LoadResult & { cpuMsPerRequest: number };

interface Comparison {
  gateway: Measured[];
  bare: Measured[];
}

/** `headers(round)`: the request headers of a round (the warm-up's are `headers(-1)`). */
async function compare(
  gatewayUrl: string, bareUrl: string, options: Omit<LoadOptions, 'url' | 'headers'>, headers: (round: number) => Record<string, string>, rounds: number,
): Promise<Comparison> {
  const result: Comparison = { gateway: [], bare: [] };
  for (let round = 0; round < rounds; round++) {
    const order: Array<keyof Comparison> = round % 2 === 0 ? ['gateway', 'bare'] : ['bare', 'gateway'];
    for (const target of order) {
      const url = target === 'gateway' ? gatewayUrl : bareUrl;
      if (round === 0) await runLoad({ url, ...options, headers: headers(-1), requests: options.warmup, warmup: 0 });
      const cpu = process.cpuUsage();
      const load = await runLoad({ url, ...options, headers: headers(round), warmup: 0 });
      const used = process.cpuUsage(cpu);
      result[target].push({ ...load, cpuMsPerRequest: (used.user + used.system) / 1000 / load.requests });
    }
  }
  return result;
}

function total(results: LoadResult[]): LoadResult {
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
  return {
    requests,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    seconds,
    requestsPerSecond: requests / seconds,
    p50Ms: medianOf(results.map((r) => r.p50Ms)),
    p99Ms: medianOf(results.map((r) => r.p99Ms)),
  };
}

function report(label: string, comparison: Comparison): number {
  const ratios = comparison.gateway.map((g, i) => g.requestsPerSecond / comparison.bare[i]!.requestsPerSecond);
  const median = medianOf(ratios);
  // Wall-clock rates move with the machine's load; CPU time per request much less so.
  const gatewayCpu = medianOf(comparison.gateway.map((r) => r.cpuMsPerRequest));
  const bareCpu = medianOf(comparison.bare.map((r) => r.cpuMsPerRequest));
  console.log('');
  console.log(`${label}:`);
  printTable([
    { name: 'local gateway', result: total(comparison.gateway) },
    { name: 'bare node:http', result: total(comparison.bare) },
  ]);
  console.log(`throughput gateway/bare per round, in order: ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median.toFixed(3)}`);
  console.log(`CPU per request (median of rounds, this process: server and load generator): gateway ${(gatewayCpu * 1000).toFixed(0)} µs, bare ${(bareCpu * 1000).toFixed(0)} µs; requests per CPU-second gateway/bare ${(bareCpu / gatewayCpu).toFixed(3)}`);
  return [...comparison.gateway, ...comparison.bare].reduce((sum, r) => sum + r.errors, 0);
}

/** New Pro accounts, one key each, in the local app's table (its environment is this process's). */
async function freshProKeys(count: number): Promise<string[]> {
  const accounts = new DynamoAccountStore();
  return Promise.all(Array.from({ length: count }, async (_, i) => (await openAccountWithKey(accounts, `Bench Pro ${i + 1}`, 'pro', new Date())).key));
}

async function main(): Promise<void> {
  const app = await startBenchApp();
  try {
    // The background workers load their handlers in the first seconds after start: not the gateway's cost.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const enterprise = { 'X-API-Key': app.keys.enterprise };
    const gatewayUrl = `${app.baseUrl}${ROUTE}`;
    const recorded = await recordResponse(gatewayUrl, enterprise);
    const bare = await startReplayServer(recorded);
    try {
      console.log(`GET /api${ROUTE}: ${recorded.status}, ${recorded.body.length} bytes; concurrency ${CONCURRENCY}, keep-alive, ${ROUNDS} alternating rounds`);
      if (recorded.status !== 200) console.log(`note: the route answers ${recorded.status}; both servers replay that answer`);
      const bareUrl = `${bare.url}/api${ROUTE}`;
      const perRound = (requests: number) => Math.max(1, Math.floor(requests / ROUNDS));
      const options = (requests: number, warmup: number): Omit<LoadOptions, 'url' | 'headers'> => ({
        concurrency: CONCURRENCY, requests: perRound(requests), warmup, expectStatus: recorded.status,
      });
      // The first key takes the warm-up; the rounds then move to a fresh key every PRO_ROUNDS_PER_KEY rounds.
      const proKeys = await freshProKeys(1 + Math.ceil(ROUNDS / PRO_ROUNDS_PER_KEY));
      const proKey = (round: number) => ({ 'X-API-Key': proKeys[round < 0 ? 0 : 1 + Math.floor(round / PRO_ROUNDS_PER_KEY)]! });
      console.log(`warm-up before the first round of each target: ${WARMUP} requests (Enterprise), ${PRO_WARMUP} (Pro)`);
      let errors = report(`Enterprise key (${perRound(REQUESTS) * ROUNDS} requests each)`, await compare(gatewayUrl, bareUrl, options(REQUESTS, WARMUP), () => enterprise, ROUNDS));
      errors += report(
        `Pro keys, quota leases (${perRound(PRO_REQUESTS) * ROUNDS} requests each, ${proKeys.length - 1} keys)`,
        await compare(gatewayUrl, bareUrl, options(PRO_REQUESTS, PRO_WARMUP), proKey, ROUNDS),
      );
      if (errors > 0) process.exitCode = 1;
    } finally {
      await bare.close();
    }
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
