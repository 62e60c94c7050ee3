import { hostileRasters } from '../helpers/hostile-rasters';
import { startTestApp } from '../helpers/local-app';

/**
 * Hostile elevation uploads against the whole local stack, as an attacker would send them: each
 * model must end `failed` with its own file error while the server keeps answering — /health is
 * probed all along, and its 99th percentile must stay under half a second.
 */
describe('hostile elevation uploads (local stack, loopback only)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function uploadAndSettle(bytes: Uint8Array): Promise<{ status: string; error: { code: string; detail: string } | null }> {
    const created = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: { name: 'Hostile upload', vertical_datum: 'NAVD88', units: 'm' } });
    expect(created.status).toBe(201);
    const put = await fetch(created.json.upload_url, { method: 'PUT', body: bytes });
    expect(put.status).toBe(200);
    for (let i = 0; i < 240; i++) {
      const model = await app.request('GET', `/hazards/elevation-models/${created.json.elevation_model_id}`, { key: app.keys.pro });
      if (model.json.status === 'ready' || model.json.status === 'failed') return model.json;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('The model did not finish processing within a minute.');
  }

  it('fails every hostile file with its own code, and /health stays responsive while they are processed', async () => {
    const rasters = Object.entries(hostileRasters()).map(([name, raster]) => ({ name, code: raster.code, bytes: raster.bytes() }));
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        const health = await app.request('GET', '/health');
        latencies.push(performance.now() - started);
        expect(health.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const outcomes: Record<string, unknown> = {};
    try {
      for (const { name, bytes } of rasters) outcomes[name] = (await uploadAndSettle(bytes)).error?.code;
    } finally {
      probing = false;
      await probe;
    }
    expect(outcomes).toEqual(Object.fromEntries(rasters.map(({ name, code }) => [name, code])));
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
    expect(latencies.length).toBeGreaterThan(50);
    expect(p99).toBeLessThan(500);
  });
});
