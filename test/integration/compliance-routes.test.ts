import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp } from '../helpers/local-app';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';

const ruleSetData = (year: string) => JSON.parse(readFileSync(path.join(__dirname, `../../shared/data/compliance/rule-set-${year}.json`), 'utf8'));

/** The compliance routes through the local gateway. */
describe('compliance routes', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  describe('GET /compliance/checklist', () => {
    it('serves items A–N of the rule set for the year, to free keys too', async () => {
      const res = await app.request('GET', '/compliance/checklist?assessment_year=2023', { key: app.keys.free });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ rule_set: '2021', label: "derived from s. 380.093; not DEP's form", scenario_requirements: { scenario_family: 'noaa_2017', planning_horizons: [2040, 2070] } });
      const data = ruleSetData('2021');
      const item = res.json.items.find((i: { item: string }) => i.item === 'C');
      const stored = data.items.find((i: { id: string }) => i.id === 'C');
      expect(item).toMatchObject({ title: stored.title, statute_ref: stored.statute_ref, requirement: stored.requirement, evidence: stored.evidence, conditional: false, verification: 'verified' });
      expect(item.check).toBeUndefined();
    });

    it('splits 2024 on July 1', async () => {
      const late = await app.request('GET', '/compliance/checklist?assessment_year=2024', { key: app.keys.free });
      expect(late.json).toMatchObject({ rule_set: '2024', scenario_requirements: { scenario_family: 'noaa_2022', planning_horizons: [2044, 2074] } });
      const early = await app.request('GET', '/compliance/checklist?assessment_year=2024&assessment_date=2024-06-30', { key: app.keys.free });
      expect(early.json.rule_set).toBe('2021');
    });

    // Polk County has no coastline; Monroe County is one of Florida's 35 coastal counties (Florida's list).
    it('leaves the tidal (E, F) and surge (G) items out for a noncoastal jurisdiction, keeps them for a coastal one', async () => {
      const inland = await app.request('GET', '/compliance/checklist?assessment_year=2025&jurisdiction=Polk%20County', { key: app.keys.free });
      expect(inland.status).toBe(200);
      expect(inland.json.coastal_setting).toMatchObject({ setting: 'noncoastal', not_required_items: ['E', 'F', 'G'], basis: expect.stringMatching(/Polk County/) });
      const coastal = await app.request('GET', '/compliance/checklist?assessment_year=2025&jurisdiction=Monroe%20County', { key: app.keys.free });
      expect(coastal.json.coastal_setting).toMatchObject({ setting: 'coastal', not_required_items: [] });
      const letters = (res: typeof coastal) => res.json.items.map((i: { item: string }) => i.item);
      expect(letters(coastal)).toEqual(expect.arrayContaining(['E', 'F', 'G']));
      expect(letters(inland)).toEqual(letters(coastal).filter((id: string) => !['E', 'F', 'G'].includes(id)));
      // Before the 2022 amendment a noncoastal jurisdiction still had every item.
      const before = await app.request('GET', '/compliance/checklist?assessment_date=2022-03-01&jurisdiction=Polk%20County', { key: app.keys.free });
      expect(before.json.coastal_setting).toMatchObject({ setting: 'noncoastal', not_required_items: [] });
      expect(letters(before)).toEqual(expect.arrayContaining(['E', 'F', 'G']));
      // Without a jurisdiction, the full list, saying so.
      const none = await app.request('GET', '/compliance/checklist?assessment_year=2025', { key: app.keys.free });
      expect(none.json.coastal_setting.setting).toBe('coastal');
      expect(letters(none)).toEqual(letters(coastal));
    });

    it('answers 400 naming the field for an unknown or ambiguous jurisdiction', async () => {
      for (const [query, field] of [['jurisdiction=Cook%20County', 'jurisdiction'], ['jurisdiction=Alachua', 'jurisdiction'], ['jurisdiction=Polk%20County&jurisdiction_type=state', 'jurisdiction_type'], ['jurisdiction=Key%20West&jurisdiction_county=Gotham', 'jurisdiction_county']]) {
        const res = await app.request('GET', `/compliance/checklist?assessment_year=2025&${query}`, { key: app.keys.free });
        expect({ query, status: res.status, code: res.json.code }).toEqual({ query, status: 400, code: 'invalid_request' });
        expect(res.json.errors[0].field).toBe(field);
      }
    });

    it('answers 400 with a clear message for years without a rule set', async () => {
      for (const query of ['assessment_year=2019', `assessment_year=${new Date().getUTCFullYear() + 6}`, 'assessment_year=twenty', 'assessment_date=2024-13-01', 'colour=red']) {
        const res = await app.request('GET', `/compliance/checklist?${query}`, { key: app.keys.free });
        expect({ query, status: res.status, code: res.json.code }).toEqual({ query, status: 400, code: 'invalid_request' });
        expect(res.json.errors[0].field).toBe(query.split('=')[0]);
      }
      const early = await app.request('GET', '/compliance/checklist?assessment_year=2019', { key: app.keys.free });
      expect(early.json.errors[0].message).toMatch(/2021/);
    });
  });

  describe('POST /compliance/validate', () => {
    const timeline = { start_date: '2025-02-01', target_completion_date: '2026-02-01' };

    it('passes a compliant draft', async () => {
      const res = await app.request('POST', '/compliance/validate', { key: app.keys.pro, json: { jurisdiction: 'Liberty County', scope: 'full_jurisdiction', timeline, methodology: compliantMethodology('2024', 2025) } });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ compliant: true, missing_items: [], jurisdiction: 'Liberty County', jurisdiction_id: 'county:12077', dep_checklist_status: { rule_set: '2024', failed: 0 } });
    });

    it('lists what a draft still misses, with statute references', async () => {
      const methodology = { ...compliantMethodology('2024', 2025), vertical_datum: 'NGVD29' };
      const res = await app.request('POST', '/compliance/validate', { key: app.keys.pro, json: { jurisdiction: 'City of Key West', timeline, methodology } });
      expect(res.json.compliant).toBe(false);
      expect(res.json.missing_items.map((m: { item: string }) => m.item)).toEqual(['A', 'J']);
      expect(res.json.missing_items[1]).toMatchObject({ statute_ref: 's. 380.093(3)(d)', requirement: expect.stringMatching(/NAVD88/), how_to_satisfy: expect.any(String) });
    });

    it('does not ask a noncoastal jurisdiction for tidal or surge analyses; a coastal one fails without them', async () => {
      const { tidal: _t, storm_surge: _s, ...inlandComponents } = compliantMethodology('2024', 2025).flood_components;
      const methodology = { ...compliantMethodology('2024', 2025), flood_components: inlandComponents };
      const inland = await app.request('POST', '/compliance/validate', { key: app.keys.pro, json: { jurisdiction: 'Polk County', scope: 'full_jurisdiction', timeline, methodology } });
      expect(inland.status).toBe(200);
      expect(inland.json).toMatchObject({ compliant: true, missing_items: [], dep_checklist_status: { coastal_setting: { setting: 'noncoastal', not_required_items: ['E', 'F', 'G'] } } });
      expect(inland.json.dep_checklist_status.items.map((i: { item: string }) => i.item).filter((id: string) => ['E', 'F', 'G'].includes(id))).toEqual([]);
      const coastal = await app.request('POST', '/compliance/validate', { key: app.keys.pro, json: { jurisdiction: 'Monroe County', scope: 'full_jurisdiction', timeline, methodology } });
      expect(coastal.json.compliant).toBe(false);
      expect(coastal.json.missing_items.map((m: { item: string }) => m.item)).toEqual(['E', 'F', 'G']);
      expect(coastal.json.dep_checklist_status.coastal_setting.setting).toBe('coastal');
    });

    it('keeps the setting of a stored assessment\'s jurisdiction', async () => {
      const created = await app.request('POST', '/assessments', { key: app.keys.pro, json: newAssessmentBody({ jurisdiction: 'Polk County' }) });
      expect(created.status).toBe(201);
      const id = created.json.assessment_id;
      const view = await app.request('GET', `/assessments/${id}`, { key: app.keys.pro });
      expect(view.json.dep_checklist_status.coastal_setting.setting).toBe('noncoastal');
      expect(view.json.dep_checklist_status.items.map((i: { item: string }) => i.item)).not.toContain('G');
      const validated = await app.request('POST', '/compliance/validate', { key: app.keys.pro, json: { assessment_id: id } });
      expect(validated.json.dep_checklist_status.coastal_setting.setting).toBe('noncoastal');
      expect(validated.json.dep_checklist_status.items.map((i: { item: string }) => i.item).filter((id: string) => ['E', 'F', 'G'].includes(id))).toEqual([]);
    });

    it('checks the jurisdiction and the body', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ jurisdiction: 'Cook County' }, 'jurisdiction'],
        [{ jurisdiction: 'Alachua' }, 'jurisdiction_type'],
        [{ jurisdiction: 'Monroe County', methodology: { sea_level_rise: { scenario_family: 'noaa_2099', scenarios: [], planning_horizons: [] } } }, 'methodology.sea_level_rise.scenario_family'],
        [{ jurisdiction: 'Monroe County', timeline: { start_date: '2018-01-01', target_completion_date: '2019-01-01' } }, 'timeline.start_date'],
        [{}, 'jurisdiction'],
      ];
      for (const [json, field] of cases) {
        const res = await app.request('POST', '/compliance/validate', { key: app.keys.pro, json });
        expect({ json, status: res.status }).toEqual({ json, status: 400 });
        expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect((await app.request('POST', '/compliance/validate', { key: app.keys.free, json: { jurisdiction: 'Monroe County' } })).status).toBe(403);
    });
  });
});
