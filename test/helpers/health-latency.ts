/**
 * Runs `work` while `GET /health` is requested back to back, and reports the latencies (ms) of
 * the health checks answered meanwhile: how responsive the server stayed under the work. One
 * health check is answered first and not counted, so the samples measure the work's effect, not
 * the route's first load or the connection's setup.
 */
export async function sampleHealthDuring<T>(baseUrl: string, work: () => Promise<T>): Promise<{ result: T; latencies: number[]; statuses: number[] }> {
  const latencies: number[] = [];
  const statuses: number[] = [];
  await (await fetch(`${baseUrl}/health`)).arrayBuffer();
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/health`);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses.push(response.status);
    }
  })();
  try {
    return { result: await work(), latencies, statuses };
  } finally {
    done = true;
    await sampler;
  }
}

/** The nearest-rank percentile `p` (0–100) of the values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
