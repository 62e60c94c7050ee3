import { Agent, request } from 'node:http';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Requests in flight at any moment. */
  concurrency: number;
  /** Measured requests (a fixed count, so every run ends by itself). */
  requests: number;
  /** Unmeasured requests sent first (connections, JIT, caches). */
  warmup: number;
  /** Status every response should have; others count as errors. */
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * A closed-loop load generator: `concurrency` workers on one keep-alive agent each send their
 * next request as soon as the previous answer is read, until the fixed count is reached.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    await drive(agent, options, options.warmup);
    const started = process.hrtime.bigint();
    const { latencies, errors } = await drive(agent, options, options.requests);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    return {
      requests: options.requests,
      errors,
      seconds,
      requestsPerSecond: options.requests / seconds,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
    };
  } finally {
    agent.destroy();
  }
}

async function drive(agent: Agent, options: LoadOptions, total: number): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const worker = async () => {
    while (issued < total) {
      issued += 1;
      const started = process.hrtime.bigint();
      const status = await get(agent, options.url, options.headers ?? {}).catch(() => 0);
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (status !== (options.expectStatus ?? 200)) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, total) }, worker));
  return { latencies, errors };
}

function get(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
