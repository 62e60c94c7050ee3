import PDFDocument from 'pdfkit';
import type { ChecklistStatus } from '../../schemas/compliance';
import type { ExposureSummary } from './exposure-summary';
import type { AnalysisEvidence, DatumCheckNote } from './ports';
import type { MapDrawing } from './maps';
import { componentsLabel, formatArea, scenarioName } from './report-maps';

/**
 * The vulnerability assessment report (s. 380.093(3)(c)1, "a report of findings"), its sections in
 * the order of the checklist's items (A study area, B assets, C elevation, E–I flood components,
 * J–M datum, scenarios, horizons and gauges, N the prioritized list), after an executive summary
 * and before an appendix of the data sources with their versions. Every area, count and depth
 * printed is the one the delivered layers and workbook hold. Tables are drawn by hand with pdfkit;
 * each section is one function.
 */
export const REPORT_SECTIONS = [
  'Executive summary',
  '1. Study area (checklist item A)',
  '2. Critical asset inventory (item B)',
  '3. Elevation data (item C)',
  '4. Flood components and exposure (items E to I)',
  '5. Maps',
  '6. Datum, scenarios, horizons and tide gauges (items J to M)',
  '7. Prioritized asset list (item N)',
  '8. Checklist status with evidence',
  'Appendix. Data sources and versions',
] as const;

/** Entries of the prioritized list the executive summary repeats. */
export const SUMMARY_TOP_ENTRIES = 10;

export interface ReportMap {
  /** The map's geometry (rendered to `png`) and the words the page sets over it. */
  drawing: MapDrawing;
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
  /** The assets held for the jurisdiction, by statute category (the checklist's evidence for item B). */
  inventory: { total: number; by_category: Record<string, number> };
  exposure: ExposureSummary;
  assets: ReportAsset[];
  maps: ReportMap[];
  checklist: ChecklistStatus;
}

const MARGIN = 50;
/** Helvetica's ascender: pdfkit sets a line's baseline this far below the y it is given. */
const BASELINE_EM = 0.718;
const ACRES_PER_KM2 = 247.105381;
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

  /** A map across the text width from `top`, its words set over it in the PDF's fonts. */
  map(map: ReportMap, top: number) {
    const { doc } = this;
    const scale = (doc.page.width - 2 * MARGIN) / map.drawing.width;
    doc.image(map.png, MARGIN, top, { width: map.drawing.width * scale });
    for (const run of map.drawing.texts) {
      const text = winAnsi(run.text);
      const size = run.size * scale;
      doc.font(run.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor('#111');
      const width = doc.widthOfString(text);
      const x = MARGIN + run.x * scale - (run.anchor === 'middle' ? width / 2 : run.anchor === 'end' ? width : 0);
      // The drawing places a run by its baseline, pdfkit by the top of its line.
      doc.text(text, x, top + run.y * scale - size * BASELINE_EM, { lineBreak: false });
    }
    doc.fillColor('#000');
    doc.x = MARGIN;
    doc.y = top + map.drawing.height * scale;
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

const label = (value: string) => value.replace(/_/g, ' ');

function cover(w: Writer, input: ReportInput) {
  const { doc } = w;
  doc.font('Helvetica-Bold').fontSize(22).fillColor('#0b3d5c').text(input.title, MARGIN, 160, { align: 'center' });
  doc.moveDown().font('Helvetica').fontSize(12).fillColor('#000').text(`${input.jurisdiction}, Florida`, { align: 'center' });
  doc.text(`Assessment ${input.assessment.assessment_id} (${input.assessment.type}, ${input.assessment.scope.replace('_', ' ')}), started ${input.assessment.start_date}`, { align: 'center' });
  doc.text(`Generated ${input.generatedAt}`, { align: 'center' });
  doc.moveDown(2).fontSize(9).fillColor('#444').text('Screening-level results from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination. The checklist is derived from s. 380.093; not DEP\'s form. This service does not transmit anything to DEP: the county files this report on DEP\'s portal.', { align: 'center' });
  doc.moveDown(2).fontSize(11).fillColor('#000').text('Contents', { align: 'left' });
  for (const section of REPORT_SECTIONS) doc.fontSize(10).text(section);
}

function executiveSummary(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[0]);
  const e = input.exposure;
  const worst = e.combos.reduce<ExposureSummary['combos'][number] | undefined>((best, c) => (!best || c.exposed > best.exposed || (c.exposed === best.exposed && (c.map_km2 ?? 0) > (best.map_km2 ?? 0)) ? c : best), undefined);
  w.para(`${input.inventory.total} critical assets are held for ${input.jurisdiction}; ${e.analysed} were analysed by ${input.analyses.length} flood analysis(es) over ${e.combos.length} scenario and horizon pair(s).`);
  if (worst) {
    w.para(`Most exposed: NOAA 2022 ${scenarioName(worst.scenario)}, ${worst.planning_horizon}, with ${worst.exposed} asset(s) under water and ${formatArea(worst.map_km2)} km² of land inundated (${componentsLabel(worst.components)}).`);
  }
  if (e.unknownElevation > 0) w.para(`${e.unknownElevation} asset(s) have no usable ground elevation: section 7 gives the reason for each.`);
  const c = input.checklist;
  w.para(`Checklist (${c.label}): ${c.passed} item(s) passed, ${c.failed} failed, ${c.conditional} conditional; ${c.contradictions.length} statement(s) contradicted by the evidence (section 8).`);
  const top = input.assets.slice(0, SUMMARY_TOP_ENTRIES);
  if (top.length > 0) {
    w.para(`The ${top.length} highest entries of the prioritized list (section 7):`);
    assetTable(w, top);
  }
}

function studyArea(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[1]);
  w.para(`Jurisdiction: ${input.jurisdiction} (${input.assessment.scope.replace('_', ' ')}). Flood analyses linked to this assessment: ${input.analyses.length}.`);
  w.table(['Analysis', 'Date', 'Boundary', 'Area (km²)', 'Counties', 'Assets inside'], [80, 60, 110, 60, 132, 70], input.analyses.map((a) => [
    a.analysis_id, a.analysed_at.slice(0, 10), a.boundary.jurisdiction_id ?? label(a.boundary.source), formatArea(a.boundary.area_km2), a.boundary.counties.join(', '), a.assets_inside,
  ]));
}

function inventory(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[2]);
  w.para(`${input.inventory.total} assets held for the jurisdiction, by the statute's categories (s. 380.093(2)(a)):`);
  w.table(['Category', 'Assets'], [300, 212], Object.entries(input.inventory.by_category).sort(([a], [b]) => a.localeCompare(b)).map(([category, count]) => [label(category), count]));
}

function elevation(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[3]);
  w.para(`DEM stated in the methodology: ${input.assessment.dem ?? 'not stated'}. The elevation each analysis read:`);
  w.table(['Analysis', 'Elevation model', 'Native resolution', 'Analysis cells', 'Status'], [80, 200, 80, 70, 82], input.analyses.map((a) => [
    a.analysis_id, a.elevation.source_name ?? 'none', a.elevation.native_resolution ?? '—', a.elevation.cell_size_m ? `${a.elevation.cell_size_m} m` : '—', a.elevation.status,
  ]));
}

function floodComponents(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[4]);
  w.table(['Analysis', 'Components (status, source)', 'Scenarios', 'Horizons'], [80, 242, 130, 60], input.analyses.map((a) => [
    a.analysis_id, a.components.map((c) => `${c.component} (${c.status}${c.source ? `, ${label(c.source)}` : ''})`).join('; '), a.scenarios.join(', '), a.planning_horizons.join(', '),
  ]));
  w.para('Exposure: depth = highest design water level over the components analysed − ground (NAVD88), per NOAA 2022 scenario and planning horizon. Vulnerability = exposure × sensitivity × (1 − adaptive capacity), with exposure = max over scenarios and horizons of min(1, depth ft / 3) × horizon weight (1 within 20 years, 0.75 within 50, 0.5 beyond) and sensitivity defaulting by statute category.');
  const e = input.exposure;
  w.table(['Scenario', 'Horizon', 'Components', 'Assets exposed', 'Inundated land (km²)', 'Inundated land (acres)'], [100, 50, 132, 70, 80, 80], e.combos.map((c) => [
    scenarioName(c.scenario), c.planning_horizon, componentsLabel(c.components), c.exposed, formatArea(c.map_km2), c.map_km2 === null ? '—' : Math.round(c.map_km2 * ACRES_PER_KM2).toLocaleString('en-US'),
  ]));
  const grid = e.mapCellM ? ` (${e.mapCellM} m cells)` : '';
  w.para(`Assets exposed: assets with a depth above 0 in the scenario and horizon (the depth columns of the GIS asset layer and the workbook). Inundated land: the polygons of the GIS inundation layer, the highest level of the components in each cell traced on the analysis grid${grid}, measured in NAD83(HARN) / Florida GDL Albers (EPSG:3087); land already below today's MHHW is left out.`);
  for (const note of e.notes) w.para(note);
  if (e.governing.length > 0) {
    const counts = e.governing.map((g) => `${g.component} governs ${g.assets} asset(s)`).join(', ');
    w.para(`Governing component (the one giving an asset its deepest flooding over the ${e.combos.length} scenario and horizon pair(s) above, the Governs column of section 7): ${counts}.`);
  }
}

function maps(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[5]);
  input.maps.forEach((map, i) => {
    if (i > 0) w.doc.addPage();
    w.map(map, i > 0 ? MARGIN : w.doc.y);
  });
}

function scenarios(w: Writer, input: ReportInput) {
  const { doc } = w;
  w.heading(REPORT_SECTIONS[6]);
  w.para(`Vertical datum: ${input.assessment.vertical_datum ?? 'not stated'} in the methodology; the analyses work in NAVD88. Sea level rise at the site (NOAA 2022, median, feet since 2000, interpolated between the gauges), the tidal design water level (projected MHHW, feet NAVD88) and the projected minor high tide flood days per year at each gauge.`);
  for (const gauge of input.gauges) {
    doc.font('Helvetica-Bold').fontSize(10).text(`NOAA ${gauge.noaa_id} ${gauge.name}${gauge.weight !== null ? ` (weight ${gauge.weight})` : ''}`, MARGIN);
    doc.moveDown(0.2);
    w.table(['Scenario', 'Horizon', 'SLR at site (ft)', 'Design level (ft NAVD88)', 'Minor flood days/yr at gauge'], [120, 60, 100, 110, 122], gauge.rows.map((r) => [
      r.scenario, r.planning_horizon, num(r.sea_level_rise_ft), num(r.design_level_ft), num(r.flood_days, 1),
    ]));
  }
  for (const caution of input.gaugeCautions) w.para(`Gauge caution: ${caution}`);
  if (input.datumCheck) w.para(`Local tidal datum check (${input.datumCheck.status.replace(/_/g, ' ')}): ${input.datumCheck.note}`);
}

/** The prioritized list's columns: the component governing the deepest flooding, and the reason where no depth is given. */
function assetTable(w: Writer, assets: readonly ReportAsset[]) {
  w.table(['#', 'Asset', 'Category', 'Score', 'Level', 'First exposed', 'Max depth (ft)', 'Governs', 'Why no depth'], [25, 110, 95, 36, 50, 40, 48, 46, 62], assets.map((a) => [
    a.priority, a.name, label(a.category), num(a.score, 3), label(a.level), a.firstExposedYear ?? '—', num(a.maxDepthFt), a.governingComponent ?? '—', a.noDepthReason ? label(a.noDepthReason) : '',
  ]));
}

function prioritizedList(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[7]);
  w.para('Highest vulnerability score first; then deepest, earliest exposed. Why no depth: not connected (no design water surface reaches it), open water (the elevation model marks its cell as water), outside model (no elevation and nothing surveyed), no bare earth (only a surface model covers it), above water level (reached, but its ground is higher).');
  assetTable(w, input.assets);
}

function checklist(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[8]);
  const c = input.checklist;
  w.para(`Rule set ${c.rule_set} (${c.label}). ${c.passed} passed, ${c.failed} failed, ${c.conditional} conditional; ${c.contradictions.length} statement(s) contradicted by the API's evidence.`);
  w.table(['Item', 'Status', 'Evidence', 'Reason and evidence detail'], [30, 50, 65, 367], c.items.map((item) => [
    // A contradicted item's reason already quotes the evidence detail.
    `${item.item}`, item.status, item.evidence.status, `${item.title}: ${item.reason}${item.evidence.status === 'contradicted' ? '' : ` ${item.evidence.detail}`}`,
  ]));
}

/** The map base's own data, beside the analysis's sources. */
const MAP_BASE_SOURCES = [
  { name: 'U.S. Census Bureau county boundaries, dissolved from the census tracts (CDC/ATSDR SVI 2018, Florida)', version: '2010 tract geography' },
  { name: 'U.S. Census Bureau incorporated places, cartographic boundaries 1:500,000', version: '2018' },
  { name: 'U.S. Census Bureau Annual Estimates of the Resident Population for Incorporated Places (SUB-IP-EST2019-ANNRES-12)', version: 'Vintage 2019 (July 1, 2019)' },
];

function sourcesAppendix(w: Writer, input: ReportInput) {
  w.heading(REPORT_SECTIONS[9]);
  w.para('Every dataset the analyses used, as their answers record it, then the elevation models read and the map base.');
  const elevationModels = [...new Map(input.analyses.filter((a) => a.elevation.source_name).map((a) => [a.elevation.source_name!, { name: a.elevation.source_name!, version: a.elevation.native_resolution ? `native resolution ${a.elevation.native_resolution}` : undefined }])).values()];
  w.table(['Source', 'Version', 'Address'], [220, 172, 120], [...input.sources, ...elevationModels, ...MAP_BASE_SOURCES].map((s) => [s.name, s.version ?? '—', 'url' in s && s.url ? s.url : '—']));
}

export function reportPdf(input: ReportInput): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, autoFirstPage: true, info: { Title: input.title, Author: 'Vulnerability Assessment Compliance API', Subject: `Vulnerability assessment, s. 380.093 F.S.: ${input.jurisdiction}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const w = new Writer(doc);
  for (const section of [cover, executiveSummary, studyArea, inventory, elevation, floodComponents, maps, scenarios, prioritizedList, checklist, sourcesAppendix]) section(w, input);
  doc.end();
  return done;
}
