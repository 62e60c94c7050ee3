import type { MultiPolygon, Polygon } from 'geojson';
import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { BlobStore } from '../../shared/ports';
import type { StoredAsset } from '../../shared/domain/assets/ports';
import type { ComplianceEvidence } from '../../shared/domain/compliance/evidence';
import { DELIVERABLE_LEASE_MS, type DeliverableFile, type DeliverableJob, type DeliverableStore } from '../../shared/domain/deliverables/jobs';
import type { AnalysisEvidence } from '../../shared/domain/deliverables/ports';
import { runDeliverableJob, type DeliverableWorkerDeps } from '../../shared/application/deliverables/build-package';
import { packageRenderers } from '../../shared/adapters/renderers/package-renderers';
import { compliantMethodology, storedAssessment } from '../helpers/assessment-fixtures';
import { pdfPages, pdfText, type PdfPage } from '../helpers/pdf-text';
import { strFromU8, unzipSync } from 'fflate';
import { open as openShapefile } from 'shapefile';
import initSqlJs from 'sql.js';
import { maskToMultiPolygon } from '../../shared/domain/hazards/inundation';
import { albers3087, gpkgPolygons, planarArea, xlsxSheet } from '../helpers/deliverable-readers';
import { evidenceDocumentKey } from '../../shared/domain/deliverables/analysis-link';
import type { ComponentExtent } from '../../shared/domain/hazards/inundation-extents';

/**
 * One deliverable build for Monroe County from in-memory stores: the files it stores and records,
 * the report's tables read back from the PDF, the prioritized list read back from the workbook,
 * and the clean-up when the lease is lost.
 */

const NOW = new Date('2026-11-23T15:00:00Z');

function asset(id: string, name: string, score: number | null, depths: [string, number, number][], overrides: Partial<StoredAsset> = {}): StoredAsset {
  const max = depths.length ? Math.max(...depths.map((d) => d[2])) : null;
  return {
    asset_id: id, jurisdiction_id: 'county:12087', name, category: 'community_emergency', asset_type: null, source_type: null,
    classification: { category: null, asset_type: null, rule: 'unclassified', matched_field: null, matched_text: null, ruleset_version: '1' } as never,
    lon: -81.78, lat: 24.55, geometry_type: 'Point', geometry: null, source_id: null, address: null, city: null, county: null, owner: null, attributes: {},
    content_hash: 'h', import_id: 'imp_1',
    vulnerability: score === null ? null : { vulnerability_score: score, first_exposed_year: 2046 } as never,
    vulnerability_level: score === null ? 'not_assessed' : score > 0.5 ? 'high' : 'low', impact_timeline: 'near_term',
    exposure: depths.length ? { status: 'exposed', depths: depths.map(([scenario, planning_horizon, depth_ft]) => ({ scenario, planning_horizon, depth_ft, depth_m: depth_ft * 0.3048 })), max_depth_ft: max, ground_elevation_navd88_m: 0.6, first_exposed_year: 2046 } as never : undefined,
    vulnerability_history: [], version: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...overrides,
  };
}

const ASSETS = [
  asset('a_low', 'Marathon Fire Station', 0.21, [['intermediate_low', 2046, 0], ['intermediate', 2076, 0.8]]),
  asset('a_high', 'Lower Keys Medical Center', 0.74, [['intermediate_low', 2046, 1.2], ['intermediate', 2076, 2.6]]),
  asset('a_none', 'Key West City Hall', null, []),
  asset('a_water', 'Pier House Dock', null, [], { exposure: { status: 'existing_water', depths: [], max_depth_ft: null, ground_elevation_navd88_m: null, first_exposed_year: null, reason: 'open_water' } as never }),
  asset('a_void', 'Big Pine Key Library', null, [], { exposure: { status: 'unknown_elevation', depths: [], max_depth_ft: null, ground_elevation_navd88_m: null, first_exposed_year: null, reason: 'outside_model' } as never }),
];

const ANALYSIS: AnalysisEvidence = {
  analysis_id: 'fa_1', assessment_id: 'va_test', analysed_at: '2026-11-20T10:00:00.000Z',
  boundary: { source: 'jurisdiction', jurisdiction_id: 'county:12087', area_km2: 3895, counties: ['Monroe'] },
  components: [{ component: 'tidal', status: 'ok' }], scenarios: ['intermediate', 'intermediate_low'], planning_horizons: [2076, 2046],
  elevation: { status: 'ok', source_name: 'NOAA OCM 2018 Florida Keys lidar DEM', native_resolution: '1 m', cell_size_m: 30 },
  gauges: ['8724580'], assets_inside: 4, assets_applied: 4, result_key: 'evidence/result.json', extents_key: 'evidence/extents.json',
  tidal_datum_check: { status: 'differs', note: 'NOAA station Boca Chica Marina (8724493), 7.6 km away, has MHHW -0.057 m NAVD88, 0.13 m below the 0.073 m taken from the sea level gauges.' },
  gauge_selection: { method: 'inverse_distance_two_gauges', reason: 'r', cautions: ['Vaca Key, FL is in another region.', 'The two gauges are more than 100 miles apart.'] },
};

const ANSWER = {
  sources: [{ name: 'NOAA 2022 Technical Report', version: 'TR NOS 01' }, { name: 'SRTM' }],
  gauge_selection: { gauges: [{ noaa_id: '8724580', name: 'Key West', weight: 0.6 }, { noaa_id: '8723970', name: 'Vaca Key', weight: 0.4 }, { noaa_id: '8725110', name: 'Naples' }] },
  components: {
    tidal: { results: [
      { scenario: 'intermediate_low', planning_horizon: 2046, sea_level_rise: { ft: 0.91 }, design_water_level_navd88: { m: 0.57, ft: 1.87 }, exposed_area: { km2: 1.2 }, tidal_flood_days_per_year: { by_gauge: [{ noaa_id: '8724580', days: 41.6 }, { noaa_id: '8723970', days: 12.3 }] } },
      { scenario: 'intermediate', planning_horizon: 2076, sea_level_rise: { ft: 2.13 }, design_water_level_navd88: { m: 0.95 }, exposed_area: { km2: 3.4 } },
      { scenario: 'intermediate', planning_horizon: 2046, design_water_level_navd88: { m: 0.6 }, exposed_area: { km2: 1.2 } },
      { scenario: 'intermediate_low', planning_horizon: 2076, design_water_level_navd88: { m: 0.8 }, exposed_area: { km2: 1.2 } },
    ] },
    // The 100-year event is the one the exposure uses; the 500-year rows are left aside.
    surge: { results: [
      { scenario: 'intermediate_low', planning_horizon: 2046, return_period_years: 500, design_water_level_navd88: { m: 1.6 }, exposed_area: { km2: 9.9 } },
      { scenario: 'intermediate_low', planning_horizon: 2046, return_period_years: 100, design_water_level_navd88: { m: 1.1 }, exposed_area: { km2: 5.5 } },
      { scenario: 'intermediate', planning_horizon: 2046, return_period_years: 100, design_water_level_navd88: { m: 1.2 }, exposed_area: { km2: 5.5 } },
      { scenario: 'intermediate_low', planning_horizon: 2076, return_period_years: 100, design_water_level_navd88: { m: 1.3 }, exposed_area: { km2: 5.5 } },
      { scenario: 'intermediate', planning_horizon: 2076, return_period_years: 100, design_water_level_navd88: { m: 1.9 }, exposed_area: { km2: 7.7 } },
    ] },
  },
  elevation: { cell_size_m: 206, native_resolution_areas: { cell_size_m: 30 }, height_steps: { step_m: 1, lowest_land_levels_navd88_m: [0.742, 1.742, 2.742] } },
};
const EXTENT = {
  scenario: 'intermediate', planning_horizon: 2076, components: ['tidal'], area_km2: 18.42, area_m2: 18_420_000,
  geometry: { type: 'MultiPolygon', coordinates: [[[[-81.80, 24.55], [-81.79, 24.55], [-81.79, 24.56], [-81.80, 24.55]]]] },
};

function world(options: { finishOk?: boolean; assessment?: Parameters<typeof storedAssessment>[0]; analyses?: AnalysisEvidence[]; assets?: StoredAsset[]; extents?: (typeof EXTENT)[]; componentExtents?: ComponentExtent[] } = {}) {
  const assets = options.assets ?? ASSETS;
  const objects = new Map<string, { body: Buffer; type: string }>();
  const deleted: string[] = [];
  const blobs: BlobStore = {
    async put(key, body, type) { objects.set(key, { body: Buffer.from(body), type }); },
    async get(key) { return objects.get(key)?.body; },
    async exists(key) { return objects.has(key); },
    async delete(key) { deleted.push(key); objects.delete(key); },
    async deleteMany(keys) { for (const key of keys) await this.delete(key); },
    async signedGetUrl(key) { return key; },
    async signedPutUrl(key) { return key; },
  };
  objects.set(ANALYSIS.result_key, { body: Buffer.from(JSON.stringify(ANSWER)), type: 'application/json' });
  objects.set(ANALYSIS.extents_key!, { body: Buffer.from(JSON.stringify(options.extents ?? [EXTENT])), type: 'application/json' });
  if (options.componentExtents) objects.set(evidenceDocumentKey('acct_1', 'va_test', ANALYSIS.analysis_id, 'component_extents'), { body: Buffer.from(JSON.stringify(options.componentExtents)), type: 'application/json' });
  const job: DeliverableJob = { deliverable_id: 'dlv_1', assessment_id: 'va_test', account_id: 'acct_1', status: 'running', created_at: NOW.toISOString(), updated_at: NOW.toISOString(), error: null, files: [], lease: { owner: 'w1', expires_at: new Date(NOW.getTime() + DELIVERABLE_LEASE_MS).toISOString(), attempt: 1 } };
  const outcomes: unknown[] = [];
  const pages: (string | undefined)[] = [];
  const filters: unknown[] = [];
  const jobs: DeliverableStore = {
    async open(j) { return j; }, async get() { return job; }, async listOpen() { return []; },
    async claim() { return job; },
    async finish(_ref, _owner, outcome) { outcomes.push(outcome); return options.finishOk ?? true; },
  };
  const evidence: ComplianceEvidence = { jurisdiction_id: 'county:12087', jurisdiction_name: 'Monroe County', assets: { total: 5, by_category: { community_emergency: 5 } }, analyses: options.analyses ?? [ANALYSIS] };
  const deps: DeliverableWorkerDeps = {
    jobs, blobs, clock: () => NOW, warn: () => {},
    renderers: packageRenderers(),
    assessments: { get: async (account, id) => (account === 'acct_1' && id === 'va_test' ? storedAssessment({ methodology: compliantMethodology('2024', 2026) as never, ...options.assessment }) : undefined) },
    // Two pages, so the build reads past the first.
    assets: { list: async (_a, filter, page) => { pages.push(page.cursor); filters.push(filter); return page.cursor ? { items: assets.slice(2), nextCursor: undefined } : { items: assets.slice(0, 2), nextCursor: 'p2' }; } },
    evidence: async () => evidence,
  };
  return { deps, objects, outcomes, pages, filters, deleted };
}

describe('a deliverable build', () => {
  // Built in each test, not once for the describe: mutation runs switch a mutant on per test.
  async function build() {
    const w = world();
    await runDeliverableJob(w.deps, { account_id: 'acct_1', assessment_id: 'va_test', deliverable_id: 'dlv_1' }, 'w1');
    return { built: w, files: (w.outcomes[0] as { files: DeliverableFile[] }).files };
  }

  /** A report whose prioritized list runs over several pages. */
  async function longReport() {
    const many = Array.from({ length: 90 }, (_, i) => asset(`a_${i}`, `Station ${String(i).padStart(2, '0')}`, 0.9 - i / 100, [['intermediate', 2076, 1]]));
    // Two inundation extents, a storm's ponding and a compound extent: five maps, more than one page holds.
    const storm = { return_period_years: 100, depth_mm: 330.2, duration_h: 24 };
    const componentExtents: ComponentExtent[] = [
      { component: 'rainfall', scenario: null, planning_horizon: null, storm, area_km2: 0.5, area_m2: 5e5, max_depth_m: 0.6, geometry: EXTENT.geometry as MultiPolygon },
      { component: 'compound', scenario: 'intermediate_high', planning_horizon: 2076, storm, area_km2: 0.5, area_m2: 5e5, max_depth_m: 1.6, geometry: EXTENT.geometry as MultiPolygon },
    ];
    const w = world({ assets: many, extents: [EXTENT, { ...EXTENT, scenario: 'intermediate_low', area_km2: 9.1, area_m2: 9_100_000 }], componentExtents });
    await runDeliverableJob(w.deps, { account_id: 'acct_1', assessment_id: 'va_test', deliverable_id: 'dlv_1' }, 'w1');
    return { many, pdf: w.objects.get((w.outcomes[0] as { files: DeliverableFile[] }).files[0]!.key)!.body };
  }

  it('stores and records the report, the GeoPackage, one Shapefile per non-empty layer, the workbook and the package README', async () => {
    const { built, files } = await build();
    expect(built.pages).toEqual([undefined, 'p2']);
    expect(built.filters).toEqual([{ jurisdictionId: 'county:12087' }, { jurisdictionId: 'county:12087' }]);
    expect(files.map((f) => [f.name, f.kind, f.content_type])).toEqual([
      ['monroe-county-vulnerability-assessment-report.pdf', 'report_pdf', 'application/pdf'],
      ['monroe-county-gis-epsg3087.gpkg', 'gis_package', 'application/geopackage+sqlite3'],
      ['monroe-county-boundary-epsg3087-shp.zip', 'gis_package', 'application/zip'],
      ['monroe-county-assets-epsg3087-shp.zip', 'gis_package', 'application/zip'],
      ['monroe-county-inundation-epsg3087-shp.zip', 'gis_package', 'application/zip'],
      ['monroe-county-prioritized-assets.xlsx', 'asset_list_xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['monroe-county-gis-readme.txt', 'gis_package', 'text/plain; charset=utf-8'],
    ]);
    for (const file of files) {
      const stored = built.objects.get(file.key)!;
      expect(file.key).toBe(`deliverables/acct_1/va_test/dlv_1/${file.name}`);
      expect(stored.type).toBe(file.content_type);
      expect(file.bytes).toBe(stored.body.length);
      expect(file.sha256).toBe(createHash('sha256').update(stored.body).digest('hex'));
    }
  });

  it('the report states the analyses, sources, gauge rows, exposure per scenario and horizon, and the asset priority', async () => {
    const { built, files } = await build();
    // Cells and wrapped lines come out one per line: read the text as one space-separated run.
    const text = pdfText(built.objects.get(files[0]!.key)!.body).replace(/\s+/g, ' ');
    const dash = '\u0097'; // pdfkit writes the em dash in WinAnsi
    expect(text).toContain('Assessment va_test (initial, full jurisdiction), started 2025-01-15');
    // Each section is listed in the contents and then opens with its heading, in the checklist's order.
    const headings = ['Executive summary', '1. Study area (checklist item A)', '2. Critical asset inventory (item B)', '3. Elevation data (item C)', '4. Flood components and exposure (items E to I)', '5. Maps',
      '6. Datum, scenarios, horizons and tide gauges (items J to M)', '7. Prioritized asset list (item N)', '8. Checklist status with evidence', 'Appendix. Data sources and versions'];
    for (const heading of headings) expect(text.split(heading)).toHaveLength(3);
    const opened = headings.map((heading) => text.indexOf(heading, text.indexOf(heading) + 1));
    expect(opened).toEqual([...opened].sort((a, b) => a - b));
    // The summary: the inventory, the pair with the most assets under water and its inundated land, and the list's top entries.
    expect(text).toContain('5 critical assets are held for Monroe County; 4 were analysed by 1 flood analysis(es) over 4 scenario and horizon pair(s). Most exposed: NOAA 2022 Intermediate, 2076, with 2 asset(s) under water');
    expect(text).toContain('The 5 highest entries of the prioritized list (section 7): # Asset Category Score Level First exposed Max depth (ft) Governs Why no depth 1 Lower Keys Medical Center');
    expect(text).toContain('fa_1 2026-11-20 county:12087 3895.00 Monroe 4');
    expect(text).toContain('DEM stated in the methodology: NOAA OCM 2018 Florida Keys lidar DEM (2018). The elevation each analysis read: Analysis Elevation model Native resolution Analysis cells Status fa_1 NOAA OCM 2018 Florida Keys lidar DEM 1 m 30 m ok');
    expect(text).toContain('fa_1 tidal (ok) intermediate, intermediate_low 2076, 2046');
    // Scenario rows per gauge: the 2046 row has every figure (each gauge its own flood days), the 2076 row dashes what the answer lacks.
    expect(text).toContain(`NOAA 8724580 Key West (weight 0.6) Scenario Horizon SLR at site (ft) Design level (ft NAVD88) Minor flood days/yr at gauge intermediate_low 2046 0.91 1.87 41.6 intermediate 2076 2.13 ${dash} ${dash}`);
    // A gauge the answer gives no weight is named without one.
    expect(text).toContain('Gauge caution: Vaca Key, FL is in another region. Gauge caution: The two gauges are more than 100 miles apart. Local tidal datum check (differs): NOAA station Boca Chica Marina (8724493), 7.6 km away, has MHHW -0.057 m NAVD88, 0.13 m below the 0.073 m taken from the sea level gauges.');
    expect(text).toContain(`NOAA 8725110 Naples Scenario Horizon SLR at site (ft) Design level (ft NAVD88) Minor flood days/yr at gauge intermediate_low 2046 0.91 1.87 ${dash}`);
    expect(text).toContain(`NOAA 8723970 Vaca Key (weight 0.4) Scenario Horizon SLR at site (ft) Design level (ft NAVD88) Minor flood days/yr at gauge intermediate_low 2046 0.91 1.87 12.3 intermediate 2076 2.13 ${dash} ${dash}`);
    // Exposure: assets deeper than 0 per scenario and horizon; the inundation layer's area only where one was traced.
    expect(text).toMatch(new RegExp(`Scenario Horizon Components Assets exposed Inundated land \\(km\u00b2\\) Inundated land \\(acres\\) Intermediate 2046 tidal \\+ surge \\(100-yr\\) 0 ${dash} ${dash} Intermediate-Low 2046 tidal \\+ surge \\(100-yr\\) 1 ${dash} ${dash} Intermediate 2076 tidal 2 [\\d.]+ [\\d,]+ Intermediate-Low 2076 tidal \\+ surge \\(100-yr\\) 0 ${dash} ${dash}`));
    expect(text).toContain("The exposed land is the same for intermediate 2046, intermediate-low 2046, intermediate-low 2076: their highest design water levels (1.10 m to 1.30 m NAVD88) all lie between two land heights of the elevation model (0.74 m and 1.74 m NAVD88).");
    // Each map titled with its scenario, horizon and components; legends name every layer and class.
    expect(text).toContain('Monroe County: critical assets by vulnerability level');
    expect(text).toContain('Inundation: NOAA 2022 Intermediate, 2076 Monroe County. Water: tidal, the highest level in each cell. Assets by their flood depth here.');
    for (const entry of ['Monroe County (jurisdiction boundary)', 'Neighbouring counties (Census)', 'Inundated land (tidal)', 'Largest Census places (2019 population)', 'Asset: Depth 1 to 3 ft', 'Asset: High vulnerability', 'Asset: No depth (reason in the list)']) expect(text).toContain(entry);
    // Priority: highest score first, unscored last, each asset without a depth with its reason; no
    // governing component where the analysis recorded none per component.
    expect(text).toContain(`1 Lower Keys Medical Center community emergency 0.740 high 2046 2.60 ${dash} 2 Marathon Fire Station community emergency 0.210 low 2046 0.80 ${dash} 3 Big Pine Key Library community emergency ${dash} not assessed ${dash} ${dash} ${dash} outside model 4 Key West City Hall community emergency ${dash} not assessed ${dash} ${dash} ${dash} 5 Pier House Dock community emergency ${dash} not assessed ${dash} ${dash} ${dash} open water`);
    expect(text).toMatch(/Rule set 2024 \(derived from s\. 380\.093; not DEP's form\)\. \d+ passed, \d+ failed, 0 conditional/);
    // The appendix: the answer's sources with their versions, the elevation model read and the map base's vintages.
    expect(text).toContain(`NOAA 2022 Technical Report TR NOS 01 ${dash} SRTM ${dash} ${dash} NOAA OCM 2018 Florida Keys lidar DEM native resolution 1 m`);
    expect(text).toContain('Vintage 2019 (July 1, 2019)');
  });

  it('keeps what it draws on the page, between the margins, without overlaps: text, table rules and maps', async () => {
    const { pdf } = await longReport();
    const pages = pdfPages(pdf);
    const [margin, width] = [50, 612];
    for (const page of pages) {
      for (const run of page.texts.filter((r) => r.text.trim())) {
        // A baseline below the top margin and above the bottom one; a run starting inside the side margins.
        expect(run.baseline).toBeGreaterThan(margin);
        expect(run.baseline).toBeLessThanOrEqual(page.height - margin);
        expect(run.x).toBeGreaterThanOrEqual(margin);
        expect(run.x).toBeLessThan(width - margin);
      }
      // Table rules span their table's columns, between the side margins.
      for (const rule of page.rules) expect([rule.x1, rule.x2 <= width - margin]).toEqual([margin, true]);
      for (const image of page.images) {
        expect([image.x, image.x + image.width <= width - margin, image.top >= margin, image.bottom <= page.height - margin]).toEqual([margin, true, true, true]);
        // Its title set over its top band, the heading (when on its page) above it.
        const title = page.texts.find((r) => r.baseline > image.top && r.baseline < image.top + 20)!;
        expect(title.text).toMatch(/^Monroe County: critical assets|^Inundation: NOAA 2022|^Rainfall ponding: 100-year|^Compound flooding: NOAA 2022 Intermediate-High, 2076/);
        for (const run of page.texts.filter((r) => r.baseline < image.top)) expect(run.text).toBe('5. Maps');
      }
      const images = [...page.images].sort((a, b) => a.top - b.top);
      images.slice(1).forEach((image, i) => expect(image.top).toBeGreaterThanOrEqual(images[i]!.bottom));
    }
    expect(pages.filter((p) => p.images.length > 0).map((p) => p.images.length)).toEqual([1, 1, 1, 1, 1]);
    // The prioritized list: one rule under each row, below the row's text and above the next row's.
    const listPages = pages.filter((p) => p.texts.some((r) => /^Station \d\d$/.test(r.text)));
    for (const page of listPages) {
      const rows = rowsOf(page);
      expect(rows.length).toBeGreaterThanOrEqual(10);
      const rules = page.rules.filter((rule) => rule.x1 === margin).map((rule) => rule.y).sort((a, b) => a - b);
      const tableRules = rules.filter((y) => y > rows[0]!.baseline - 10);
      rows.forEach((row, i) => {
        const under = tableRules.find((y) => y > row.baseline)!;
        expect(under).toBeDefined();
        if (rows[i + 1]) expect(under).toBeLessThan(rows[i + 1]!.baseline - rows[i + 1]!.size * 0.7);
      });
      // The cells of a row run left to right, each in its own column.
      for (const row of rows) expect(row.xs).toEqual([...row.xs].sort((a, b) => a - b));
    }
  });

  it('repeats a table\'s header, in the header\'s font, at the top of each page the table runs onto', async () => {
    const { many, pdf } = await longReport();
    // The pages holding rows of the prioritized list, from the one with its heading on (the summary repeats its top entries before).
    const raw = pdfPages(pdf);
    const heading = raw.findIndex((page) => page.texts.some((run) => run.text === '7. Prioritized asset list (item N)' && run.size === 16));
    const all = raw.map((page) => page.texts.map(({ text, font }) => ({ text, font })));
    const pages = all.slice(heading).filter((runs) => runs.some((run) => /^Station \d\d$/.test(run.text)));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    // The header as the first page draws it (cells wrap: "First " "exposed"), then the first row.
    const first = pages[0]!;
    const opens = first.findIndex((run) => run.text === '#');
    const header = first.slice(opens, first.findIndex((run) => run.text === 'Station 00') - 1);
    expect(first.findIndex((run) => run.text === '7. Prioritized asset list (item N)')).toBeLessThan(opens);
    expect(header.map((run) => run.text).join('').replace(/\s+/g, ' ')).toBe('#AssetCategoryScoreLevelFirst exposedMax depth (ft)GovernsWhy no depth');
    const rowFont = first.find((run) => run.text === 'Station 00')!.font;
    expect(header.every((run) => run.font === header[0]!.font && run.font !== rowFont)).toBe(true);
    pages.slice(1).forEach((runs) => {
      // A continued page opens with the same header, in the same font, once.
      expect(runs.slice(0, header.length)).toEqual(header);
      expect(runs.filter((run) => run.text === '#')).toHaveLength(1);
      expect(runs.filter((run) => /^Station \d\d$/.test(run.text)).every((run) => run.font === rowFont)).toBe(true);
    });
    // Every asset once, in priority order across the pages.
    expect(pages.flat().filter((run) => /^Station \d\d$/.test(run.text)).map((run) => run.text)).toEqual(many.map((a) => a.name));
  });

  it('the workbook lists the assets in priority order with their depths per scenario and horizon', async () => {
    const { built, files } = await build();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(built.objects.get(files[5]!.key)!.body as never);
    const sheet = workbook.getWorksheet('Prioritized assets')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(-6)).toEqual(['D_I_2046', 'D_IL_2046', 'D_I_2076', 'D_IL_2076', 'LAT', 'LON']);
    const rows = [2, 3, 4, 5, 6].map((r) => (sheet.getRow(r).values as unknown[]).slice(1));
    const col = (name: string) => header.indexOf(name);
    expect(rows.map((r) => r[col('NAME')])).toEqual(['Lower Keys Medical Center', 'Marathon Fire Station', 'Big Pine Key Library', 'Key West City Hall', 'Pier House Dock']);
    expect(rows.map((r) => r[col('PRIORITY')])).toEqual([1, 2, 3, 4, 5]);
    // Depths the analysis did not give stay empty.
    expect([rows[0]![col('D_IL_2046')], rows[0]![col('D_I_2076')], rows[0]![col('D_I_2046')] ?? null]).toEqual([1.2, 2.6, null]);
    expect([rows[0]![col('LAT')], rows[0]![col('LON')]]).toEqual([24.55, -81.78]);
    const about = workbook.getWorksheet('About')!;
    expect(about.getRow(1).getCell(1).value).toBe('Prioritized critical assets, Monroe County');
  });
});

describe('a municipality\'s build before any analysis', () => {
  it('is named after the city, drawn on its county\'s outline, reads the city\'s assets, and has no inundation layer', async () => {
    const city = { id: 'municipality:120287', type: 'municipality', display_name: 'City of Port St. Lucie', county_fips: '12111' };
    const w = world({ assessment: { jurisdiction: city } as never, analyses: [] });
    await runDeliverableJob(w.deps, { account_id: 'acct_1', assessment_id: 'va_test', deliverable_id: 'dlv_1' }, 'w1');
    const files = (w.outcomes[0] as { files: DeliverableFile[] }).files;
    expect(w.filters[0]).toEqual({ jurisdictionId: 'municipality:120287' });
    expect(files.map((f) => f.name)).toEqual([
      'city-of-port-st-lucie-vulnerability-assessment-report.pdf',
      'city-of-port-st-lucie-gis-epsg3087.gpkg',
      'city-of-port-st-lucie-boundary-epsg3087-shp.zip',
      'city-of-port-st-lucie-assets-epsg3087-shp.zip',
      'city-of-port-st-lucie-prioritized-assets.xlsx',
      'city-of-port-st-lucie-gis-readme.txt',
    ]);
    const zip = unzipSync(w.objects.get(files[2]!.key)!.body);
    const source = await openShapefile(Buffer.from(zip['boundary.shp']!), Buffer.from(zip['boundary.dbf']!));
    const { value } = await source.read();
    // The city's own Census place (1258715), in EPSG:3087 metres: smaller than St. Lucie County's 1,500 km² of land.
    expect(value.properties).toMatchObject({ NAME: 'City of Port St. Lucie' });
    const geometry = value.geometry as Polygon | MultiPolygon;
    const ring = (geometry.type === 'Polygon' ? geometry.coordinates[0] : geometry.coordinates[0]![0]) as number[][];
    const xs = ring.map((p) => p[0]!), ys = ring.map((p) => p[1]!);
    expect((Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys)) / 1e6).toBeLessThan(800);
    // Without an analysis the report has no gauge caution and no datum check to print.
    const text = pdfText(w.objects.get(files[0]!.key)!.body);
    expect(text).not.toContain('Gauge caution');
    expect(text).not.toContain('Local tidal datum check');
  }, 60_000);
});

describe('a build that cannot finish', () => {
  it('removes every stored file when the lease was lost, and records the failure', async () => {
    const w = world({ finishOk: false });
    await runDeliverableJob(w.deps, { account_id: 'acct_1', assessment_id: 'va_test', deliverable_id: 'dlv_1' }, 'w1');
    expect([...w.objects.keys()].filter((k) => k.startsWith('deliverables/'))).toEqual([]);
    // Exactly the seven files it stored, nothing else.
    expect(w.deleted).toHaveLength(7);
    expect(w.deleted.every((k) => k.startsWith('deliverables/acct_1/va_test/dlv_1/monroe-county-'))).toBe(true);
    expect(w.outcomes).toHaveLength(2);
    expect(w.outcomes[1]).toEqual({ error: { code: 'internal_error', detail: 'The deliverables could not be generated. Quote dlv_1 when reporting it.' } });
  }, 60_000);
});

/** Rows of the prioritized list on a page: the runs on one baseline that start with a rank number. */
function rowsOf(page: PdfPage) {
  const byBaseline = new Map<number, PdfPage['texts']>();
  for (const run of page.texts) byBaseline.set(run.baseline, [...(byBaseline.get(run.baseline) ?? []), run]);
  return [...byBaseline.entries()]
    .filter(([, runs]) => /^\d+$/.test(runs[0]!.text) && runs.some((r) => /^Station \d\d$/.test(r.text)))
    .map(([baseline, runs]) => ({ baseline, size: runs[0]!.size, xs: runs.map((r) => r.x) }))
    .sort((a, b) => a.baseline - b.baseline);
}

describe('the figures a report prints', () => {
  // Two scenario extents traced as the analysis traces them: strips, single cells and a hole, near Key West.
  const grid = { width: 24, height: 16, west: -81.81, north: 24.58, cellLon: 0.0009, cellLat: 0.0009, values: new Float32Array(24 * 16), verticalDatum: 'NAVD88', source: 'test' } as const;
  const traced = (flooded: (col: number, row: number) => boolean) => maskToMultiPolygon(grid as never, Uint8Array.from({ length: 24 * 16 }, (_, i) => Number(flooded(i % 24, Math.floor(i / 24)))));
  const lower = traced((c, r) => (c < 6 && r < 10) || (c === 12 && r === 3) || (c >= 15 && c <= 20 && r >= 8 && r <= 13 && !(c === 17 && r === 10)));
  const higher = traced((c, r) => (c < 10 && r < 14) || (c + r) % 7 === 0 || (c >= 14 && r >= 6 && !(c >= 17 && c <= 18 && r >= 9 && r <= 10)));
  // Areas as the analysis stored them (cell sums, unlike the polygons): the report must not print these.
  const extents = [
    { scenario: 'intermediate_low', planning_horizon: 2046, components: ['tidal'], area_km2: 57.79, area_m2: 57_790_000, geometry: lower },
    { scenario: 'intermediate', planning_horizon: 2076, components: ['tidal'], area_km2: 99.9, area_m2: 99_900_000, geometry: higher },
  ];
  const assets = [
    asset('f1', 'Stock Island Power Plant', 0.8, [['intermediate_low', 2046, 1.37], ['intermediate', 2076, 3.21], ['intermediate_low', 2076, 2], ['intermediate', 2046, 1.5]]),
    asset('f2', 'Key West Airport', 0.6, [['intermediate_low', 2046, 0], ['intermediate', 2076, 0.44], ['intermediate_low', 2076, 0], ['intermediate', 2046, 0.01]]),
    asset('f3', 'Truman Annex Substation', 0.3, [['intermediate_low', 2046, 0], ['intermediate', 2076, 0], ['intermediate_low', 2076, 0], ['intermediate', 2046, 0]]),
    asset('f4', 'Cudjoe Key Landfill', 0.7, [['intermediate_low', 2046, 0.29], ['intermediate', 2076, 6.08], ['intermediate_low', 2076, 0.9], ['intermediate', 2046, 0.3]]),
  ];

  /** The build's files, the report's text and its GeoPackage opened with sql.js. */
  async function delivered(w: ReturnType<typeof world>) {
    await runDeliverableJob(w.deps, { account_id: 'acct_1', assessment_id: 'va_test', deliverable_id: 'dlv_1' }, 'w1');
    const files = (w.outcomes[0] as { files: DeliverableFile[] }).files;
    const body = (suffix: string) => w.objects.get(files.find((f) => f.name.endsWith(suffix))!.key)!.body;
    const gpkg = new (await initSqlJs()).Database(body('.gpkg'));
    return { body, text: pdfText(body('report.pdf')).replace(/\s+/g, ' '), gpkg, rows: (sql: string) => gpkg.exec(sql)[0]!.values };
  }

  it('equal what the GeoPackage, the Shapefile and the workbook hold: areas in EPSG:3087 within 0.5 %, counts and depths', async () => {
    const { body, text, gpkg, rows } = await delivered(world({ assets, extents: extents as never }));
    const inundation = rows('SELECT SCENARIO, HORIZON, AREA_KM2, geom FROM inundation');
    const zipped = unzipSync(body('inundation-epsg3087-shp.zip'));
    const shp = await openShapefile(Buffer.from(Object.entries(zipped).find(([name]) => name.endsWith('.shp'))![1]));
    const dash = '\u0097';
    for (const extent of extents) {
      const row = inundation.find((r) => r[0] === extent.scenario && r[1] === extent.planning_horizon)!;
      // The layer's polygons measured in its own coordinates, and the same land projected by the test's own Albers.
      const fromLayer = planarArea(gpkgPolygons(row[3] as Uint8Array)) / 1e6;
      const fromLonLat = planarArea(extent.geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([lon, lat]) => albers3087(lon!, lat!))))) / 1e6;
      expect(Math.abs(fromLayer / fromLonLat - 1)).toBeLessThan(1e-4);
      expect(Math.abs((row[2] as number) / fromLayer - 1)).toBeLessThan(0.005);
      const shape = await shp.read();
      expect(Math.abs(planarArea((shape.value.geometry as MultiPolygon).coordinates) / 1e6 / fromLayer - 1)).toBeLessThan(1e-4);
      // The exposure table's row: assets with a depth above 0 in the asset layer, and the land in km² and acres.
      const field = `D_${extent.scenario === 'intermediate' ? 'I' : 'IL'}_${extent.planning_horizon}`;
      const exposed = rows(`SELECT COUNT(*) FROM assets WHERE "${field}" > 0`)[0]![0];
      const name = extent.scenario === 'intermediate' ? 'Intermediate' : 'Intermediate-Low';
      const printed = new RegExp(`${name} ${extent.planning_horizon} tidal (\\d+) ([\\d.]+) ([\\d,]+)`).exec(text)!;
      expect(Number(printed[1])).toBe(exposed);
      expect(Math.abs(Number(printed[2]) / fromLonLat - 1)).toBeLessThan(0.005);
      expect(Math.abs(Number(printed[3]!.replace(/,/g, '')) / (fromLonLat * 247.105381) - 1)).toBeLessThan(0.005);
      // Never the analysis's cell sums.
      expect(printed[2]).not.toBe(String(extent.area_km2));
    }
    // Pairs without a traced extent print no area.
    expect(text).toMatch(new RegExp(`Intermediate 2046 tidal \\+ surge \\(100-yr\\) 3 ${dash} ${dash}`));
    // The summary's most exposed pair and its land.
    const worst = /Most exposed: NOAA 2022 (\S+), (\d+), with (\d+) asset\(s\) under water and ([\d.]+) km/.exec(text)!;
    expect([worst[1], worst[2], worst[3]]).toEqual(['Intermediate', '2076', '3']);
    const row = inundation.find((r) => r[0] === 'intermediate' && r[1] === 2076)!;
    expect(Math.abs(Number(worst[4]) / (planarArea(gpkgPolygons(row[3] as Uint8Array)) / 1e6) - 1)).toBeLessThan(0.005);

    // Depths: each asset's maximum in the prioritized list equals MAX_DEP_FT of the layer and the workbook.
    const layer = new Map(rows('SELECT NAME, MAX_DEP_FT FROM assets').map((r) => [r[0] as string, r[1] as number]));
    const sheet = xlsxSheet(body('.xlsx'), 'Prioritized assets');
    const [nameCol, depthCol] = [sheet[0]!.indexOf('NAME'), sheet[0]!.indexOf('MAX_DEP_FT')];
    const list = text.slice(text.indexOf('7. Prioritized asset list (item N)', text.indexOf('7. Prioritized asset list (item N)') + 1));
    for (const [name, depth] of layer) {
      const printed = new RegExp(`\\d+ ${name} community emergency [\\d.]+ \\S+ \\d+ ([\\d.]+)`).exec(list)!;
      expect(Math.abs(Number(printed[1]) - depth)).toBeLessThanOrEqual(0.005);
      expect(sheet.find((r) => r[nameCol] === name)![depthCol]).toBe(depth);
    }
    gpkg.close();
  });

  it('map the rainfall ponding and compound flooding with the areas of their layers, and count the assets each component governs', async () => {
    const storm = { return_period_years: 100, depth_mm: 330.2, duration_h: 24 };
    // Areas as the analysis stored them (cell sums): the report must print the layers' EPSG:3087 areas instead.
    const componentExtents: ComponentExtent[] = [
      { component: 'rainfall', scenario: null, planning_horizon: null, storm, area_km2: 1, area_m2: 1e6, max_depth_m: 0.6, geometry: traced((c, r) => (c === 12 && r === 3) || (c >= 3 && c <= 5 && r >= 11 && r <= 14)) },
      { component: 'compound', scenario: 'intermediate_low', planning_horizon: 2046, storm, area_km2: 2, area_m2: 2e6, max_depth_m: 1.1, geometry: lower },
      { component: 'compound', scenario: 'intermediate', planning_horizon: 2076, storm, area_km2: 3, area_m2: 3e6, max_depth_m: 1.8, geometry: higher },
    ];
    const entry = (scenario: string, planning_horizon: number, depth_m: Record<string, number | null>, governing_component: string | null) => ({ scenario, planning_horizon, storm: null, depth_m, depth_ft: depth_m, governing_component });
    const governed = [
      // Deepest: compound 1.2 m in intermediate 2076.
      { ...assets[0]!, exposure: { ...assets[0]!.exposure!, by_component: [entry('intermediate_low', 2046, { tidal: 0.3, surge: 0.4, rainfall: 0.2, compound: 0.4 }, 'surge'), entry('intermediate', 2076, { tidal: 0.9, surge: 1, rainfall: 0.2, compound: 1.2 }, 'compound')] } },
      // Only ponding reaches it.
      { ...assets[1]!, exposure: { ...assets[1]!.exposure!, by_component: [entry('intermediate', 2076, { tidal: 0, surge: 0, rainfall: 0.1, compound: 0.1 }, 'rainfall')] } },
      ...assets.slice(2),
    ] as StoredAsset[];
    const { text, gpkg, rows } = await delivered(world({ assets: governed, extents: extents as never, componentExtents }));
    const projectedKm2 = (geometry: MultiPolygon) => planarArea(geometry.coordinates.map((p) => p.map((ring) => ring.map(([lon, lat]) => albers3087(lon!, lat!))))) / 1e6;

    const [ponding] = rows('SELECT AREA_KM2, geom FROM rainfall_ponding');
    const pondingPage = /Rainfall ponding: 100-year 24-hour storm \(330\.2 mm\) Monroe County\. Ponded land ([\d.]+) km\S* deepest 1\.97 ft \(layer rainfall_ponding\)/.exec(text);
    expect(pondingPage).not.toBeNull();
    const pondingKm2 = planarArea(gpkgPolygons(ponding![1] as Uint8Array)) / 1e6;
    expect(Math.abs(pondingKm2 / projectedKm2(componentExtents[0]!.geometry) - 1)).toBeLessThan(1e-4);
    expect(Math.abs(Number(pondingPage![1]) / pondingKm2 - 1)).toBeLessThan(0.0005);
    expect(Math.abs(Number(pondingPage![1]) / (ponding![0] as number) - 1)).toBeLessThan(0.0005);
    expect(text).toMatch(/Method: the storm.s runoff filled into the ground grid.s depressions by fill.spill.merge\. Screening level/);

    const compound = rows('SELECT SCENARIO, HORIZON, AREA_KM2, geom, MAX_DEP_FT FROM compound_flooding');
    expect(compound).toHaveLength(2);
    for (const [scenario, horizon, areaKm2, geom, maxDepthFt] of compound) {
      const name = scenario === 'intermediate' ? 'Intermediate' : 'Intermediate-Low';
      const page = new RegExp(`Compound flooding: NOAA 2022 ${name}, ${horizon}, 100-year 24-hour storm \\(330\\.2 mm\\) Monroe County\\. Wet land ([\\d.]+) km\\S* deepest ([\\d.]+) ft \\(layer compound_flooding\\)`).exec(text);
      expect(page).not.toBeNull();
      const layerKm2 = planarArea(gpkgPolygons(geom as Uint8Array)) / 1e6;
      const stored = componentExtents.find((e) => e.scenario === scenario && e.planning_horizon === horizon)!;
      expect(Math.abs(layerKm2 / projectedKm2(stored.geometry) - 1)).toBeLessThan(1e-4);
      expect(Math.abs(Number(page![1]) / layerKm2 - 1)).toBeLessThan(0.0005);
      expect(Math.abs(Number(page![1]) / (areaKm2 as number) - 1)).toBeLessThan(0.0005);
      expect(page![1]).not.toBe(String(stored.area_km2));
      expect(Math.abs(Number(page![2]) - (maxDepthFt as number))).toBeLessThanOrEqual(0.005);
      expect(Math.abs(Number(page![2]) - stored.max_depth_m / 0.3048)).toBeLessThanOrEqual(0.005);
    }
    expect(text).toContain('Compound flooding, depth above 0 (layer compound_flooding)');
    // f1 compound, f2 rainfall; f3 and f4 carry no per-component depths.
    expect(text).toContain('over the 4 scenario and horizon pair(s) above, the Governs column of section 7): rainfall governs 1 asset(s), compound governs 1 asset(s).');
    gpkg.close();
  });
});

describe('the package of a large inventory', () => {
  // More entries than the report prints (500), over several pages of the store.
  const COUNT = 1_200;
  const CATEGORIES = ['community_emergency', 'critical_infrastructure', 'transportation'] as const;
  // Distinct scores in an order unlike the store's: 7919 is prime, so i → i·7919 mod COUNT is a permutation.
  const scoreOf = (i: number) => ((i * 7919) % COUNT) / COUNT;
  const large = Array.from({ length: COUNT }, (_, i) => asset(`a_${i}`, `Station ${String(i).padStart(5, '0')}`, scoreOf(i), [['intermediate', 2076, 1]], { category: CATEGORIES[i % 3]! }));
  const expectedOrder = [...large].sort((a, b) => b.vulnerability!.vulnerability_score - a.vulnerability!.vulnerability_score).map((a) => a.asset_id);

  async function built() {
    const w = world({ assets: large });
    // Pages of 1,000, as the store pages the inventory.
    w.deps.assets = { list: async (_a, _filter, page) => {
      const start = page.cursor ? Number(page.cursor) : 0;
      const end = Math.min(start + page.limit, large.length);
      return { items: large.slice(start, end), nextCursor: end < large.length ? String(end) : undefined };
    } };
    await runDeliverableJob(w.deps, { account_id: 'acct_1', assessment_id: 'va_test', deliverable_id: 'dlv_1' }, 'w1');
    const files = (w.outcomes[0] as { files: DeliverableFile[] }).files;
    const body = (suffix: string) => w.objects.get(files.find((f) => f.name.endsWith(suffix))!.key)!.body;
    return { pdf: body('.pdf'), xlsx: body('.xlsx'), gpkg: body('.gpkg') };
  }

  it('keeps every asset, in priority order, in the workbook and the GeoPackage, and a summary in the report', async () => {
    const { pdf, xlsx, gpkg } = await built();

    // The workbook, read as XML: a header row and one row per asset.
    const sheet = strFromU8(unzipSync(xlsx)['xl/worksheets/sheet1.xml']!);
    expect(sheet.match(/<row /g)).toHaveLength(COUNT + 1);
    const rows = xlsxSheet(xlsx, 'Prioritized assets');
    const idColumn = rows[0]!.indexOf('ASSET_ID');
    expect(rows.slice(1).map((row) => row[idColumn])).toEqual(expectedOrder);
    expect(rows.slice(1).map((row) => row[rows[0]!.indexOf('PRIORITY')])).toEqual(expectedOrder.map((_, i) => i + 1));

    const SQL = await initSqlJs();
    const db = new SQL.Database(gpkg);
    expect(db.exec('SELECT ASSET_ID FROM assets ORDER BY fid')[0]!.values.map((r) => r[0])).toEqual(expectedOrder);
    db.close();

    const lines = pdfText(pdf).split('\n');
    // Runs joined, the spaces of wrapped lines collapsed.
    const text = lines.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('The prioritized list holds 1,200 assets: too many to print.');
    expect(text).toMatch(/The full list, every asset with its attributes, is in the workbook \(monroe-county-prioritized-assets\.xlsx\) and in the GIS layers/);
    // The list's head only: the 500th entry, not the 501st.
    const nameOf = (id: string) => large.find((a) => a.asset_id === id)!.name;
    expect(lines).toContain(nameOf(expectedOrder[499]!));
    expect(lines).not.toContain(nameOf(expectedOrder[500]!));
    // Counts per category and level (very high, high, moderate, low, not assessed, all): the fixture's levels are high above 0.5, else low.
    const counts = (category?: string) => {
      const of = large.filter((a) => !category || a.category === category);
      const high = of.filter((a) => a.vulnerability!.vulnerability_score > 0.5).length;
      return ['0', String(high), '0', String(of.length - high), '0', String(of.length)];
    };
    const section = lines.lastIndexOf('7. Prioritized asset list (item N)');
    const rowAfter = (label: string) => {
      const at = lines.indexOf(label, section);
      return lines.slice(at + 1, at + 7);
    };
    expect(rowAfter('community emergency')).toEqual(counts('community_emergency'));
    expect(rowAfter('transportation')).toEqual(counts('transportation'));
    expect(rowAfter('All categories')).toEqual(counts());
  }, 180_000);
});
