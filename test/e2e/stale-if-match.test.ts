import { documentedExamples } from '../../shared/openapi/examples';
import { exampleRunner } from '../../shared/openapi/example-replay';
import { startTestApp } from '../helpers/local-app';
import { registerAndLogin } from '../helpers/v1-user';

/**
 * A stale `If-Match` on every conditional update: 409 `conflict` (DESIGN §3 and §6; see
 * docs/decisions/0005-stale-if-match-409.md), nothing written, and the record's current `ETag` in
 * the answer, equal to the one a fresh read gives.
 */
describe('stale If-Match', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let run: ReturnType<typeof exampleRunner>;
  const example = (id: string) => documentedExamples().get(id)!;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    run = exampleRunner(app);
  });
  afterAll(async () => { await app?.stop(); });

  it('PATCH /assessments/{id} and its methodology prefill answer 409 with the current ETag', async () => {
    const created = await run(example('createAssessment'));
    expect(created.status).toBe(201);
    const updated = await run(example('updateAssessment')); // If-Match "1"
    expect([updated.status, updated.headers.get('etag')]).toEqual([200, '"2"']);

    const stale = await run(example('updateAssessment')); // the same "1", now stale
    expect([stale.status, stale.json.code, stale.headers.get('etag')]).toEqual([409, 'conflict', '"2"']);
    const id = created.json.assessment_id as string;
    const read = await app.request('GET', `/assessments/${id}`, { key: app.keys.pro });
    expect(read.headers.get('etag')).toBe('"2"');
    expect(read.json.completion_percentage).toBe(updated.json.completion_percentage);

    const prefill = await app.request('POST', `/assessments/${id}/methodology:prefill`, { key: app.keys.pro, headers: { 'If-Match': '"1"' }, json: {} });
    expect([prefill.status, prefill.json.code, prefill.headers.get('etag')]).toEqual([409, 'conflict', '"2"']);
  });

  it('PUT /assets/{id}/vulnerability answers 409 with the current ETag', async () => {
    expect((await run(example('importAssets'))).status).toBe(201);
    expect((await run(example('listAssets'))).status).toBe(200);
    const first = await run(example('updateAssetVulnerability')); // If-Match "1"
    expect([first.status, first.headers.get('etag')]).toEqual([200, '"2"']);
    const stale = await run(example('updateAssetVulnerability'));
    expect([stale.status, stale.json.code, stale.headers.get('etag')]).toEqual([409, 'conflict', '"2"']);
  });

  it('PUT /v1/users/update answers 409 with the current ETag', async () => {
    const user = await registerAndLogin(app.request);
    const read = await app.request('GET', '/v1/users/profile', { headers: user.headers });
    const readTag = read.headers.get('etag')!;
    const changed = await app.request('PUT', '/v1/users/update', { headers: { ...user.headers, 'If-Match': readTag }, json: { name: 'First Change' } });
    expect(changed.status).toBe(200);
    const stale = await app.request('PUT', '/v1/users/update', { headers: { ...user.headers, 'If-Match': readTag }, json: { name: 'Lost Change' } });
    expect([stale.status, stale.json.code]).toEqual([409, 'conflict']);
    expect(stale.headers.get('etag')).toBe(changed.headers.get('etag'));
    expect(stale.headers.get('etag')).not.toBe(readTag);
    expect((await app.request('GET', '/v1/users/profile', { headers: user.headers })).json.name).toBe('First Change');
  });
});
