import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checklistFor, ruleSetFor, assessmentDateProblem } from '../../shared/domain/compliance/rule-sets';
import { checklistForQuery } from '../../shared/application/compliance/use-cases';
import { asHttpError } from '../../shared/http/domain-problems';

const LETTERS = 'ABCDEFGHIJKLMN'.split('');
const dataFile = (name: string) => JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/compliance', name), 'utf8'));
const today = new Date('2026-03-01T12:00:00Z');

describe('compliance rule sets (DOMAIN §3 table)', () => {
  it.each(['rule-set-2021.json', 'rule-set-2024.json'])('%s carries every item field, the label and a verification status', (file) => {
    const data = dataFile(file);
    expect(data.label).toBe("derived from s. 380.093; not DEP's form");
    for (const item of data.items) {
      expect(Object.keys(item).sort()).toEqual(['applies_from', 'applies_to', 'check', 'conditional', 'evidence', 'how_to_satisfy', 'id', 'requirement', 'source', 'statute_ref', 'title', 'verification']);
      expect(['verified', 'reconstructed', 'unverified']).toContain(item.verification);
      expect(item.statute_ref).toMatch(/^s\. 380\.093\(3\)\([cd]\)/);
      expect(item.requirement).not.toMatch(/\bDEP form\b/i);
    }
  });

  it.each(['2021-01-01', '2022-06-30', '2022-07-01', '2023-12-31', '2024-06-30', '2024-07-01', '2031-12-31'])('gives items A–N exactly once on %s', (date) => {
    expect(checklistFor(date).items.map((item) => item.item)).toEqual(LETTERS);
  });

  it('switches from rule set 2021 to 2024 on 2024-07-01', () => {
    expect(ruleSetFor('2023-12-31').rule_set).toBe('2021');
    expect(ruleSetFor('2024-06-30').rule_set).toBe('2021');
    expect(ruleSetFor('2024-07-01').rule_set).toBe('2024');
    expect(ruleSetFor('2030-01-01').rule_set).toBe('2024');
  });

  it('requires NOAA 2017 Intermediate-Low and Intermediate-High with 2040 and 2070 under rule set 2021', () => {
    const { scenario_requirements: req } = checklistFor('2023-05-01');
    expect(req).toMatchObject({ scenario_family: 'noaa_2017', planning_horizons: [2040, 2070], verification: 'reconstructed' });
    expect([...req.required_scenarios].sort()).toEqual(['intermediate_high', 'intermediate_low']);
  });

  it('requires NOAA 2022 Intermediate-Low and Intermediate, 20 and 50 years ahead, under rule set 2024 (unverified)', () => {
    const checklist = checklistFor('2024-09-01');
    expect(checklist.scenario_requirements).toMatchObject({ scenario_family: 'noaa_2022', planning_horizons: [2044, 2074], verification: 'unverified' });
    expect([...checklist.scenario_requirements.required_scenarios].sort()).toEqual(['intermediate', 'intermediate_low']);
    expect(checklistFor('2027-02-01').scenario_requirements.planning_horizons).toEqual([2047, 2077]);
    const byId = Object.fromEntries(checklist.items.map((item) => [item.item, item]));
    expect(byId.K!.verification).toBe('unverified');
    expect(byId.L!.verification).toBe('unverified');
    expect(byId.A!.verification).toBe('verified');
  });

  it('marks the "if applicable" and "to the extent practicable" items conditional', () => {
    const conditional = checklistFor('2025-01-01').items.filter((item) => item.conditional).map((item) => item.item);
    expect(conditional).toEqual(['D', 'F', 'H', 'I']);
  });

  it('adds the 500-year rainfall storm from the 2022 amendment on', () => {
    const before = checklistFor('2022-06-30').items.find((item) => item.item === 'H')!;
    const after = checklistFor('2022-07-01').items.find((item) => item.item === 'H')!;
    expect(before.requirement).not.toMatch(/500-year/);
    expect(after.requirement).toMatch(/100-year and 500-year/);
  });

  it('refuses years before 2021 and beyond the current year + 5', () => {
    expect(assessmentDateProblem('2020-12-31', today)).toMatch(/apply from 2021/);
    expect(assessmentDateProblem('2031-12-31', today)).toBeUndefined();
    expect(assessmentDateProblem('2032-01-01', today)).toMatch(/up to 2031/);
  });
});

describe('checklist query', () => {
  const fieldOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      const problem = asHttpError(error);
      expect(problem).toBeDefined();
      return problem!.extra.errors?.[0]?.field;
    }
    throw new Error('expected an error');
  };

  it('takes a year at July 1 (2024 → rule set 2024) and a date exactly', () => {
    expect(checklistForQuery({ assessment_year: 2024 }, today).rule_set).toBe('2024');
    expect(checklistForQuery({ assessment_year: 2024, assessment_date: '2024-03-01' }, today).rule_set).toBe('2021');
    expect(checklistForQuery({ assessment_year: 2023 }, today).rule_set).toBe('2021');
    expect(checklistForQuery({}, today)).toMatchObject({ rule_set: '2024', assessment_date: '2026-03-01' });
  });

  it('names the field that is out of range or inconsistent', () => {
    expect(fieldOf(() => checklistForQuery({ assessment_year: 2040 }, today))).toBe('assessment_year');
    expect(fieldOf(() => checklistForQuery({ assessment_date: '2019-05-01' }, today))).toBe('assessment_date');
    expect(fieldOf(() => checklistForQuery({ assessment_year: 2024, assessment_date: '2023-05-01' }, today))).toBe('assessment_date');
  });
});
