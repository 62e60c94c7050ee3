import { reportPdf, type ReportInput } from '../../shared/domain/deliverables/report-pdf';
import type { AnalysisEvidence } from '../../shared/domain/deliverables/ports';
import { pdfPages } from '../helpers/pdf-text';

/**
 * Where a table meets the foot of a page: the report's first section lists the analyses, then the
 * sources table. With one more analysis each time, the sources table starts lower, through the
 * lengths where its second row, its first row, then its header no longer fit above the bottom margin.
 */

const analysis = (i: number): AnalysisEvidence => ({
  analysis_id: `fa_${i}`, assessment_id: 'va_test', analysed_at: '2026-11-20T10:00:00.000Z',
  boundary: { source: 'jurisdiction', jurisdiction_id: 'county:12087', area_km2: 3895, counties: ['Monroe'] },
  components: [{ component: 'tidal', status: 'ok' }], scenarios: ['intermediate'], planning_horizons: [2046],
  elevation: { status: 'ok', source_name: 'SRTM', native_resolution: '30 m', cell_size_m: 30 },
  gauges: ['8724580'], assets_inside: 1, assets_applied: 1, result_key: 'r', extents_key: 'e',
});

const input = (analyses: number): ReportInput => ({
  title: 'Vulnerability assessment', jurisdiction: 'Monroe County', generatedAt: '2026-11-23',
  assessment: { assessment_id: 'va_test', type: 'county', scope: 'full_jurisdiction', start_date: '2026-01-05', status: 'in_progress', vertical_datum: 'NAVD88', dem: null },
  analyses: Array.from({ length: analyses }, (_, i) => analysis(i)),
  sources: [{ name: 'NOAA 2022 Technical Report', version: 'TR NOS 01' }, { name: 'SRTM', version: 'SRTM version 3' }],
  gauges: [], exposure: { combos: [], analysed: 0, unknownElevation: 0 }, assets: [], maps: [],
  checklist: { rule_set: 's380093', label: 'statute', passed: 0, failed: 0, conditional: 0, contradictions: [], items: [] } as never,
});

describe('a table that reaches the foot of a page', () => {
  it('never leaves its header alone at the foot, and repeats it once at the top of each page it runs onto', async () => {
    const rowTexts = new Set(['TR NOS 01', 'SRTM version 3']);
    const headerAlonePages = new Set<number>();
    let continued = 0;
    for (let analyses = 36; analyses <= 52; analyses++) {
      const pages = pdfPages(await reportPdf(input(analyses)));
      for (const page of pages) {
        const headers = page.texts.filter((run) => run.text === 'Version');
        const rows = page.texts.filter((run) => rowTexts.has(run.text));
        if (headers.length === 0) {
          expect(rows).toEqual([]);
          continue;
        }
        // One header a page, above at least one of the table's rows.
        expect(headers).toHaveLength(1);
        if (rows.length === 0) headerAlonePages.add(analyses);
        for (const row of rows) expect(row.baseline).toBeGreaterThan(headers[0]!.baseline);
      }
      // Both rows in the document, once each.
      expect(pages.flatMap((page) => page.texts).filter((run) => rowTexts.has(run.text)).map((run) => run.text)).toEqual([...rowTexts]);
      if (pages.filter((page) => page.texts.some((run) => run.text === 'Version')).length > 1) continued++;
    }
    expect([...headerAlonePages]).toEqual([]);
    // Among these lengths, the table runs onto a second page, so the case was met.
    expect(continued).toBeGreaterThan(0);
  });
});
