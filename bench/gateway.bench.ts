/**
 * Cost of the local gateway: `GET /api/grants/deadlines` through the gateway (authorizer, rate
 * counter, pipeline, handler) against a bare node:http server replaying the very same response,
 * with the same load generator, concurrency and request count, in the same run.
 */
import { runLoad, type LoadOptions } from './lib/load';
import { startBenchApp } from './lib/local-app';
import { printTable } from './lib/report';
import { recordResponse, startReplayServer } from './lib/replay-server';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const WARMUP = Math.min(500, REQUESTS);
const ROUTE = '/grants/deadlines';

async function main(): Promise<void> {
  const app = await startBenchApp();
  try {
    // Enterprise is unlimited, so the hourly counter never answers 429 during the run.
    const headers = { 'X-API-Key': app.keys.enterprise };
    const gatewayUrl = `${app.baseUrl}${ROUTE}`;
    const recorded = await recordResponse(gatewayUrl, headers);
    const bare = await startReplayServer(recorded);
    try {
      console.log(`GET /api${ROUTE}: ${recorded.status}, ${recorded.body.length} bytes; ${REQUESTS} requests after ${WARMUP} warm-up, concurrency ${CONCURRENCY}, keep-alive`);
      if (recorded.status !== 200) console.log(`note: the route answers ${recorded.status}; both servers replay that answer`);
      const common: Omit<LoadOptions, 'url'> = { headers, concurrency: CONCURRENCY, requests: REQUESTS, warmup: WARMUP, expectStatus: recorded.status };
      const gateway = await runLoad({ url: gatewayUrl, ...common });
      const baseline = await runLoad({ url: `${bare.url}/api${ROUTE}`, ...common });
      console.log('');
      printTable([
        { name: 'local gateway', result: gateway },
        { name: 'bare node:http', result: baseline },
      ]);
      console.log('');
      console.log(`throughput gateway/bare: ${(gateway.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)}`);
      console.log(`latency gateway/bare: p50 ${(gateway.p50Ms / baseline.p50Ms).toFixed(1)}x, p99 ${(gateway.p99Ms / baseline.p99Ms).toFixed(1)}x`);
      if (gateway.errors + baseline.errors > 0) process.exitCode = 1;
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
