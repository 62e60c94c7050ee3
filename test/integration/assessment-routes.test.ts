import { createHash } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, s3 } from '../../shared/adapters/aws-clients';
import { startTestApp } from '../helpers/local-app';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';
import { floridaToday } from '../helpers/florida-date';

/** Each assessment route against the emulators, through the local gateway. */
describe('assessment routes', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const pro = () => app.keys.pro;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  const create = async (overrides: Record<string, unknown> = {}, key = pro()) => {
    const res = await app.request('POST', '/assessments', { key, json: newAssessmentBody(overrides) });
    expect(res.status).toBe(201);
    return res.json;
  };
  /** Updates are conditional: without an explicit If-Match the helper sends the ETag of a fresh read. */
  const patch = async (id: string, json: unknown, headers: Record<string, string> = {}, key = pro()) => {
    const ifMatch = headers['If-Match'] ?? (await app.request('GET', `/assessments/${id}`, { key })).headers.get('etag') ?? '';
    return app.request('PATCH', `/assessments/${id}`, { key, json, headers: { ...headers, 'If-Match': ifMatch } });
  };
  const fieldsOf = (res: { json: { errors?: { field: string }[] } }) => (res.json.errors ?? []).map((e) => e.field);

  /** An assessment walked to `complete` with a methodology that passes the checklist. */
  async function completeAssessment(methodology: unknown = compliantMethodology('2024', 2025)) {
    const created = await create({ methodology });
    const res = await patch(created.assessment_id, { phase: 'final_report', completion_percentage: 100 });
    expect(res.json.status).toBe('complete');
    return res.json;
  }

  const submission = {
    certification: { certifier_name: 'Ana Lopez', certifier_title: 'Chief Resilience Officer', accepted: true },
    final_report_url: 'https://monroecounty-fl.gov/va/final-report.pdf',
    gis_data_url: 'https://monroecounty-fl.gov/va/gis.zip',
  };

  describe('POST /assessments', () => {
    it('creates a draft with id, created date, ETag and Location', async () => {
      const res = await app.request('POST', '/assessments', { key: pro(), json: newAssessmentBody({ jurisdiction: 'City of Key West' }) });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        status: 'draft', phase: 'initiation', completion_percentage: 0, version: 1,
        jurisdiction: 'City of Key West', jurisdiction_type: 'municipality', county_fips: '12087',
      });
      expect(res.json.assessment_id).toMatch(/^va_[0-9A-Z]{26}$/);
      expect(Date.parse(res.json.created_date)).not.toBeNaN();
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.headers.get('location')).toBe(`${app.baseUrl}/assessments/${res.json.assessment_id}`);
      expect(res.json.dep_checklist_status.items).toHaveLength(14);
    });

    it('names the field of each input error', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ jurisdiction: 'Gotham City' }, 'jurisdiction'],
        [{ jurisdiction: 'Alachua' }, 'jurisdiction_type'],
        [{ jurisdiction: 'City of Key West', jurisdiction_county: 'Leon' }, 'jurisdiction_county'],
        [{ scope: 'partial' }, 'scope_rationale'],
        [{ scope: 'everything' }, 'scope'],
        [{ type: 'renewal' }, 'type'],
        [{ timeline: { start_date: '2025-06-01', target_completion_date: '2025-01-01' } }, 'timeline.target_completion_date'],
        [{ timeline: { start_date: '2019-06-01', target_completion_date: '2020-01-01' } }, 'timeline.start_date'],
        [{ timeline: { start_date: '2025-02-30', target_completion_date: '2026-01-01' } }, 'timeline.start_date'],
        [{ colour: 'blue' }, 'colour'],
        [{ methodology: { vertical_datum: 'WGS84' } }, 'methodology.vertical_datum'],
      ];
      for (const [overrides, field] of cases) {
        const res = await app.request('POST', '/assessments', { key: pro(), json: newAssessmentBody(overrides) });
        expect({ overrides, status: res.status, code: res.json.code }).toEqual({ overrides, status: 400, code: 'invalid_request' });
        expect(fieldsOf(res)).toContain(field);
      }
      const ambiguous = await app.request('POST', '/assessments', { key: pro(), json: newAssessmentBody({ jurisdiction: 'Alachua', jurisdiction_type: 'municipality' }) });
      expect(ambiguous.json.jurisdiction).toBe('City of Alachua');
    });

    it('is a Pro route', async () => {
      const res = await app.request('POST', '/assessments', { key: app.keys.free, json: newAssessmentBody() });
      expect(res.status).toBe(403);
    });

    it('replays the first response for the same Idempotency-Key and body, 422 for another body', async () => {
      const headers = { 'Idempotency-Key': 'create-monroe-0001' };
      const first = await app.request('POST', '/assessments', { key: pro(), json: newAssessmentBody(), headers });
      const again = await app.request('POST', '/assessments', { key: pro(), json: newAssessmentBody(), headers });
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await app.request('POST', '/assessments', { key: pro(), json: newAssessmentBody({ type: 'update' }), headers });
      expect(other.status).toBe(422);
      expect(other.json.code).toBe('idempotency_key_reused');
      // Keys are per account: another account may use the same key.
      const elsewhere = await app.request('POST', '/assessments', { key: app.keys.enterprise, json: newAssessmentBody(), headers });
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.json.assessment_id).not.toBe(first.json.assessment_id);
    });
  });

  describe('GET /assessments/{id}', () => {
    it('returns the assessment with checklist status and ETag, and 404 to another account', async () => {
      const created = await create();
      const res = await app.request('GET', `/assessments/${created.assessment_id}`, { key: pro() });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.json.dep_checklist_status).toMatchObject({ rule_set: '2024', compliant: false, label: "derived from s. 380.093; not DEP's form" });
      expect(res.json.dep_checklist_status.items.map((i: { item: string }) => i.item).join('')).toBe('ABCDEFGHIJKLMN');
      const other = await app.request('GET', `/assessments/${created.assessment_id}`, { key: app.keys.enterprise });
      expect(other.status).toBe(404);
      expect(other.json.code).toBe('not_found');
      expect((await app.request('GET', '/assessments/va_nope', { key: pro() })).status).toBe(404);
    });
  });

  describe('PATCH /assessments/{id}', () => {
    it('moves through the phases, honours If-Match and refuses illegal moves', async () => {
      const { assessment_id: id } = await create();
      const first = await patch(id, { phase: 'data_collection', completion_percentage: 15 }, { 'If-Match': '"1"' });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ status: 'in_progress', version: 2 });
      expect(first.headers.get('etag')).toBe('"2"');

      const stale = await patch(id, { completion_percentage: 20 }, { 'If-Match': '"1"' });
      expect(stale.status).toBe(409);
      expect(stale.json.code).toBe('conflict');
      const garbage = await patch(id, { completion_percentage: 20 }, { 'If-Match': 'yesterday' });
      expect(garbage.status).toBe(400);
      expect(fieldsOf(garbage)).toEqual(['if-match']);
      const unconditional = await app.request('PATCH', `/assessments/${id}`, { key: pro(), json: { completion_percentage: 20 } });
      expect(unconditional.status).toBe(428);
      expect(unconditional.json.code).toBe('precondition_required');
      const wildcard = await patch(id, { completion_percentage: 20 }, { 'If-Match': '*' });
      expect(wildcard.status).toBe(400);
      expect((await app.request('GET', `/assessments/${id}`, { key: pro() })).json).toMatchObject({ version: 2, completion_percentage: 15 });

      const back = await patch(id, { phase: 'initiation' });
      expect(back.status).toBe(409);
      expect(back.json).toMatchObject({ code: 'conflict', field: 'phase' });
      const lower = await patch(id, { completion_percentage: 5 });
      expect(lower.status).toBe(409);
      const explained = await patch(id, { completion_percentage: 5, completion_change_reason: 'Inventory restarted.' });
      expect(explained.status).toBe(200);
      const early = await patch(id, { status: 'complete' });
      expect(early.status).toBe(409);

      expect((await patch(id, {})).status).toBe(400);
      expect(fieldsOf(await patch(id, { completion_percentage: 101 }))).toEqual(['completion_percentage']);
      expect((await app.request('PATCH', `/assessments/${id}`, { key: app.keys.enterprise, json: { notes: 'x' }, headers: { 'If-Match': '"1"' } })).status).toBe(404);
    });

    it('lets exactly one of 50 concurrent updates with the same If-Match win', async () => {
      const { assessment_id: id } = await create();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => patch(id, { completion_percentage: i + 1 }, { 'If-Match': '"1"' })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.every((s) => s === 200 || s === 409 || s === 412)).toBe(true);
      const winner = results.find((r) => r.status === 200)!;
      const stored = await app.request('GET', `/assessments/${id}`, { key: pro() });
      expect(stored.json.version).toBe(2);
      expect(stored.json.completion_percentage).toBe(winner.json.completion_percentage);
    });

    it('completes at 100 % in final_report and leaves no pending event behind', async () => {
      const done = await completeAssessment();
      expect(done.completed_at).toEqual(expect.any(String));
      expect(done.status_history.map((h: { status: string }) => h.status)).toEqual(['draft', 'in_progress', 'complete']);
      const { Item } = await dynamo().send(new GetCommand({ TableName: app.resources.tableName, Key: await itemKeyOf(done.assessment_id) }));
      expect(Item?.outbox).toBeUndefined();
      expect(Item?.gsi2pk).toBeUndefined();
    });
  });

  /** The stored item's key, found the way a reader of the table would: by the assessment id in the account partition. */
  async function itemKeyOf(assessmentId: string) {
    const { DynamoAccountStore } = await import('../../shared/adapters/account-store');
    const { hashApiKey } = await import('../../shared/domain/api-keys');
    const account = await new DynamoAccountStore(app.resources.tableName).findByKeyHash(hashApiKey(pro()));
    return { pk: `ACCOUNT#${account!.accountId}`, sk: `ASSESSMENT#${assessmentId}` };
  }

  describe('POST /assessments/{id}/submit', () => {
    it('refuses an assessment that is not complete, or whose checklist fails, listing what is missing', async () => {
      const draft = await create();
      const early = await app.request('POST', `/assessments/${draft.assessment_id}/submit`, { key: pro(), json: submission });
      expect(early.status).toBe(409);
      const incomplete = compliantMethodology('2024', 2025) as Record<string, unknown>;
      delete incomplete.tide_gauges;
      const done = await completeAssessment({ ...incomplete, vertical_datum: 'NGVD29' });
      const failing = await app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: submission });
      expect(failing.status).toBe(409);
      expect(failing.json.missing_items.map((m: { item: string }) => m.item)).toEqual(['J', 'M']);
      expect(failing.json.missing_items[0]).toMatchObject({ statute_ref: expect.stringMatching(/380\.093/), how_to_satisfy: expect.any(String) });
    });

    it('stores the manifest, returns the receipt, moves to submitted and refuses a second submit', async () => {
      const done = await completeAssessment();
      const res = await app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: submission });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ assessment_id: done.assessment_id, status: 'submitted', submission_id: expect.stringMatching(/^sub_/) });
      expect(res.json.receipt).toMatch(/^VA-12087-\d{4}-[0-9A-F]{8}$/);
      expect(res.json.dep_confirmation).toMatchObject({ status: 'not_transmitted', confirmation_number: null, received_on: null });
      expect(res.json.dep_confirmation.note).toMatch(/does not transmit/);
      expect(res.json.dep_confirmation.how_to_file.length).toBeGreaterThanOrEqual(3);

      const key = (await itemKeyOf(done.assessment_id)).pk.replace('ACCOUNT#', '');
      const object = await s3().send(new GetObjectCommand({ Bucket: app.resources.bucketName, Key: `submissions/${key}/${done.assessment_id}/${res.json.submission_id}.json` }));
      const content = await object.Body!.transformToString();
      expect(createHash('sha256').update(content).digest('hex')).toBe(res.json.manifest_sha256);
      const manifest = JSON.parse(content);
      expect(manifest).toMatchObject({
        assessment_id: done.assessment_id,
        deliverables: { final_report_url: submission.final_report_url, gis_data_url: submission.gis_data_url },
        certification: { certifier_name: 'Ana Lopez' },
        checklist: { compliant: true },
      });

      const stored = await app.request('GET', `/assessments/${done.assessment_id}`, { key: pro() });
      expect(stored.json).toMatchObject({ status: 'submitted', submission_id: res.json.submission_id, receipt: res.json.receipt, dep_confirmation: res.json.dep_confirmation });
      expect(manifest.notice).toMatch(/does not transmit anything to DEP/);
      const second = await app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: submission });
      expect(second.status).toBe(409);
      expect((await patch(done.assessment_id, { notes: 'after the fact' })).status).toBe(409);
    });

    it('makes one submission of 20 concurrent submits with one Idempotency-Key', async () => {
      const done = await completeAssessment();
      const headers = { 'Idempotency-Key': `submit-${done.assessment_id}` };
      const results = await Promise.all(Array.from({ length: 20 }, () => app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: submission, headers })));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      const accountId = (await itemKeyOf(done.assessment_id)).pk.replace('ACCOUNT#', '');
      const listing = await s3().send(new ListObjectsV2Command({ Bucket: app.resources.bucketName, Prefix: `submissions/${accountId}/${done.assessment_id}/` }));
      expect(listing.KeyCount).toBe(1);
      const other = await app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: { ...submission, gis_data_url: 'https://elsewhere.example/gis.zip' }, headers });
      expect(other.status).toBe(422);
    });

    it('validates the submission body', async () => {
      const done = await completeAssessment();
      const res = await app.request('POST', `/assessments/${done.assessment_id}/submit`, {
        key: pro(),
        json: { ...submission, final_report_url: 'http://insecure.example/report.pdf', certification: { ...submission.certification, accepted: false } },
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res).sort()).toEqual(['certification.accepted', 'final_report_url']);
    });
  });

  describe('POST /assessments/{id}/dep-confirmation', () => {
    const today = () => floridaToday();

    it('records DEP\'s own number once, answers the same for a repeat and 409 for another number', async () => {
      const done = await completeAssessment();
      const notYet = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: { confirmation_number: 'RF-1', received_on: today() } });
      expect(notYet.status).toBe(409);
      const submitted = await app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: submission });
      expect(submitted.status).toBe(201);

      const body = { confirmation_number: 'RF-VA-2026-0147', received_on: today() };
      const first = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: body });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({
        submission_id: submitted.json.submission_id, receipt: submitted.json.receipt,
        dep_confirmation: { status: 'recorded', confirmation_number: 'RF-VA-2026-0147', received_on: body.received_on, recorded_at: expect.any(String) },
      });
      const again = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: body });
      expect(again.status).toBe(200);
      expect(again.json.dep_confirmation.recorded_at).toBe(first.json.dep_confirmation.recorded_at);
      const other = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: { ...body, confirmation_number: 'RF-OTHER' } });
      expect(other.status).toBe(409);
      expect(other.json.code).toBe('conflict');
      const read = await app.request('GET', `/assessments/${done.assessment_id}`, { key: pro() });
      expect(read.json.dep_confirmation).toMatchObject({ status: 'recorded', confirmation_number: 'RF-VA-2026-0147' });
    });

    it('refuses dates before the submission or in the future, bad bodies and other accounts\' assessments', async () => {
      const done = await completeAssessment();
      expect((await app.request('POST', `/assessments/${done.assessment_id}/submit`, { key: pro(), json: submission })).status).toBe(201);
      const early = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: { confirmation_number: 'RF-1', received_on: '2021-01-04' } });
      expect(early.status).toBe(400);
      expect(fieldsOf(early)).toEqual(['received_on']);
      const future = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: { confirmation_number: 'RF-1', received_on: `${new Date().getUTCFullYear() + 1}-01-01` } });
      expect(future.status).toBe(400);
      const bad = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: pro(), json: { confirmation_number: '  ', received_on: '2026-02-30', extra: 1 } });
      expect(bad.status).toBe(400);
      const foreign = await app.request('POST', `/assessments/${done.assessment_id}/dep-confirmation`, { key: app.keys.enterprise, json: { confirmation_number: 'RF-1', received_on: today() } });
      expect(foreign.status).toBe(404);
    });
  });

  describe('GET /assessments', () => {
    it('lists only the caller\'s assessments, filtered and paged by cursor', async () => {
      const enterprise = app.keys.enterprise;
      const mine = [
        await create({ jurisdiction: 'Liberty County' }, enterprise),
        await create({ jurisdiction: 'Liberty County' }, enterprise),
        await create({ jurisdiction: 'Liberty County' }, enterprise),
        await create({ jurisdiction: 'Gulf County' }, enterprise),
      ];
      await patch(mine[0].assessment_id, { completion_percentage: 10 }, {}, enterprise);

      const byJurisdiction = await app.request('GET', '/assessments?jurisdiction=Liberty%20County&limit=2', { key: enterprise });
      expect(byJurisdiction.status).toBe(200);
      expect(byJurisdiction.json.data).toHaveLength(2);
      expect(byJurisdiction.json.data[0].assessment_id).toBe(mine[2].assessment_id);
      const next = await app.request('GET', `/assessments?jurisdiction=Liberty%20County&limit=2&cursor=${byJurisdiction.json.next_cursor}`, { key: enterprise });
      expect(next.json.data.map((a: { assessment_id: string }) => a.assessment_id)).toEqual([mine[0].assessment_id]);
      expect(next.json.next_cursor).toBeNull();

      const byId = await app.request('GET', '/assessments?jurisdiction=county:12045', { key: enterprise });
      expect(byId.json.data.map((a: { assessment_id: string }) => a.assessment_id)).toEqual([mine[3].assessment_id]);
      const inProgress = await app.request('GET', '/assessments?status=in_progress', { key: enterprise });
      expect(inProgress.json.data.map((a: { assessment_id: string }) => a.assessment_id)).toEqual([mine[0].assessment_id]);

      const today = new Date().toISOString().slice(0, 10);
      const inRange = await app.request('GET', `/assessments?date_range=${today}..${today}&limit=100`, { key: enterprise });
      const ids = inRange.json.data.map((a: { assessment_id: string }) => a.assessment_id);
      for (const a of mine) expect(ids).toContain(a.assessment_id);
      const before = await app.request('GET', '/assessments?date_range=2021-01-01..2021-12-31', { key: enterprise });
      expect(before.json.data).toEqual([]);

      const proIds = (await app.request('GET', '/assessments?limit=100', { key: pro() })).json.data.map((a: { assessment_id: string }) => a.assessment_id);
      for (const a of mine) expect(proIds).not.toContain(a.assessment_id);
    });

    it('answers 400 for bad filters and cursors', async () => {
      const bad = async (query: string, field: string) => {
        const res = await app.request('GET', `/assessments?${query}`, { key: pro() });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(fieldsOf(res)).toContain(field);
      };
      await bad('date_range=2025-05-01..2025-01-01', 'date_range');
      await bad('date_range=2025-05-01', 'date_range');
      await bad('status=archived', 'status');
      await bad('cursor=not-a-cursor', 'cursor');
      await bad('jurisdiction=Narnia', 'jurisdiction');
      await bad('jurisdiction=Alachua', 'jurisdiction');
      const page = await app.request('GET', '/assessments?limit=1', { key: pro() });
      expect(page.json.next_cursor).toEqual(expect.any(String));
      await bad(`status=draft&limit=1&cursor=${page.json.next_cursor}`, 'cursor');
      const foreign = await app.request('GET', `/assessments?limit=1&cursor=${page.json.next_cursor}`, { key: app.keys.enterprise });
      expect(foreign.status).toBe(400);
    });
  });
});
