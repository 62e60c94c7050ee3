import PDFDocument from 'pdfkit';
import { ResvgPngRenderer } from '../../shared/adapters/png-renderer';
import type { ReportInput } from '../../shared/domain/deliverables/report-document';
import { reportPdf } from '../helpers/deliverable-writers';
import type { AnalysisEvidence } from '../../shared/domain/deliverables/ports';
import { pdfPages, pdfText } from '../helpers/pdf-text';

/**
 * The report's layout read back from the PDF: the cover, the document's metadata, cells that wrap,
 * maps, and where a table meets the foot of a page: the flood components section lists the analyses, then the
 * exposure table. With one more analysis each time, the exposure table starts lower, through the
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
  gauges: [], datumCheck: null, gaugeCautions: [], inventory: { total: 0, by_category: {} }, exposure: { components: [], combos: [], analysed: 0, unknownElevation: 0, mapCellM: null, notes: [], governing: [] }, assets: [], maps: [],
  priorities: { total: 0, byCategory: {}, byLevel: {} }, fullListFiles: { workbook: 'monroe.xlsx', geoPackage: 'monroe.gpkg' },
  checklist: { rule_set: 's380093', label: 'statute', passed: 0, failed: 0, conditional: 0, contradictions: [], items: [] } as never,
});

describe('a table that reaches the foot of a page', () => {
  it('never leaves its header alone at the foot, and repeats it once at the top of each page it runs onto', async () => {
    const rowTexts = new Set(['2031', '2061']);
    const combo = (planning_horizon: number) => ({ scenario: 'high', planning_horizon, components: ['tidal'], exposed: 0, areas_km2: [1], highest_level_m: 1, map_km2: 1 });
    const exposure = { components: ['tidal'], analysed: 0, unknownElevation: 0, mapCellM: null, notes: [], governing: [], combos: [combo(2031), combo(2061)] };
    const headerAlonePages = new Set<number>();
    let continued = 0;
    for (let analyses = 24; analyses <= 60; analyses++) {
      const pages = pdfPages(await reportPdf({ ...input(analyses), exposure }));
      for (const page of pages) {
        const headers = page.texts.filter((run) => run.text === 'Components');
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
      if (pages.filter((page) => page.texts.some((run) => run.text === 'Components')).length > 1) continued++;
    }
    expect([...headerAlonePages]).toEqual([]);
    // Among these lengths, the table runs onto a second page, so the case was met.
    expect(continued).toBeGreaterThan(0);
  });
});

/** Widths of text as pdfkit sets it: a document of its own, never written. */
const measure = new PDFDocument();
const widthOf = (text: string, font: string, size: number) => measure.font(font).fontSize(size).widthOfString(text);
const PAGE_WIDTH = 612;

describe('the cover and the document\'s metadata', () => {
  it('centres the cover\'s lines on the page', async () => {
    const cover = pdfPages(await reportPdf(input(1)))[0]!;
    const lines: [string, string, number][] = [
      ['Vulnerability assessment', 'Helvetica-Bold', 22],
      ['Monroe County, Florida', 'Helvetica', 12],
      ['Assessment va_test (county, full jurisdiction), started 2026-01-05', 'Helvetica', 12],
      ['Generated 2026-11-23', 'Helvetica', 12],
    ];
    for (const [text, font, size] of lines) {
      const run = cover.texts.find((r) => r.text === text)!;
      expect(run).toBeDefined();
      expect(run.x + widthOf(text, font, size) / 2).toBeCloseTo(PAGE_WIDTH / 2, 0);
    }
    // The notice under them wraps, each of its lines centred (within a space: pdfkit counts a wrapped line's trailing space).
    const notice = cover.texts.filter((r) => r.size === 9);
    expect(notice.length).toBeGreaterThan(1);
    for (const run of notice) expect(Math.abs(run.x + widthOf(run.text.trimEnd(), 'Helvetica', 9) / 2 - PAGE_WIDTH / 2)).toBeLessThan(widthOf(' ', 'Helvetica', 9));
  });

  it('names its title and subject in the PDF\'s information dictionary', async () => {
    const raw = (await reportPdf(input(1))).toString('latin1');
    const entry = (key: string) => {
      const ref = new RegExp(`/${key} (\\d+) 0 R`).exec(raw);
      return ref ? new RegExp(`\\n${ref[1]} 0 obj\\n\\((.*)\\)\\nendobj`).exec(raw)?.[1] : undefined;
    };
    expect(entry('Title')).toBe('Vulnerability assessment');
    expect(entry('Subject')).toBe('Vulnerability assessment, s. 380.093 F.S.: Monroe County');
    expect(entry('Author')).toBe('Vulnerability Assessment Compliance API');
  });
});

describe('a table cell that wraps', () => {
  const long = 'Florida Department of Environmental Protection, Resilient Florida Program statewide vulnerability assessment data and guidance, revised edition with every appendix';
  // One-digit words, 32 to a line of the column: a line given a few points more room would take one more, and the
  // cell would be measured a line shorter.
  const digits = Array.from({ length: 114 }, (_, i) => String(i % 10)).join(' ');
  it('keeps each line within its column and the next row below its last line', async () => {
    const report = input(1);
    report.sources = [{ name: long, version: 'v1' }, { name: digits, version: 'v2' }, { name: 'SRTM', version: 'SRTM version 3' }];
    const page = pdfPages(await reportPdf(report)).find((p) => p.texts.some((r) => r.text === 'Version'))!;
    const header = page.texts.find((r) => r.text === 'Source')!;
    const next = page.texts.find((r) => r.text === 'SRTM')!;
    // The Source column is 220 pt wide from the margin; its text is set 2 pt in from each side.
    const lines = page.texts.filter((r) => r.baseline > header.baseline && r.baseline < next.baseline && r.x < 50 + 220);
    expect(lines.length).toBeGreaterThan(6);
    expect(lines.map((r) => r.text.trim()).join(' ')).toBe(`${long} ${digits}`);
    for (const line of lines) {
      expect(line.x).toBeCloseTo(52, 3);
      expect(widthOf(line.text.trimEnd(), 'Helvetica', 8)).toBeLessThanOrEqual(220 - 4);
    }
    expect(next.baseline).toBeGreaterThan(Math.max(...lines.map((r) => r.baseline)) + 8);
  });
});

describe('maps', () => {
  it('start under their section\'s heading, one to a page, across the text width, their words set over them', async () => {
    const report = input(1);
    const png = await new ResvgPngRenderer().render('<svg xmlns="http://www.w3.org/2000/svg" width="512" height="640"><rect width="512" height="640" fill="#8ab"/></svg>');
    const drawing = (title: string) => ({ width: 512, height: 640, svg: '', texts: [{ x: 0, y: 14, text: title, size: 11, bold: true, anchor: 'start' as const }, { x: 256, y: 320, text: 'Centre', size: 8, anchor: 'middle' as const }] });
    report.maps = ['Planning horizon 2046', 'Planning horizon 2076', 'Planning horizon 2101'].map((title) => ({ drawing: drawing(title), png }));
    const pages = pdfPages(await reportPdf(report));
    const heading = pages.findIndex((p) => p.texts.some((r) => r.text === '5. Maps' && r.size === 16));
    ['Planning horizon 2046', 'Planning horizon 2076', 'Planning horizon 2101'].forEach((title, i) => {
      const page = pages[heading + i]!;
      expect(page.images).toHaveLength(1);
      const [image, run] = [page.images[0]!, page.texts.find((r) => r.text === title)!];
      expect([image.x, image.width]).toEqual([50, 512]);
      expect(image.bottom - image.top).toBeCloseTo(640, 3);
      // The title's baseline 14 pt below the image's top; a centred run centred on the image.
      expect(run.baseline - image.top).toBeCloseTo(14, 0);
      const centre = page.texts.find((r) => r.text === 'Centre')!;
      expect(centre.x + widthOf('Centre', 'Helvetica', 8) / 2).toBeCloseTo(50 + 256, 1);
    });
  });
});

describe('the checklist page', () => {
  const item = (letter: string, status: 'verified' | 'contradicted' | 'attested', reason: string, detail: string) => ({
    item: letter, title: `Item ${letter}`, status: status === 'contradicted' ? 'fail' : 'pass', reason, evidence: { status, detail, contradictions: [] },
  });

  it('prints a contradicted item\'s evidence once (its reason quotes it) and every other item\'s reason and evidence', async () => {
    const detail = 'methodology.dem.source: claimed lidar; SRTM used.';
    const checklist = {
      rule_set: '2024', label: 'statute', passed: 1, failed: 1, conditional: 0, contradictions: [{}],
      items: [item('C', 'contradicted', `Contradicted by the API's evidence: ${detail}`, detail), item('E', 'verified', 'Tidal depth analysed.', 'The 1 linked analysis produced tidal flooding results.')],
    };
    const text = pdfText(await reportPdf({ ...input(1), checklist: checklist as never })).replace(/\s+/g, ' ');
    expect(text.split('claimed lidar').length - 1).toBe(1);
    expect(text).toContain('Item E: Tidal depth analysed. The 1 linked analysis produced tidal flooding results.');
  });
});

describe('the exposure summary table', () => {
  it('gives per scenario and horizon the components, the assets exposed and the inundated land in km² and acres', async () => {
    const exposure = {
      components: ['tidal', 'surge'], analysed: 1, unknownElevation: 0, mapCellM: 206, notes: [],
      governing: [{ component: 'surge' as const, assets: 3 }, { component: 'compound' as const, assets: 1 }],
      combos: [
        { scenario: 'intermediate', planning_horizon: 2046, components: ['surge', 'tidal'], exposed: 1, areas_km2: [0.1, 2], highest_level_m: 1.2, map_km2: 4.56789 },
        { scenario: 'high', planning_horizon: 2076, components: ['tidal'], exposed: 0, areas_km2: [0.1, null], highest_level_m: 1.2, map_km2: null },
      ],
    };
    const text = pdfText(await reportPdf({ ...input(1), exposure })).replace(/\s+/g, ' ');
    // 4.56789 km² × 247.105 acres/km² = 1,128.7 acres; four significant figures of km².
    expect(text).toContain('Scenario Horizon Components Assets exposed Inundated land (km\u00b2) Inundated land (acres) Intermediate 2046 surge (100-yr) + tidal 1 4.568 1,129 High 2076 tidal 0 \u0097 \u0097');
    expect(text).toContain('over the 2 scenario and horizon pair(s) above, the Governs column of section 7): surge governs 3 asset(s), compound governs 1 asset(s).');
    expect(text).toContain('traced on the analysis grid (206 m cells), measured in NAD83(HARN) / Florida GDL Albers (EPSG:3087)');
  });
});
