import { evaluateCompliance } from '../../shared/domain/compliance/evaluate';
import { settingOf } from '../../shared/domain/compliance/setting';
import { evidenceOf } from '../../shared/domain/deliverables/analysis-link';
import type { ComponentEvidence } from '../../shared/domain/deliverables/ports';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology, linkedAnalysis, monroeEvidence } from '../helpers/assessment-fixtures';

/**
 * Item G against the source of the surge the linked analyses computed: the API's own surge is a GEV
 * fit to a tide gauge's annual maxima (DOMAIN: no FEMA or SLOSH tables are held), so a methodology
 * claiming FEMA surge over it is contradicted, and the truth is not failed for being told.
 */
const COASTAL = settingOf({ county_fips: '12087', display_name: 'Monroe County' });
const STATUTE = 'DEP accepts storm surge from NOAA or FEMA data, at least the current 100-year event (s. 380.093(3)(d), reconstructed wording)';

const gaugeFit: ComponentEvidence = { component: 'surge', status: 'ok', source: 'tide_gauge_gev', source_detail: ['NOAA 8724580 Key West'], return_periods_years: [10, 100, 500] };
const femaLayers: ComponentEvidence = { component: 'surge', status: 'ok', source: 'loaded_layers', source_detail: ['FEMA FIS Monroe County 2021'], return_periods_years: [100, 500] };

function withSurge(claim: Partial<NonNullable<NonNullable<Methodology['flood_components']>['storm_surge']>>, surge: ComponentEvidence) {
  const methodology = compliantMethodology('2024', 2026) as Methodology;
  methodology.flood_components!.storm_surge = { analysed: true, return_periods_years: [100, 500], ...claim };
  const analysis = linkedAnalysis({ components: [{ component: 'tidal', status: 'ok' }, surge, { component: 'rainfall', status: 'ok' }, { component: 'compound', status: 'ok' }] });
  const result = evaluateCompliance({ scope: 'full_jurisdiction', methodology }, '2026-01-15', COASTAL, monroeEvidence({ analyses: [analysis] }));
  return { result, itemG: result.dep_checklist_status.items.find((i) => i.item === 'G')! };
}

describe('item G against the source of the linked surge', () => {
  it('lists a FEMA claim over the gauge fit as a contradiction and fails the item', () => {
    const { result, itemG } = withSurge({ data_source: 'fema' }, gaugeFit);
    expect(result.dep_checklist_status.contradictions).toEqual([{
      item: 'G',
      field: 'methodology.flood_components.storm_surge.data_source',
      claimed: 'fema',
      found: 'the surge levels of the 1 linked analysis came from this API\'s GEV fit to tide-gauge annual maxima (tide_gauge_gev) (NOAA 8724580 Key West)',
    }]);
    expect(itemG).toMatchObject({ status: 'fail', evidence: { status: 'contradicted' }, verification: 'reconstructed' });
    expect(itemG.reason).toMatch(/^Contradicted by the API's evidence: methodology\.flood_components\.storm_surge\.data_source: claimed fema;/);
    expect(result.compliant).toBe(false);
  });

  it('a NOAA claim is contradicted by FEMA layers; the FEMA claim over them is verified and passes', () => {
    expect(withSurge({ data_source: 'noaa' }, femaLayers).result.dep_checklist_status.contradictions.map((c) => [c.item, c.claimed])).toEqual([['G', 'noaa']]);
    const { result, itemG } = withSurge({ data_source: 'fema' }, femaLayers);
    expect(result.dep_checklist_status.contradictions).toEqual([]);
    expect(itemG).toMatchObject({ status: 'pass', reason: `${STATUTE}: FEMA data up to the 500-year event.`, evidence: { status: 'verified' } });
    expect(itemG.evidence.detail).toContain('loaded surge layers (FEMA FIS Monroe County 2021)');
  });

  it('the truth (the gauge fit) is no contradiction: conditional, saying what DEP accepts, and the assessment still passes', () => {
    const { result, itemG } = withSurge({ data_source: 'tide_gauge_gev' }, gaugeFit);
    expect(result.dep_checklist_status.contradictions).toEqual([]);
    expect(itemG.status).toBe('conditional');
    expect(itemG.reason).toContain(STATUTE);
    expect(itemG.reason).toContain('not a NOAA or FEMA surge product');
    expect(itemG.reason).toContain('whether DEP accepts this source as NOAA or FEMA data is DEP\'s decision');
    expect(itemG.evidence).toEqual({ status: 'verified', detail: 'The 1 linked analysis produced storm surge results. The surge levels of the 1 linked analysis came from this API\'s GEV fit to tide-gauge annual maxima (tide_gauge_gev) (NOAA 8724580 Key West).' });
    expect(result.compliant).toBe(true);
  });

  it('"other" with a description is no contradiction; a gauge-fit claim over FEMA layers is one', () => {
    const described = withSurge({ data_source: 'other', data_source_description: 'GEV fit to Key West annual maxima' }, gaugeFit);
    expect(described.result.dep_checklist_status.contradictions).toEqual([]);
    expect(described.itemG.status).toBe('conditional');
    expect(withSurge({ data_source: 'tide_gauge_gev' }, femaLayers).itemG).toMatchObject({ status: 'fail', evidence: { status: 'contradicted' } });
  });

  it('evidence kept before sources were recorded does not check the source', () => {
    const { result, itemG } = withSurge({ data_source: 'fema' }, { component: 'surge', status: 'ok' });
    expect(result.dep_checklist_status.contradictions).toEqual([]);
    expect(itemG).toMatchObject({ status: 'pass', evidence: { status: 'verified', detail: 'The 1 linked analysis produced storm surge results.' } });
  });
});

describe('a flood analysis answer recorded as evidence', () => {
  const meta = { analysisId: 'fa_1', assessmentId: 'va_1', analysedAt: '2026-02-01T00:00:00.000Z', link: { boundary_source: 'jurisdiction' as const, jurisdiction_id: 'county:12087' }, applied: null, resultKey: 'r', extentsKey: null };

  it('names the gauge statistics tide_gauge_gev with their gauge, loaded layers by their sources, and the events produced', () => {
    const answer = {
      components: {
        surge: { status: 'ok', basis: 'tide_gauge_statistics', gauge: { noaa_id: '8724580', name: 'Key West' }, results: [{ return_period_years: 500 }, { return_period_years: 10 }, { return_period_years: 100 }, { return_period_years: 10 }] },
        rainfall: { status: 'partial', basis: 'loaded_layers', layers: [{ source: 'SFWMD H&H model 2023', name: 'r100' }, { name: 'unnamed source' }, { source: 'SFWMD H&H model 2023' }], results: [{ return_period_years: 100 }] },
        tidal: { status: 'ok', results: [{ tidal_flood_days_per_year: { minor: 12 } }, {}] },
        compound: { status: 'no_data' },
      },
    };
    expect(evidenceOf(answer, meta).components).toEqual([
      { component: 'surge', status: 'ok', source: 'tide_gauge_gev', source_detail: ['NOAA 8724580 Key West'], return_periods_years: [10, 100, 500] },
      { component: 'rainfall', status: 'partial', source: 'loaded_layers', source_detail: ['SFWMD H&H model 2023', 'unnamed source'], return_periods_years: [100] },
      { component: 'tidal', status: 'ok', flood_days_reported: false },
      { component: 'compound', status: 'no_data' },
    ]);
  });
});
