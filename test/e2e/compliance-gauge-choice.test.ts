import { startTestApp } from '../helpers/local-app';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';

/**
 * The single-gauge judgement (s. 380.093(3)(d)) recorded on the assessment a flood analysis is
 * linked to, and read by checklist item M. Near Daytona Beach the two closest usable gauges (one
 * of them Fernandina Beach, 8720030) are more than 100 miles apart, so one gauge may be chosen.
 */
describe('gauge choice recorded on the assessment', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const key = () => app.keys.pro;
  const daytona = { type: 'Polygon', coordinates: [[[-81.03, 29.2], [-81.0, 29.2], [-81.0, 29.23], [-81.03, 29.23], [-81.03, 29.2]]] };
  const keyWest = { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.78, 24.54], [-81.78, 24.56], [-81.81, 24.56], [-81.81, 24.54]]] };
  const reason = 'Fernandina Beach shares the open Atlantic coast; Cedar Key lies on the Gulf.';

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  }, 120_000);
  afterAll(async () => {
    await app.stop();
  });

  async function assessmentWith(jurisdiction: string, methodology: object): Promise<string> {
    const created = await app.request('POST', '/assessments', { key: key(), json: newAssessmentBody({ jurisdiction, methodology }) });
    expect(created.status).toBe(201);
    return created.json.assessment_id;
  }

  async function analyse(assessmentId: string, boundary: object, choice: object) {
    const res = await app.request('POST', '/hazards/flood-analysis', {
      key: key(), json: { boundary_geojson: boundary, components: ['tidal'], scenarios: ['intermediate_low'], planning_horizons: [2045], assessment_id: assessmentId, ...choice },
    });
    expect(res.status).toBe(200);
    return res.json;
  }

  const itemM = (view: any) => view.dep_checklist_status.items.find((i: { item: string }) => i.item === 'M');

  it('keeps the single-gauge choice and its reason with the linked analysis; item M passes on it', async () => {
    const methodology = { ...compliantMethodology('2024', 2025), tide_gauges: { station_ids: ['8720030'], single_gauge_rationale: reason } };
    const id = await assessmentWith('Volusia County', methodology);
    const result = await analyse(id, daytona, { gauge_method: 'single', representative_gauge: '8720030', gauge_choice_reason: reason });
    expect(result.gauge_selection).toMatchObject({ method: 'single_gauge', gauges: [{ noaa_id: '8720030' }] });
    const view = (await app.request('GET', `/assessments/${id}`, { key: key() })).json;
    const [linked] = view.dep_checklist_status.evidence_summary.analyses;
    expect(linked).toMatchObject({ analysis_id: result.analysis_id, gauges: ['8720030'], gauge_selection: { method: 'single_gauge', reason: expect.stringContaining(reason) } });
    expect(itemM(view)).toMatchObject({ status: 'pass', evidence: { status: 'verified', detail: expect.stringContaining(reason) } });
  }, 120_000);

  it('contradicts a claimed single gauge when the linked analysis interpolated two (Key West: Key West and Vaca Key)', async () => {
    const methodology = { ...compliantMethodology('2024', 2025), tide_gauges: { station_ids: ['8724580'], single_gauge_rationale: 'Key West alone is representative of the island.' } };
    const id = await assessmentWith('Monroe County', methodology);
    const result = await analyse(id, keyWest, {});
    expect(result.gauge_selection.method).toBe('inverse_distance_two_gauges');
    const validated = (await app.request('POST', '/compliance/validate', { key: key(), json: { assessment_id: id } })).json;
    expect(itemM(validated)).toMatchObject({ status: 'fail', evidence: { status: 'contradicted' } });
    expect(validated.dep_checklist_status.contradictions).toContainEqual(expect.objectContaining({ item: 'M', field: 'methodology.tide_gauges.single_gauge_rationale' }));
    expect(validated.dep_checklist_status.evidence_summary.analyses[0].gauge_selection.method).toBe('inverse_distance_two_gauges');
  }, 120_000);
});
