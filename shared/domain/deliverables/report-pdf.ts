import PDFDocument from 'pdfkit';
import type { ChecklistStatus } from '../../schemas/compliance';
import type { ExposureSummary } from './exposure-summary';
import { DESIGN_RETURN_PERIOD_YEARS } from '../hazards/vocabulary';
import type { AnalysisEvidence, DatumCheckNote } from './ports';
import { LEVEL_COLOURS } from './maps';

/**
 * The vulnerability assessment report (s. 380.093(3)(c)1, "a report of findings"): methodology
 * and sources with versions, maps, scenario tables per gauge, exposure summary, the prioritized
 * asset list and the checklist status with its evidence. Tables are drawn by hand with pdfkit.
 */
export const REPORT_SECTIONS = [
  '1. Methodology and data sources',
  '2. Maps',
  '3. Scenario tables per gauge',
  '4. Exposure summary',
  '5. Prioritized asset list',
  '6. Checklist status with evidence',
] as const;

export interface ReportMap {
  caption: string;
  png: Buffer;
}

export interface ReportAsset {
  priority: number;
  name: string;
  category: string;
  score: number | null;
  level: string;
  firstExposedYear: number | null;
  maxDepthFt: number | null;
  /** Why the asset has no depth (`not_connected`, `open_water`, …); null when it has one. */
  noDepthReason: string | null;
  /** The flood component governing its deepest flooding; null without per-component depths. */
  governingComponent: string | null;
}

export interface ScenarioRow {
  scenario: string;
  planning_horizon: number;
  sea_level_rise_ft: number | null;
  design_level_ft: number | null;
  flood_days: number | null;
}

export interface ReportInput {
  title: string;
  jurisdiction: string;
  generatedAt: string;
  assessment: { assessment_id: string; type: string; scope: string; start_date: string; status: string; vertical_datum: string | null; dem: string | null };
  analyses: AnalysisEvidence[];
  sources: { name: string; version?: string; url?: string }[];
  gauges: { noaa_id: string; name: string; weight: number | null; rows: ScenarioRow[] }[];
  /** The tidal component's local datum check of the latest analysis, when it has one. */
  datumCheck: DatumCheckNote | null;
  /** The cautions on the latest analysis's gauge choice (a gauge on another coast, the single-gauge exception open). */
  gaugeCautions: string[];
  exposure: ExposureSummary;
  assets: ReportAsset[];
  maps: ReportMap[];
  checklist: ChecklistStatus;
}

const MARGIN = 50;
const num = (value: number | null | undefined, digits = 2) => (value === null || value === undefined ? '—' : value.toFixed(digits));

/** The standard PDF fonts speak WinAnsi: no minus sign (U+2212) or other signs beyond it. */
const winAnsi = (text: string) => text.replace(/\u2212/g, '-').replace(/\u2192/g, '->').replace(/[\u2264]/g, '<=').replace(/[\u2265]/g, '>=');

class Writer {
  constructor(readonly doc: PDFKit.PDFDocument) {}

  heading(text: string) {
    this.doc.addPage();
    this.doc.font('Helvetica-Bold').fontSize(16).fillColor('#0b3d5c').text(text, MARGIN, MARGIN);
    this.doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('#000');
  }

  para(text: string) {
    this.doc.font('Helvetica').fontSize(10).fillColor('#000').text(winAnsi(text), { width: this.doc.page.width - 2 * MARGIN });
    this.doc.moveDown(0.4);
  }

  /**
   * A table with fixed column widths. The header repeats on each new page and never stands alone
   * at a page's foot: it starts the next page when its first row would not fit under it.
   */
  table(headers: string[], widths: number[], rows: (string | number)[][]) {
    const { doc } = this;
    const bottom = doc.page.height - MARGIN;
    const font = (bold: boolean) => doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    const heightOf = (cells: (string | number)[], bold: boolean) => Math.max(...cells.map((c, i) => font(bold).heightOfString(winAnsi(String(c)), { width: widths[i]! - 4 }))) + 4;
    const newPage = () => {
      doc.addPage();
      doc.y = MARGIN;
    };
    const draw = (cells: (string | number)[], bold: boolean, height: number) => {
      const y = doc.y;
      let x = MARGIN;
      cells.forEach((cell, i) => {
        font(bold).fillColor('#000').text(winAnsi(String(cell)), x + 2, y + 2, { width: widths[i]! - 4 });
        x += widths[i]!;
      });
      doc.moveTo(MARGIN, y + height).lineTo(x, y + height).strokeColor('#cccccc').lineWidth(0.5).stroke();
      doc.y = y + height;
    };
    const headerHeight = heightOf(headers, true);
    if (doc.y + headerHeight + (rows[0] ? heightOf(rows[0], false) : 0) > bottom) newPage();
    draw(headers, true, headerHeight);
    for (const cells of rows) {
      const height = heightOf(cells, false);
      if (doc.y + height > bottom) {
        newPage();
        draw(headers, true, headerHeight);
      }
      draw(cells, false, height);
    }
    doc.x = MARGIN;
    doc.moveDown(0.6);
  }
}

export function reportPdf(input: ReportInput): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, autoFirstPage: true, info: { Title: input.title, Author: 'Vulnerability Assessment Compliance API', Subject: `Vulnerability assessment, s. 380.093 F.S.: ${input.jurisdiction}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const w = new Writer(doc);

  doc.font('Helvetica-Bold').fontSize(22).fillColor('#0b3d5c').text(input.title, MARGIN, 160, { align: 'center' });
  doc.moveDown().font('Helvetica').fontSize(12).fillColor('#000').text(`${input.jurisdiction}, Florida`, { align: 'center' });
  doc.text(`Assessment ${input.assessment.assessment_id} (${input.assessment.type}, ${input.assessment.scope.replace('_', ' ')}), started ${input.assessment.start_date}`, { align: 'center' });
  doc.text(`Generated ${input.generatedAt}`, { align: 'center' });
  doc.moveDown(2).fontSize(9).fillColor('#444').text('Screening-level results from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination. The checklist is derived from s. 380.093; not DEP\'s form. This service does not transmit anything to DEP: the county files this report on DEP\'s portal.', { align: 'center' });
  doc.moveDown(2).fontSize(11).fillColor('#000').text('Contents', { align: 'left' });
  for (const section of REPORT_SECTIONS) doc.fontSize(10).text(section);

  w.heading(REPORT_SECTIONS[0]);
  w.para(`Flood analyses linked to this assessment: ${input.analyses.length}. Vertical datum: ${input.assessment.vertical_datum ?? 'not stated'} (analyses in NAVD88). DEM stated in the methodology: ${input.assessment.dem ?? 'not stated'}.`);
  w.table(['Analysis', 'Date', 'Components (status)', 'Scenarios', 'Horizons', 'Elevation'], [80, 60, 130, 90, 50, 102], input.analyses.map((a) => [
    a.analysis_id, a.analysed_at.slice(0, 10), a.components.map((c) => `${c.component} (${c.status})`).join(', '), a.scenarios.join(', '), a.planning_horizons.join(', '),
    `${a.elevation.source_name ?? 'none'}${a.elevation.cell_size_m ? `, ${a.elevation.cell_size_m} m cells` : ''}`,
  ]));
  w.para('Data sources and versions:');
  w.table(['Source', 'Version'], [250, 262], input.sources.map((s) => [s.name, s.version ?? '—']));
  w.para('Exposure: depth = highest design water level over the components analysed − ground (NAVD88), per NOAA 2022 scenario and planning horizon. Vulnerability = exposure × sensitivity × (1 − adaptive capacity), with exposure = max over scenarios and horizons of min(1, depth ft / 3) × horizon weight (1 within 20 years, 0.75 within 50, 0.5 beyond) and sensitivity defaulting by statute category.');

  w.heading(REPORT_SECTIONS[1]);
  w.para(`Base: county outlines (U.S. Census cartographic boundaries). Bold outline: ${input.jurisdiction}. Blue: inundated land. Dots: assets by vulnerability level (${Object.entries(LEVEL_COLOURS).map(([level, colour]) => `${level.replace('_', ' ')} ${colour}`).join(', ')}).`);
  input.maps.forEach((map, i) => {
    if (i > 0 && doc.y > doc.page.height - 360) doc.addPage();
    doc.font('Helvetica-Bold').fontSize(10).text(map.caption, MARGIN);
    doc.image(map.png, MARGIN, doc.y + 4, { width: 420 });
    doc.y += 290;
    doc.x = MARGIN;
  });

  w.heading(REPORT_SECTIONS[2]);
  w.para('Sea level rise at the site (NOAA 2022, median, feet since 2000, interpolated between the gauges), the tidal design water level (projected MHHW, feet NAVD88) and the projected minor high tide flood days per year at each gauge.');
  for (const gauge of input.gauges) {
    doc.font('Helvetica-Bold').fontSize(10).text(`NOAA ${gauge.noaa_id} ${gauge.name}${gauge.weight !== null ? ` (weight ${gauge.weight})` : ''}`, MARGIN);
    doc.moveDown(0.2);
    w.table(['Scenario', 'Horizon', 'SLR at site (ft)', 'Design level (ft NAVD88)', 'Minor flood days/yr at gauge'], [120, 60, 100, 110, 122], gauge.rows.map((r) => [
      r.scenario, r.planning_horizon, num(r.sea_level_rise_ft), num(r.design_level_ft), num(r.flood_days, 1),
    ]));
  }
  for (const caution of input.gaugeCautions) w.para(`Gauge caution: ${caution}`);
  if (input.datumCheck) w.para(`Local tidal datum check (${input.datumCheck.status.replace(/_/g, ' ')}): ${input.datumCheck.note}`);

  w.heading(REPORT_SECTIONS[3]);
  w.para(`${input.exposure.analysed} assets analysed; ${input.exposure.unknownElevation} without a usable ground elevation (no elevation data, or open water in the elevation model at the asset: survey their ground or first-floor elevation).`);
  const e = input.exposure;
  const areaColumns = e.components.map((component) => `${component === 'surge' || component === 'rainfall' ? `${component} ${DESIGN_RETURN_PERIOD_YEARS}-yr` : component} (km²)`);
  // The area columns and the map's share the 262 pt the first three columns leave of the 512 pt table.
  const areaWidth = Math.floor(262 / (e.components.length + 1));
  w.table(['Scenario', 'Horizon', 'Assets exposed', ...areaColumns, 'Map (km²)'], [120, 60, 70, ...e.components.map(() => areaWidth), 262 - areaWidth * e.components.length], e.combos.map((c) => [
    c.scenario, c.planning_horizon, c.exposed, ...c.areas_km2.map((a) => num(a)), num(c.map_km2),
  ]));
  const grid = e.mapCellM ? ` (${e.mapCellM} m cells)` : '';
  // As the analysis reads them: still-water levels at native resolution when it did, loaded layers on its grid.
  const areasAt = e.nativeCellM
    ? `still-water levels (tide, gauge surge statistics) at the elevation model's native resolution (${e.nativeCellM} m cells), loaded layers (rainfall, a loaded surge layer) on the analysis grid${grid}`
    : `on the analysis grid${grid}`;
  w.para(`Exposed land per component as the analysis answered it, ${areasAt}; land already below today's MHHW is left out. Map: the inundated land drawn in section 2, the highest level of the components in each cell, traced on the analysis grid${grid}${e.nativeCellM ? ', whose coarser cells miss narrow strips of land' : ''}.`);
  for (const note of e.notes) w.para(note);

  w.heading(REPORT_SECTIONS[4]);
  w.table(['#', 'Asset', 'Category', 'Score', 'Level', 'First exposed', 'Max depth (ft)', 'Governs', 'Why no depth'], [25, 105, 80, 40, 50, 45, 52, 50, 65], input.assets.map((a) => [
    a.priority, a.name, a.category, num(a.score, 3), a.level, a.firstExposedYear ?? '—', num(a.maxDepthFt), a.governingComponent ?? '—', a.noDepthReason?.replace(/_/g, ' ') ?? '',
  ]));

  w.heading(REPORT_SECTIONS[5]);
  const c = input.checklist;
  w.para(`Rule set ${c.rule_set} (${c.label}). ${c.passed} passed, ${c.failed} failed, ${c.conditional} conditional; ${c.contradictions.length} statement(s) contradicted by the API's evidence.`);
  w.table(['Item', 'Status', 'Evidence', 'Reason and evidence detail'], [30, 50, 65, 367], c.items.map((item) => [
    // A contradicted item's reason already quotes the evidence detail.
    `${item.item}`, item.status, item.evidence.status, `${item.title}: ${item.reason}${item.evidence.status === 'contradicted' ? '' : ` ${item.evidence.detail}`}`,
  ]));

  doc.end();
  return done;
}
