import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { hashApiKey } from '../../shared/domain/api-keys';
import type { HazardJob } from '../../shared/domain/hazards/jobs';
import { handler } from '../../functions/hazard-job-worker/handler';
import { hazardDeps } from '../../functions/hazards/deps';
import { readTampaClip, TAMPA_SHIFT_M } from '../helpers/dem-fixture';
import { startTestApp } from '../helpers/local-app';
import { deliver } from '../helpers/job-messages';

/**
 * The AWS path of a flood analysis job: the hazard job queue delivers the job's start to the
 * hazard job worker, which must run it with the account's own elevation models first, exactly as
 * the request that queued it would have. The job is stored as the API stores it; the message is
 * the one the API sends.
 */
describe('hazard job worker started by its queue', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('runs a queued analysis with the account\'s ready model and stores the result naming it', async () => {
    const clip = await readTampaClip();
    const created = await app.request('POST', '/hazards/elevation-models', { key: app.keys.pro, json: { name: 'County lidar (job test)', vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: TAMPA_SHIFT_M, vertical_accuracy_m: 0.2 } });
    expect(created.status).toBe(201);
    expect((await fetch(created.json.upload_url, { method: 'PUT', body: clip.bytes })).status).toBe(200);
    const modelId = created.json.elevation_model_id as string;
    let status = 'pending';
    for (let i = 0; i < 240 && (status === 'pending' || status === 'processing'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await app.request('GET', `/hazards/elevation-models/${modelId}`, { key: app.keys.pro })).json.status;
    }
    expect(status).toBe('ready');

    const accountId = (await new DynamoAccountStore().findByKeyHash(hashApiKey(app.keys.pro)))!.accountId;
    const [west, north] = clip.lonLatOf(20, 20);
    const [east, south] = clip.lonLatOf(clip.height - 20, clip.width - 20);
    const jobs = hazardDeps.jobs();
    const jobId = 'hjob_streamtest000000000001';
    const now = new Date().toISOString();
    const job: HazardJob = {
      job_id: jobId, account_id: accountId, kind: 'flood_analysis', status: 'queued', progress: 0, created_at: now, updated_at: now, error: null, result_key: null,
      request_key: await jobs.putDocument(accountId, jobId, 'request', {
        boundary_geojson: { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] },
        components: ['tidal'], scenarios: ['intermediate'], planning_horizons: [2050], link: {},
      }),
    };
    await jobs.create(job);

    const delivered = await deliver(handler, { kind: 'hazard_job', ref: { account_id: accountId, job_id: jobId } });
    expect(delivered.batchItemFailures).toEqual([]);

    const answer = await app.request('GET', `/hazards/jobs/${jobId}`, { key: app.keys.pro });
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('succeeded');
    expect(answer.json.result.elevation.source).toMatchObject({ elevation_model_id: modelId, name: 'County lidar (job test)', vertical_accuracy_m: 0.2, surface_model: false });
    // Another account's copy of the same record is not this account's job.
    expect((await app.request('GET', `/hazards/jobs/${jobId}`, { key: app.keys.enterprise })).status).toBe(404);
  });
});
