import { startTestApp } from '../helpers/local-app';
import { newAssessmentBody } from '../helpers/assessment-fixtures';

/**
 * `POST /assessments/{id}/deliverables` over HTTP: a burst of identical requests starts one job,
 * an `Idempotency-Key` replays the first answer, and a changed assessment gets a job of its own.
 * No background worker runs, so the jobs stay queued.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;
const key = () => app.keys.pro;

beforeAll(async () => { app = await startTestApp({ backgroundWorkers: false }); }, 120_000);
afterAll(async () => { await app?.stop(); });

async function newAssessment(): Promise<{ id: string; etag: string }> {
  const created = await app.request('POST', '/assessments', { key: key(), json: newAssessmentBody() });
  expect(created.status).toBe(201);
  return { id: created.json.assessment_id, etag: created.headers.get('etag')! };
}

describe('deliverable requests', () => {
  it('20 identical concurrent requests start one job: every answer is 202 with the same deliverable', async () => {
    const { id } = await newAssessment();
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.request('POST', `/assessments/${id}/deliverables`, { key: key() })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const ids = new Set(answers.map((a) => a.json.deliverable_id));
    expect(ids.size).toBe(1);
    const [deliverableId] = ids;
    expect(new Set(answers.map((a) => a.headers.get('location')))).toEqual(new Set([`${app.baseUrl}/assessments/${id}/deliverables/${deliverableId}`]));
    // A later request, while that job is still queued, answers it too.
    const later = await app.request('POST', `/assessments/${id}/deliverables`, { key: key() });
    expect([later.status, later.json.deliverable_id, later.json.status]).toEqual([202, deliverableId, 'queued']);
  });

  it('an edited assessment gets a job of its own', async () => {
    const { id, etag } = await newAssessment();
    const first = await app.request('POST', `/assessments/${id}/deliverables`, { key: key() });
    const edited = await app.request('PATCH', `/assessments/${id}`, { key: key(), json: { notes: 'Edited after the first package.' }, headers: { 'If-Match': etag } });
    expect(edited.status).toBe(200);
    const second = await app.request('POST', `/assessments/${id}/deliverables`, { key: key() });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.json.deliverable_id).not.toBe(first.json.deliverable_id);
  });

  it('replays the first answer to a repeated Idempotency-Key, and refuses the key on another assessment', async () => {
    const { id } = await newAssessment();
    const other = await newAssessment();
    const headers = { 'Idempotency-Key': `dlv-key-${id}` };
    const first = await app.request('POST', `/assessments/${id}/deliverables`, { key: key(), headers });
    const again = await app.request('POST', `/assessments/${id}/deliverables`, { key: key(), headers });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 202, 'true']);
    expect(again.json).toEqual(first.json);
    const reused = await app.request('POST', `/assessments/${other.id}/deliverables`, { key: key(), headers });
    expect([reused.status, reused.json.code]).toEqual([422, 'idempotency_key_reused']);
  });
});
