import type { ChecklistStatus } from '../../schemas/compliance';
import type { ExposureSummary } from './exposure-summary';
import type { AnalysisEvidence, DatumCheckNote } from './ports';
import type { MapDrawing } from './maps';
import { componentsLabel, formatArea, scenarioName } from './report-maps';
import { VULNERABILITY_LEVELS, type PriorityCounts } from './priority-counts';

/**
 * The vulnerability assessment report (s. 380.093(3)(c)1, "a report of findings"), its sections in
 * the order of the checklist's items (A study area, B assets, C elevation, E–I flood components,
 * J–M datum, scenarios, horizons and gauges, N the prioritized list), after an executive summary
 * and before an appendix of the data sources with their versions. Every area, count and depth
 * printed is the one the delivered layers and workbook hold. The report is a sequence of blocks
 * (headings, paragraphs, tables, maps) that a renderer lays out on pages; each section is one function.
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
  assessment: {
    assessment_id: string;
    type: string;
    scope: string;
    start_date: string;
    status: string;
    vertical_datum: string | null;
    dem: string | null;
  };
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
  /** The head of the prioritized list, in priority order (all of it when the inventory is small). */
  assets: ReportAsset[];
  /** The whole list's counts per category and vulnerability level: the report lists its head only when the list is long. */
  priorities: PriorityCounts;
  /** The files holding the whole list (the workbook and the GIS package). */
  fullListFiles: { workbook: string; geoPackage: string };
  maps: ReportMap[];
  checklist: ChecklistStatus;
}

const ACRES_PER_KM2 = 247.105381;
const num = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);

export type ReportCell = string | number;

/** What goes on the report's pages, in order; the renderer chooses fonts and breaks pages. */
export type ReportBlock =
  | { type: 'cover'; title: string; lines: string[]; notice: string; contents: readonly string[] }
  /** Starts a page. */
  | { type: 'heading'; text: string }
  | { type: 'para'; text: string }
  /** A bold line naming the table under it. */
  | { type: 'label'; text: string }
  /** Fixed column widths in points (the text width is 512). */
  | { type: 'table'; headers: string[]; widths: number[]; rows: ReportCell[][] }
  /** Across the text width; `newPage`: on a page of its own. */
  | { type: 'map'; map: ReportMap; newPage: boolean };

export interface ReportDocument {
  title: string;
  author: string;
  subject: string;
  blocks: ReportBlock[];
}

/** Who publishes the package's files (the report's author, the layers' metadata). */
export const PUBLISHER = 'Vulnerability Assessment Compliance API';
const label = (value: string) => value.replace(/_/g, ' ');
const heading = (text: string): ReportBlock => ({ type: 'heading', text });
const para = (text: string): ReportBlock => ({ type: 'para', text });
const table = (headers: string[], widths: number[], rows: ReportCell[][]): ReportBlock => ({
  type: 'table',
  headers,
  widths,
  rows,
});

function cover(input: ReportInput): ReportBlock[] {
  return [
    {
      type: 'cover',
      title: input.title,
      lines: [
        `${input.jurisdiction}, Florida`,
        `Assessment ${input.assessment.assessment_id} (${input.assessment.type}, ${input.assessment.scope.replace('_', ' ')}), started ${input.assessment.start_date}`,
        `Generated ${input.generatedAt}`,
      ],
      notice:
        "Screening-level results from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination. The checklist is derived from s. 380.093; not DEP's form. This service does not transmit anything to DEP: the county files this report on DEP's portal.",
      contents: REPORT_SECTIONS,
    },
  ];
}

function executiveSummary(input: ReportInput): ReportBlock[] {
  const e = input.exposure;
  const worst = e.combos.reduce<ExposureSummary['combos'][number] | undefined>(
    (best, c) =>
      !best || c.exposed > best.exposed || (c.exposed === best.exposed && (c.map_km2 ?? 0) > (best.map_km2 ?? 0))
        ? c
        : best,
    undefined,
  );
  const c = input.checklist;
  const top = input.assets.slice(0, SUMMARY_TOP_ENTRIES);
  return [
    heading(REPORT_SECTIONS[0]),
    para(
      `${input.inventory.total} critical assets are held for ${input.jurisdiction}; ${e.analysed} were analysed by ${input.analyses.length} flood analysis(es) over ${e.combos.length} scenario and horizon pair(s).`,
    ),
    ...(worst
      ? [
          para(
            `Most exposed: NOAA 2022 ${scenarioName(worst.scenario)}, ${worst.planning_horizon}, with ${worst.exposed} asset(s) under water and ${formatArea(worst.map_km2)} km² of land inundated (${componentsLabel(worst.components)}).`,
          ),
        ]
      : []),
    ...(e.unknownElevation > 0
      ? [para(`${e.unknownElevation} asset(s) have no usable ground elevation: section 7 gives the reason for each.`)]
      : []),
    para(
      `Checklist (${c.label}): ${c.passed} item(s) passed, ${c.failed} failed, ${c.conditional} conditional; ${c.contradictions.length} statement(s) contradicted by the evidence (section 8).`,
    ),
    ...(top.length > 0
      ? [para(`The ${top.length} highest entries of the prioritized list (section 7):`), assetTable(top)]
      : []),
  ];
}

function studyArea(input: ReportInput): ReportBlock[] {
  return [
    heading(REPORT_SECTIONS[1]),
    para(
      `Jurisdiction: ${input.jurisdiction} (${input.assessment.scope.replace('_', ' ')}). Flood analyses linked to this assessment: ${input.analyses.length}.`,
    ),
    table(
      ['Analysis', 'Date', 'Boundary', 'Area (km²)', 'Counties', 'Assets inside'],
      [80, 60, 110, 60, 132, 70],
      input.analyses.map((a) => [
        a.analysis_id,
        a.analysed_at.slice(0, 10),
        a.boundary.jurisdiction_id ?? label(a.boundary.source),
        formatArea(a.boundary.area_km2),
        a.boundary.counties.join(', '),
        a.assets_inside,
      ]),
    ),
  ];
}

function inventory(input: ReportInput): ReportBlock[] {
  return [
    heading(REPORT_SECTIONS[2]),
    para(`${input.inventory.total} assets held for the jurisdiction, by the statute's categories (s. 380.093(2)(a)):`),
    table(
      ['Category', 'Assets'],
      [300, 212],
      Object.entries(input.inventory.by_category)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([category, count]) => [label(category), count]),
    ),
  ];
}

function elevation(input: ReportInput): ReportBlock[] {
  return [
    heading(REPORT_SECTIONS[3]),
    para(`DEM stated in the methodology: ${input.assessment.dem ?? 'not stated'}. The elevation each analysis read:`),
    table(
      ['Analysis', 'Elevation model', 'Native resolution', 'Analysis cells', 'Status'],
      [80, 200, 80, 70, 82],
      input.analyses.map((a) => [
        a.analysis_id,
        a.elevation.source_name ?? 'none',
        a.elevation.native_resolution ?? '—',
        a.elevation.cell_size_m ? `${a.elevation.cell_size_m} m` : '—',
        a.elevation.status,
      ]),
    ),
  ];
}

function floodComponents(input: ReportInput): ReportBlock[] {
  const e = input.exposure;
  const grid = e.mapCellM ? ` (${e.mapCellM} m cells)` : '';
  return [
    heading(REPORT_SECTIONS[4]),
    table(
      ['Analysis', 'Components (status, source)', 'Scenarios', 'Horizons'],
      [80, 242, 130, 60],
      input.analyses.map((a) => [
        a.analysis_id,
        a.components.map((c) => `${c.component} (${c.status}${c.source ? `, ${label(c.source)}` : ''})`).join('; '),
        a.scenarios.join(', '),
        a.planning_horizons.join(', '),
      ]),
    ),
    para(
      'Exposure: depth = highest design water level over the components analysed − ground (NAVD88), per NOAA 2022 scenario and planning horizon. Vulnerability = exposure × sensitivity × (1 − adaptive capacity), with exposure = max over scenarios and horizons of min(1, depth ft / 3) × horizon weight (1 within 20 years, 0.75 within 50, 0.5 beyond) and sensitivity defaulting by statute category.',
    ),
    table(
      ['Scenario', 'Horizon', 'Components', 'Assets exposed', 'Inundated land (km²)', 'Inundated land (acres)'],
      [100, 50, 132, 70, 80, 80],
      e.combos.map((c) => [
        scenarioName(c.scenario),
        c.planning_horizon,
        componentsLabel(c.components),
        c.exposed,
        formatArea(c.map_km2),
        c.map_km2 === null ? '—' : Math.round(c.map_km2 * ACRES_PER_KM2).toLocaleString('en-US'),
      ]),
    ),
    para(
      `Assets exposed: assets with a depth above 0 in the scenario and horizon (the depth columns of the GIS asset layer and the workbook). Inundated land: the polygons of the GIS inundation layer, the highest level of the components in each cell traced on the analysis grid${grid}, measured in NAD83(HARN) / Florida GDL Albers (EPSG:3087); land already below today's MHHW is left out.`,
    ),
    ...e.notes.map(para),
    ...(e.governing.length > 0
      ? [
          para(
            `Governing component (the one giving an asset its deepest flooding over the ${e.combos.length} scenario and horizon pair(s) above, the Governs column of section 7): ${e.governing.map((g) => `${g.component} governs ${g.assets} asset(s)`).join(', ')}.`,
          ),
        ]
      : []),
  ];
}

function maps(input: ReportInput): ReportBlock[] {
  return [
    heading(REPORT_SECTIONS[5]),
    ...input.maps.map((map, i): ReportBlock => ({ type: 'map', map, newPage: i > 0 })),
  ];
}

function scenarios(input: ReportInput): ReportBlock[] {
  return [
    heading(REPORT_SECTIONS[6]),
    para(
      `Vertical datum: ${input.assessment.vertical_datum ?? 'not stated'} in the methodology; the analyses work in NAVD88. Sea level rise at the site (NOAA 2022, median, feet since 2000, interpolated between the gauges), the tidal design water level (projected MHHW, feet NAVD88) and the projected minor high tide flood days per year at each gauge.`,
    ),
    ...input.gauges.flatMap((gauge): ReportBlock[] => [
      {
        type: 'label',
        text: `NOAA ${gauge.noaa_id} ${gauge.name}${gauge.weight !== null ? ` (weight ${gauge.weight})` : ''}`,
      },
      table(
        ['Scenario', 'Horizon', 'SLR at site (ft)', 'Design level (ft NAVD88)', 'Minor flood days/yr at gauge'],
        [120, 60, 100, 110, 122],
        gauge.rows.map((r) => [
          r.scenario,
          r.planning_horizon,
          num(r.sea_level_rise_ft),
          num(r.design_level_ft),
          num(r.flood_days, 1),
        ]),
      ),
    ]),
    ...input.gaugeCautions.map((caution) => para(`Gauge caution: ${caution}`)),
    ...(input.datumCheck
      ? [para(`Local tidal datum check (${input.datumCheck.status.replace(/_/g, ' ')}): ${input.datumCheck.note}`)]
      : []),
  ];
}

/** The prioritized list's columns: the component governing the deepest flooding, and the reason where no depth is given. */
function assetTable(assets: readonly ReportAsset[]): ReportBlock {
  return table(
    ['#', 'Asset', 'Category', 'Score', 'Level', 'First exposed', 'Max depth (ft)', 'Governs', 'Why no depth'],
    [25, 110, 95, 36, 50, 40, 48, 46, 62],
    assets.map((a) => [
      a.priority,
      a.name,
      label(a.category),
      num(a.score, 3),
      label(a.level),
      a.firstExposedYear ?? '—',
      num(a.maxDepthFt),
      a.governingComponent ?? '—',
      a.noDepthReason ? label(a.noDepthReason) : '',
    ]),
  );
}

/**
 * The list whole when it is short; when it is longer than REPORT_LISTED_ASSETS, its counts per
 * category and vulnerability level and its first entries, saying where the whole list is.
 */
function prioritizedList(input: ReportInput): ReportBlock[] {
  const { priorities } = input;
  const order = para(
    'Highest vulnerability score first; then deepest, earliest exposed. Why no depth: not connected (no design water surface reaches it), open water (the elevation model marks its cell as water), outside model (no elevation and nothing surveyed), no bare earth (only a surface model covers it), above water level (reached, but its ground is higher).',
  );
  if (priorities.total <= input.assets.length) return [heading(REPORT_SECTIONS[7]), order, assetTable(input.assets)];
  const categories = Object.keys(priorities.byCategory).sort((a, b) => a.localeCompare(b));
  const count = (levels: Record<string, number>) => [
    ...VULNERABILITY_LEVELS.map((level) => levels[level] ?? 0),
    Object.values(levels).reduce((sum, n) => sum + n, 0),
  ];
  return [
    heading(REPORT_SECTIONS[7]),
    para(
      `The prioritized list holds ${priorities.total.toLocaleString('en-US')} assets: too many to print. The full list, every asset with its attributes, is in the workbook (${input.fullListFiles.workbook}) and in the GIS layers (table assets of ${input.fullListFiles.geoPackage}, and its Shapefile). This section gives the list's counts per category and vulnerability level, then its ${input.assets.length} highest entries.`,
    ),
    table(
      ['Category', ...VULNERABILITY_LEVELS.map(label), 'All'],
      [142, 62, 62, 62, 62, 62, 60],
      [
        ...categories.map((category) => [label(category), ...count(priorities.byCategory[category]!)]),
        ['All categories', ...count(priorities.byLevel)],
      ],
    ),
    order,
    assetTable(input.assets),
  ];
}

function checklist(input: ReportInput): ReportBlock[] {
  const c = input.checklist;
  return [
    heading(REPORT_SECTIONS[8]),
    para(
      `Rule set ${c.rule_set} (${c.label}). ${c.passed} passed, ${c.failed} failed, ${c.conditional} conditional; ${c.contradictions.length} statement(s) contradicted by the API's evidence.`,
    ),
    table(
      ['Item', 'Status', 'Evidence', 'Reason and evidence detail'],
      [30, 50, 65, 367],
      c.items.map((item) => [
        // A contradicted item's reason already quotes the evidence detail.
        `${item.item}`,
        item.status,
        item.evidence.status,
        `${item.title}: ${item.reason}${item.evidence.status === 'contradicted' ? '' : ` ${item.evidence.detail}`}`,
      ]),
    ),
  ];
}

/** The map base's own data, beside the analysis's sources. */
const MAP_BASE_SOURCES = [
  {
    name: 'U.S. Census Bureau county boundaries, dissolved from the census tracts (CDC/ATSDR SVI 2018, Florida)',
    version: '2010 tract geography',
  },
  { name: 'U.S. Census Bureau incorporated places, cartographic boundaries 1:500,000', version: '2018' },
  {
    name: 'U.S. Census Bureau Annual Estimates of the Resident Population for Incorporated Places (SUB-IP-EST2019-ANNRES-12)',
    version: 'Vintage 2019 (July 1, 2019)',
  },
];

function sourcesAppendix(input: ReportInput): ReportBlock[] {
  const elevationModels = [
    ...new Map(
      input.analyses
        .filter((a) => a.elevation.source_name)
        .map((a) => [
          a.elevation.source_name!,
          {
            name: a.elevation.source_name!,
            version: a.elevation.native_resolution ? `native resolution ${a.elevation.native_resolution}` : undefined,
          },
        ]),
    ).values(),
  ];
  return [
    heading(REPORT_SECTIONS[9]),
    para(
      'Every dataset the analyses used, as their answers record it, then the elevation models read and the map base.',
    ),
    table(
      ['Source', 'Version', 'Address'],
      [220, 172, 120],
      [...input.sources, ...elevationModels, ...MAP_BASE_SOURCES].map((s) => [
        s.name,
        s.version ?? '—',
        'url' in s && s.url ? s.url : '—',
      ]),
    ),
  ];
}

export function reportDocument(input: ReportInput): ReportDocument {
  const sections = [
    cover,
    executiveSummary,
    studyArea,
    inventory,
    elevation,
    floodComponents,
    maps,
    scenarios,
    prioritizedList,
    checklist,
    sourcesAppendix,
  ];
  return {
    title: input.title,
    author: PUBLISHER,
    subject: `Vulnerability assessment, s. 380.093 F.S.: ${input.jurisdiction}`,
    blocks: sections.flatMap((section) => section(input)),
  };
}
