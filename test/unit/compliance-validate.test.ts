import { validateAssessment, type ValidateDeps } from '../../shared/application/compliance/use-cases';
import type { ComplianceEvidence } from '../../shared/domain/compliance/evidence';
import { NotFoundError } from '../../shared/domain/errors';
import { compliantMethodology, monroeEvidence, storedAssessment } from '../helpers/assessment-fixtures';

/**
 * `POST /compliance/validate` as a use case: which assessment or body it checks, with which
 * evidence, under which rule set, and what it answers.
 */
function deps(stored = storedAssessment(), evidence: ComplianceEvidence = monroeEvidence()) {
  const asked: unknown[][] = [];
  const got: unknown[][] = [];
  const d: ValidateDeps = {
    assessments: { get: async (...args) => { got.push(args); return args[1] === stored.assessment_id ? stored : undefined; } },
    evidence: async (...args) => { asked.push(args); return evidence; },
  };
  return { d, asked, got };
}

const TODAY = new Date('2026-03-10T15:00:00Z');

describe('validateAssessment', () => {
  it('checks a stored assessment of the account against the evidence linked to it', async () => {
    // Started in 2026: horizons 2046 and 2076, those of the linked analysis.
    const stored = storedAssessment({
      assessment_id: 'va_01J0000000000000000000000A',
      timeline: { start_date: '2026-01-15', target_completion_date: '2027-06-30' },
      methodology: compliantMethodology('2024', 2026) as never,
    });
    const { d, asked, got } = deps(stored);
    const result = await validateAssessment(d, 'acct_1', { assessment_id: stored.assessment_id }, TODAY);
    expect(got).toEqual([['acct_1', stored.assessment_id]]);
    expect(asked).toEqual([['acct_1', stored.jurisdiction, stored.assessment_id]]);
    expect(result).toMatchObject({
      assessment_id: stored.assessment_id,
      jurisdiction: 'Monroe County',
      jurisdiction_id: 'county:12087',
      compliant: true,
      missing_items: [],
    });
    expect(result.dep_checklist_status.rule_set).toBe('2024');
  });

  it('holds the stored assessment to its evidence: horizons no linked analysis covers are contradicted', async () => {
    // Started in 2025 (horizons 2045 and 2075), but the one linked analysis ran 2046, 2076 and 2100.
    const stored = storedAssessment({ assessment_id: 'va_01J0000000000000000000000A', methodology: compliantMethodology('2024', 2025) as never });
    const { d } = deps(stored);
    const result = await validateAssessment(d, 'acct_1', { assessment_id: stored.assessment_id }, TODAY);
    expect(result.compliant).toBe(false);
    expect(result.missing_items.map((m) => m.item)).toEqual(['L']);
    expect(result.missing_items[0]!.reason).toMatch(/2045, 2075 never analysed/);
  });

  it('refuses an assessment id the account does not hold, without reading evidence', async () => {
    const { d, asked } = deps();
    await expect(validateAssessment(d, 'acct_1', { assessment_id: 'va_01J0000000000000000000000Z' }, TODAY)).rejects.toBeInstanceOf(NotFoundError);
    expect(asked).toEqual([]);
  });

  it('checks a body against the rule set of its start date and the evidence of its jurisdiction (no assessment)', async () => {
    const { d, asked, got } = deps(storedAssessment(), monroeEvidence({ analyses: [] }));
    const result = await validateAssessment(d, 'acct_1', {
      jurisdiction: 'Monroe County',
      scope: 'full_jurisdiction',
      timeline: { start_date: '2023-03-01', target_completion_date: '2024-06-30' },
      methodology: compliantMethodology('2021') as never,
    }, TODAY);
    expect(got).toEqual([]);
    expect(asked).toEqual([['acct_1', { id: 'county:12087', type: 'county', display_name: 'Monroe County', county_fips: '12087' }]]);
    expect(result.assessment_id).toBeNull();
    expect(result.jurisdiction).toBe('Monroe County');
    expect(result.dep_checklist_status.rule_set).toBe('2021');
    expect(result.compliant).toBe(true);
  });

  it('takes today, a Florida date, as the assessment date of a body without a timeline', async () => {
    const { d } = deps(storedAssessment(), monroeEvidence({ analyses: [] }));
    // 03:00 UTC on January 1, 2026 is still December 31, 2025 in Florida: horizons 2045 and 2075.
    const newYearUtc = new Date('2026-01-01T03:00:00Z');
    const body = (startYear: number) => ({ jurisdiction: 'Monroe County', scope: 'full_jurisdiction' as const, methodology: compliantMethodology('2024', startYear) as never });
    const as2025 = await validateAssessment(d, 'acct_1', body(2025), newYearUtc);
    expect(as2025.dep_checklist_status.rule_set).toBe('2024');
    expect(as2025.compliant).toBe(true);
    const as2026 = await validateAssessment(d, 'acct_1', body(2026), newYearUtc);
    expect(as2026.missing_items.map((m) => m.item)).toEqual(['L']);
    // The 2017 scenario pair of the 2021 rule set fails the 2024 rule set that applies today.
    const oldPair = await validateAssessment(d, 'acct_1', { ...body(2025), methodology: compliantMethodology('2021') as never }, TODAY);
    expect(oldPair.missing_items.map((m) => m.item)).toContain('K');
  });
});
