import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../../shared/adapters/aws-clients';
import { startTestApp } from '../helpers/local-app';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';
import { floridaToday } from '../helpers/florida-date';

interface QueuedMessage {
  event_id: string;
  account_id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** One assessment from creation to submission over HTTP, and its event off the queue. */
describe('assessment lifecycle (end to end)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    // The webhook poller would consume the queue; this test reads it itself.
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  /** Every message on the events queue within `ms`, deleted as read. */
  async function drainQueue(ms: number): Promise<QueuedMessage[]> {
    const messages: QueuedMessage[] = [];
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const { Messages } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: app.resources.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      for (const message of Messages ?? []) {
        messages.push(JSON.parse(message.Body!));
        await sqs().send(new DeleteMessageCommand({ QueueUrl: app.resources.queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
    return messages;
  }

  it('creates, updates, validates, completes (one assessment_complete event) and submits', async () => {
    const key = app.keys.pro;
    const methodology = compliantMethodology('2024', 2025);

    const created = await app.request('POST', '/assessments', { key, json: newAssessmentBody(), headers: { 'Idempotency-Key': 'e2e-monroe-create' } });
    expect(created.status).toBe(201);
    const id: string = created.json.assessment_id;
    let etag = created.headers.get('etag')!;

    const checklist = await app.request('GET', '/compliance/checklist?assessment_year=2025', { key: app.keys.free });
    expect(checklist.json.items).toHaveLength(14);

    const draftCheck = await app.request('POST', '/compliance/validate', { key, json: { jurisdiction: 'Monroe County', scope: 'full_jurisdiction', timeline: newAssessmentBody().timeline, methodology } });
    expect(draftCheck.json.compliant).toBe(true);

    for (const [phase, completion] of [['data_collection', 20], ['exposure_analysis', 45], ['sensitivity_analysis', 65], ['focus_areas', 85]] as const) {
      const step = await app.request('PATCH', `/assessments/${id}`, { key, json: { phase, completion_percentage: completion }, headers: { 'If-Match': etag } });
      expect(step.status).toBe(200);
      expect(step.json.status).toBe('in_progress');
      etag = step.headers.get('etag')!;
    }
    const withMethodology = await app.request('PATCH', `/assessments/${id}`, { key, json: { methodology, notes: 'Methodology recorded' }, headers: { 'If-Match': etag } });
    expect(withMethodology.json.dep_checklist_status.compliant).toBe(true);
    etag = withMethodology.headers.get('etag')!;

    const early = await app.request('POST', `/assessments/${id}/submit`, { key, json: submission() });
    expect(early.status).toBe(409);

    const completed = await app.request('PATCH', `/assessments/${id}`, { key, json: { phase: 'final_report', completion_percentage: 100 }, headers: { 'If-Match': etag } });
    expect(completed.status).toBe(200);
    expect(completed.json.status).toBe('complete');
    // Further updates after completion emit nothing more.
    await app.request('PATCH', `/assessments/${id}`, { key, json: { notes: 'Final QA done' }, headers: { 'If-Match': completed.headers.get('etag')! } });

    const events = (await drainQueue(3000)).filter((event) => event.data.assessment_id === id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'assessment_complete',
      event_id: expect.stringMatching(/^evt_/),
      data: { assessment_id: id, jurisdiction: 'Monroe County', completed_at: completed.json.completed_at },
    });

    const submitted = await app.request('POST', `/assessments/${id}/submit`, { key, json: submission(), headers: { 'Idempotency-Key': 'e2e-monroe-submit' } });
    expect(submitted.status).toBe(201);
    expect(submitted.json.receipt).toMatch(/^VA-12087-/);
    expect(submitted.json.dep_confirmation).toMatchObject({ status: 'not_transmitted', confirmation_number: null });
    expect(submitted.json.dep_confirmation.how_to_file.join(' ')).toContain(`/assessments/${id}/dep-confirmation`);

    const final = await app.request('GET', `/assessments/${id}`, { key });
    expect(final.json).toMatchObject({ status: 'submitted', submission_id: submitted.json.submission_id, dep_confirmation: { status: 'not_transmitted' } });

    const receivedOn = floridaToday();
    const recorded = await app.request('POST', `/assessments/${id}/dep-confirmation`, { key, json: { confirmation_number: 'RF-VA-2026-0147', received_on: receivedOn } });
    expect(recorded.status).toBe(200);
    expect(recorded.json.dep_confirmation).toMatchObject({ status: 'recorded', confirmation_number: 'RF-VA-2026-0147', received_on: receivedOn });
    expect((await app.request('GET', `/assessments/${id}`, { key })).json.dep_confirmation.status).toBe('recorded');
    const listed = await app.request('GET', '/assessments?status=submitted', { key });
    expect(listed.json.data.map((a: { assessment_id: string }) => a.assessment_id)).toContain(id);
  });

  function submission() {
    return {
      certification: { certifier_name: 'Ana Lopez', certifier_title: 'Chief Resilience Officer', accepted: true },
      final_report_url: 'https://monroecounty-fl.gov/va/final-report.pdf',
      gis_data_url: 'https://monroecounty-fl.gov/va/gis.zip',
    };
  }
});
