import { evaluateCompliance } from '../../shared/domain/compliance/evaluate';
import { settingOf } from '../../shared/domain/compliance/setting';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology, linkedAnalysis as analysis, monroeEvidence as evidence } from '../helpers/assessment-fixtures';

/** A coastal jurisdiction (Monroe County): every item applies. */
const COASTAL = settingOf({ county_fips: '12087', display_name: 'Monroe County' });

const methodology = compliantMethodology('2024', 2026) as Methodology;
const input = { scope: 'full_jurisdiction' as const, methodology };
const byItem = (evaluation: ReturnType<typeof evaluateCompliance>) => Object.fromEntries(evaluation.dep_checklist_status.items.map((i) => [i.item, i]));

describe('checklist cross-checked against the evidence', () => {
  it('verifies statements the evidence agrees with and passes', () => {
    const result = evaluateCompliance(input, '2026-01-15', COASTAL, evidence());
    expect(result.compliant).toBe(true);
    expect(result.dep_checklist_status.contradictions).toEqual([]);
    const items = byItem(result);
    for (const letter of ['B', 'C', 'E', 'G', 'H', 'I', 'K', 'L', 'M']) expect(items[letter]!.evidence.status).toBe('verified');
    for (const letter of ['A', 'D', 'J', 'N']) expect(items[letter]!.evidence.status).toBe('attested');
  });

  it('fails each contradicted item and lists the contradiction by item', () => {
    const result = evaluateCompliance(input, '2026-01-15', COASTAL, evidence({
      assets: { total: 397, by_category: { community_emergency: 397 } },
      analyses: [analysis({
        elevation: { status: 'covered', source_name: 'SRTM 1 arc-second tiles (bundled, coastal Florida)', native_resolution: '1 arc-second (~30 m)', cell_size_m: 206 },
        components: [{ component: 'tidal', status: 'ok' }, { component: 'surge', status: 'ok' }, { component: 'rainfall', status: 'no_data' }],
        scenarios: ['intermediate_low', 'intermediate'], planning_horizons: [2046, 2076], gauges: ['8724580'],
      })],
    }));
    expect(result.compliant).toBe(false);
    const contradictions = result.dep_checklist_status.contradictions;
    expect(contradictions.map((c) => c.item)).toEqual(['B', 'C', 'H', 'I', 'K', 'L', 'M']);
    expect(contradictions[0]).toEqual({ item: 'B', field: 'methodology.critical_assets.asset_count', claimed: '412', found: 'the API holds 397 assets for Monroe County (community_emergency 397)' });
    expect(contradictions.find((c) => c.item === 'H')!.found).toContain('status no_data');
    expect(contradictions.find((c) => c.item === 'I')!.found).toContain('did not run it');
    expect(contradictions.find((c) => c.item === 'K')!.found).toMatch(/^high never analysed/);
    const items = byItem(result);
    expect(items.B).toMatchObject({ status: 'fail', evidence: { status: 'contradicted' } });
    expect(items.B!.reason).toMatch(/^Contradicted by the API's evidence/);
    expect(result.missing_items.map((m) => m.item)).toEqual(['B', 'C', 'H', 'I', 'K', 'L', 'M']);
  });

  it('counts rainfall and compound as analysed only when the storm was computed, not for depressions alone', () => {
    const withRainfall = (rainfall: string, compound: string) => evaluateCompliance(input, '2026-01-15', COASTAL, evidence({
      analyses: [analysis({ components: [{ component: 'tidal', status: 'ok' }, { component: 'surge', status: 'ok' }, { component: 'rainfall', status: rainfall }, { component: 'compound', status: compound }] })],
    }));
    const computed = byItem(withRainfall('computed', 'computed'));
    expect(computed.H!.evidence.status).toBe('verified');
    expect(computed.I!.evidence.status).toBe('verified');
    const depressionsOnly = withRainfall('needs_design_storm', 'no_data');
    expect(byItem(depressionsOnly).H!.evidence.status).toBe('contradicted');
    expect(byItem(depressionsOnly).I!.evidence.status).toBe('contradicted');
    expect(depressionsOnly.dep_checklist_status.contradictions.find((c) => c.item === 'H')!.found).toContain('status needs_design_storm');
  });

  it('leaves statements attested when the API holds nothing to check them against', () => {
    const result = evaluateCompliance(input, '2026-01-15', COASTAL, evidence({ assets: { total: 0, by_category: {} }, analyses: [] }));
    expect(result.compliant).toBe(true);
    expect(result.dep_checklist_status.items.every((i) => i.evidence.status === 'attested')).toBe(true);
    expect(result.dep_checklist_status.evidence_summary).toMatchObject({ assets_held: 0, analyses: [] });
  });

  it('says a body validated without an assessment was not cross-checked', () => {
    const result = evaluateCompliance(input, '2026-01-15', COASTAL);
    expect(result.dep_checklist_status.evidence_summary).toBeNull();
    expect(result.dep_checklist_status.items[0]!.evidence.detail).toMatch(/send assessment_id/);
  });
});

describe('item M and the recorded gauge choice', () => {
  const single = (id: string, reason: string) => analysis({ analysis_id: id, gauges: ['8724580'], gauge_selection: { method: 'single_gauge', reason } });
  const oneGauge = { ...methodology, tide_gauges: { station_ids: ['8724580'], single_gauge_rationale: 'Key West alone is representative.' } } as Methodology;

  it('names each recorded choice with its reason, within the documented length however many there are', () => {
    const long = 'r'.repeat(1000);
    const result = evaluateCompliance({ ...input, methodology: oneGauge }, '2026-01-15', COASTAL, evidence({ analyses: [single('fa_1', 'Same open-ocean exposure.'), single('fa_2', long), single('fa_3', long)] }));
    const m = byItem(result).M!;
    expect(m.status).toBe('pass');
    expect(m.evidence.status).toBe('verified');
    expect(m.evidence.detail).toContain('fa_1 used one gauge (8724580) by a recorded choice: Same open-ocean exposure.');
    expect(m.evidence.detail).toContain('1 more analyses used one gauge');
    expect(m.evidence.detail.length).toBeLessThanOrEqual(2000);
  });

  it('contradicts a claimed single gauge when a linked analysis interpolated, and says nothing of choices that were not recorded', () => {
    const interpolated = analysis({ gauge_selection: { method: 'inverse_distance_two_gauges', reason: 'Two closest gauges.' } });
    const result = evaluateCompliance({ ...input, methodology: oneGauge }, '2026-01-15', COASTAL, evidence({ analyses: [interpolated] }));
    expect(byItem(result).M!.status).toBe('fail');
    expect(result.dep_checklist_status.contradictions).toContainEqual(expect.objectContaining({ item: 'M', field: 'methodology.tide_gauges.single_gauge_rationale' }));
    // Evidence kept before the choice was recorded has no gauge_selection: no contradiction can be drawn from it.
    const older = evaluateCompliance({ ...input, methodology: oneGauge }, '2026-01-15', COASTAL, evidence({ analyses: [analysis({ gauges: ['8724580'] })] }));
    expect(older.dep_checklist_status.contradictions.filter((c) => c.item === 'M')).toEqual([]);
  });
});
