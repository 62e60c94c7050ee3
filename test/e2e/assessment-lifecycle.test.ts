import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../../shared/adapters/aws-clients';
import { startTestApp } from '../helpers/local-app';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';
import { multipartBody } from '../fixtures/assets/multipart';
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
  it('fills the methodology from the linked import and flood analysis, and item G says what the surge source is', async () => {
    const key = app.keys.pro;
    // Claims FEMA surge: the API's own surge is its GEV fit to the Key West gauge's annual maxima.
    const claimed = { flood_components: { storm_surge: { analysed: true, data_source: 'fema', return_periods_years: [100] } } };
    const created = await app.request('POST', '/assessments', { key, json: newAssessmentBody({ methodology: claimed }) });
    const id: string = created.json.assessment_id;
    let etag = created.headers.get('etag')!;

    const empty = await app.request('POST', `/assessments/${id}/methodology:prefill`, { key, json: {}, headers: { 'If-Match': etag } });
    expect(empty.status).toBe(422);
    expect(empty.json).toMatchObject({ code: 'no_evidence', link_first: expect.arrayContaining([expect.stringContaining('POST /hazards/flood-analysis')]) });
    expect((await app.request('POST', `/assessments/${id}/methodology:prefill`, { key, json: {} })).status).toBe(428);

    const csv = 'facility_id,name,type,latitude,longitude\nKW-LS-1,Lift Station 1,Lift Station,24.5557,-81.7826\nKW-H-1,Lower Keys Medical Center,Hospital,24.5712,-81.7496\nKW-S-1,Key West High School,School,24.5606,-81.7725\n';
    const form = await multipartBody({ file: { filename: 'key-west.csv', data: csv }, jurisdiction: 'Monroe County', assessment_id: id });
    const imported = await app.request('POST', '/assets/import', { key, body: form.body, headers: { 'Content-Type': form.contentType } });
    expect(imported.status).toBe(201);
    expect(imported.json.asset_count).toBe(3);

    const keyWest = { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.74, 24.54], [-81.74, 24.58], [-81.81, 24.58], [-81.81, 24.54]]] };
    const analysis = await app.request('POST', '/hazards/flood-analysis', {
      key, json: { boundary_geojson: keyWest, components: ['tidal', 'surge'], scenarios: ['intermediate_low', 'intermediate'], planning_horizons: [2045, 2075], assessment_id: id, allow_surface_model: true },
    });
    expect(analysis.status).toBe(200);
    expect(analysis.json.components.surge.basis).toBe('tide_gauge_statistics');
    const fittedGauge: string = analysis.json.components.surge.gauge.noaa_id;
    const surgePeriods = [...new Set<number>(analysis.json.components.surge.results.map((r: { return_period_years: number }) => r.return_period_years))].sort((a, b) => a - b);
    const gauges: string[] = analysis.json.gauge_selection.gauges.map((g: { noaa_id: string }) => g.noaa_id);
    const elevationSource = analysis.json.elevation.source;

    const before = await app.request('GET', `/assessments/${id}`, { key });
    etag = before.headers.get('etag')!;
    expect(before.json.dep_checklist_status.contradictions).toContainEqual(expect.objectContaining({
      item: 'G', field: 'methodology.flood_components.storm_surge.data_source', claimed: 'fema', found: expect.stringContaining(`tide_gauge_gev) (NOAA ${fittedGauge}`),
    }));

    const kept = await app.request('POST', `/assessments/${id}/methodology:prefill`, { key, json: {}, headers: { 'If-Match': etag } });
    expect(kept.status).toBe(200);
    expect(kept.json.prefill.kept).toEqual(['flood_components.storm_surge.analysed', 'flood_components.storm_surge.return_periods_years', 'flood_components.storm_surge.data_source']);
    expect(kept.json.methodology).toMatchObject({
      critical_assets: { asset_count: 3 },
      flood_components: { tidal: { analysed: true, flood_days_per_scenario_horizon: true }, storm_surge: claimed.flood_components.storm_surge },
      dem: { source: elevationSource.name, elevation_model_ids: [elevationSource.elevation_model_id] },
      vertical_datum: 'NAVD88',
      sea_level_rise: { scenario_family: 'noaa_2022', scenarios: ['intermediate_low', 'intermediate'], planning_horizons: [2045, 2075] },
      tide_gauges: { station_ids: gauges },
    });
    expect(Object.values(kept.json.methodology.critical_assets.categories as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(3);
    expect(kept.json.methodology_provenance['critical_assets.asset_count']).toMatchObject({ source: 'evidence', evidence_ids: [imported.json.import_id] });
    expect(kept.json.methodology_provenance['sea_level_rise.scenarios'].evidence_ids).toEqual([analysis.json.analysis_id]);
    expect(kept.json.dep_checklist_status.contradictions.map((c: { item: string }) => c.item)).toContain('G');
    const itemOf = (view: any, item: string) => view.dep_checklist_status.items.find((i: { item: string }) => i.item === item);
    for (const item of ['J', 'K', 'L', 'M']) expect(itemOf(kept.json, item)).toMatchObject({ status: 'pass', evidence: { status: expect.stringMatching(/verified|attested/) } });

    const replaced = await app.request('POST', `/assessments/${id}/methodology:prefill`, { key, json: { overwrite: true }, headers: { 'If-Match': kept.headers.get('etag')! } });
    expect(replaced.status).toBe(200);
    expect(replaced.json.methodology.flood_components.storm_surge).toEqual({ analysed: true, return_periods_years: surgePeriods, data_source: 'tide_gauge_gev' });
    expect(replaced.json.dep_checklist_status.contradictions).toEqual([]);
    const itemG = itemOf(replaced.json, 'G');
    expect(itemG.status).toBe('conditional');
    expect(itemG.reason).toMatch(/^DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event/);
    expect(itemG.evidence.status).toBe('verified');

    // Restating a part makes its fields the user's again.
    const restated = await app.request('PATCH', `/assessments/${id}`, { key, json: { methodology: { vertical_datum: 'NAVD88' } }, headers: { 'If-Match': replaced.headers.get('etag')! } });
    expect(restated.status).toBe(200);
    expect(restated.json.methodology_provenance).not.toHaveProperty(['vertical_datum']);
    expect(restated.json.methodology_provenance).toHaveProperty(['sea_level_rise.scenarios']);
  }, 180_000);
});
