import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { startTestApp } from '../helpers/local-app';
import { pdfText } from '../helpers/pdf-text';
import { multipartBody } from '../fixtures/assets/multipart';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';
import { openSqlite } from '../helpers/sqlite';
import { gpkgPolygons, planarArea } from '../helpers/deliverable-readers';

/**
 * The analyst's path for Monroe County: import a real inventory (HIFLD hospitals and NCES public
 * schools of Monroe County), analyse flooding over the county with `apply_to_assets` linked to
 * the assessment, read the prioritized list, validate the assessment by id against the evidence.
 */

// HIFLD hospitals and NCES schools in WGS 84 (three Miami-Dade hospitals among them), and three more
// Monroe schools in Florida State Plane East, US feet (EPSG:2236), as county GIS exports come.
const FIXTURE = readFileSync(path.join(__dirname, '../fixtures/deliverables/monroe-critical-assets.csv'));
const STATE_PLANE = readFileSync(path.join(__dirname, '../fixtures/deliverables/monroe-schools-fl-east-ftus.csv'));
const csvRows = (file: Buffer) => file.toString('utf8').trim().split('\n').slice(1).map((line) => line.split(','));
const COUNTY_COLUMN = 5;
const OUTSIDE_ROWS = csvRows(FIXTURE).filter((row) => row[COUNTY_COLUMN] !== 'MONROE').length;
const STATE_PLANE_ROWS = csvRows(STATE_PLANE).length;
const FIXTURE_ROWS = csvRows(FIXTURE).length - OUTSIDE_ROWS + STATE_PLANE_ROWS;

// The vulnerability formula as README and DOMAIN §7 state it, written out here on its own.
const FULL_DEPTH_FT = 3;
const weightFor = (yearsAhead: number) => (yearsAhead <= 20 ? 1 : yearsAhead <= 50 ? 0.75 : 0.5);
const SENSITIVITY: Record<string, number> = { critical_infrastructure: 0.9, community_emergency: 0.9, transportation: 0.8, natural_cultural_historical: 0.5, unclassified: 0.7 };

describe('from inventory to evidence (Monroe County)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const key = () => app.keys.pro;
  let assessmentId: string;
  let analysis: any;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);

  afterAll(async () => {
    await app.stop();
  });

  it('imports the inventory and creates the assessment with an over-confident methodology', async () => {
    const { body, contentType } = await multipartBody({ file: { filename: 'monroe-critical-assets.csv', data: FIXTURE }, jurisdiction: 'Monroe County' });
    const imported = await app.request('POST', '/assets/import', { key: key(), body, headers: { 'Content-Type': contentType } });
    expect(imported.status).toBe(201);
    expect(OUTSIDE_ROWS).toBe(3);
    expect(imported.json.asset_count).toBe(FIXTURE_ROWS - STATE_PLANE_ROWS);
    expect(imported.json.validation.rejected).toBe(OUTSIDE_ROWS);
    expect(JSON.stringify(imported.json.validation.errors)).toContain('outside_jurisdiction');
    const statePlane = await multipartBody({ file: { filename: 'monroe-schools-fl-east-ftus.csv', data: STATE_PLANE }, jurisdiction: 'Monroe County', crs: 'EPSG:2236' });
    const projected = await app.request('POST', '/assets/import', { key: key(), body: statePlane.body, headers: { 'Content-Type': statePlane.contentType } });
    expect(projected.status).toBe(201);
    expect(projected.json.asset_count).toBe(STATE_PLANE_ROWS);

    // Claims a lidar DEM, 52 assets and a rainfall analysis: what the issue found passing unchecked.
    const methodology = compliantMethodology('2024', 2026) as any;
    methodology.critical_assets.asset_count = 52;
    const created = await app.request('POST', '/assessments', { key: key(), json: newAssessmentBody({ timeline: { start_date: '2026-01-15', target_completion_date: '2027-06-30' }, methodology }) });
    expect(created.status).toBe(201);
    assessmentId = created.json.assessment_id;
  });

  it('analyses the county, writes every asset\'s exposure in one request and links the analysis to the assessment', async () => {
    const res = await app.request('POST', '/hazards/flood-analysis', {
      key: key(),
      // Monroe has no bare-earth model bundled: the analysis accepts SRTM, a surface model.
      json: { jurisdiction: 'Monroe County', components: ['tidal', 'surge', 'rainfall'], scenarios: ['intermediate_low', 'intermediate'], planning_horizons: [2046, 2076], assessment_id: assessmentId, apply_to_assets: true, allow_surface_model: true },
    });
    let result = res.json;
    if (res.status === 202) {
      const deadline = Date.now() + 240_000;
      let job: any;
      do {
        await new Promise((resolve) => setTimeout(resolve, 500));
        // The local job runs in the server's process: a poll may fail while it computes.
        job = (await app.request('GET', new URL(res.headers.get('location')!).pathname.replace(/^\/api/, ''), { key: key() }).catch(() => ({ json: { status: 'running' } }))).json;
      } while (job.status !== 'succeeded' && job.status !== 'failed' && Date.now() < deadline);
      expect(job.status).toBe('succeeded');
      result = job.result;
    } else {
      expect(res.status).toBe(200);
    }
    analysis = result;
    expect(result.analysis_id).toMatch(/^fa_/);
    expect(result.assessment_id).toBe(assessmentId);
    expect(result.boundary.counties.map((c: { fips: string }) => c.fips)).toContain('12087');
    const applied = result.applied_to_assets;
    expect(applied.assets_written).toBe(result.assets.inside_boundary);
    expect(applied.exposed + applied.not_exposed + applied.unknown_elevation + applied.existing_water).toBe(applied.assets_written);
    expect(applied.assets_written).toBeGreaterThan(0);
  }, 300_000);

  it('stores depths per scenario × horizon that agree with the analysis, and the documented score', async () => {
    const listed = await app.request('GET', '/assets?jurisdiction=Monroe%20County&limit=100', { key: key() });
    const assets = listed.json.data.filter((a: any) => a.exposure);
    expect(assets.length).toBe(analysis.applied_to_assets.assets_written);
    const tidalByAsset = new Map<string, Map<string, number>>();
    for (const r of analysis.components.tidal.results) {
      for (const a of r.exposed_assets.assets) {
        if (!tidalByAsset.has(a.asset_id)) tidalByAsset.set(a.asset_id, new Map());
        tidalByAsset.get(a.asset_id)!.set(`${r.scenario}|${r.planning_horizon}`, a.depth.m);
      }
    }
    const year = new Date().getUTCFullYear();
    for (const asset of assets) {
      const { exposure, vulnerability } = asset;
      expect(exposure.depths).toHaveLength(4);
      for (const d of exposure.depths) {
        // The envelope is never below the tidal depth the analysis lists for the asset.
        const tidal = tidalByAsset.get(asset.asset_id)?.get(`${d.scenario}|${d.planning_horizon}`);
        if (tidal !== undefined) expect(d.depth_m).toBeGreaterThanOrEqual(tidal - 0.001);
        if (d.depth_m !== null && d.water_level_navd88_m !== null) expect(d.depth_m).toBeCloseTo(Math.max(0, d.water_level_navd88_m - exposure.ground_elevation_navd88_m), 2);
      }
      const exposedYears = exposure.depths.filter((d: any) => d.depth_m > 0).map((d: any) => d.planning_horizon);
      expect(exposure.first_exposed_year).toBe(exposedYears.length ? Math.min(...exposedYears) : null);
      if (exposure.status === 'unknown_elevation' || exposure.status === 'existing_water') {
        expect(exposure.depths.every((d: any) => d.depth_m === null)).toBe(true);
        continue;
      }
      const expectedExposure = Math.max(0, ...exposure.depths.map((d: any) => Math.min(1, d.depth_ft / FULL_DEPTH_FT) * weightFor(d.planning_horizon - year)));
      expect(vulnerability.exposure).toBeCloseTo(expectedExposure, 3);
      expect(vulnerability.sensitivity).toBe(SENSITIVITY[asset.category]);
      expect(vulnerability.vulnerability_score).toBeCloseTo(expectedExposure * SENSITIVITY[asset.category]!, 3);
      expect(vulnerability.first_exposed_year).toBe(exposure.first_exposed_year);
    }
  });

  it('lists the prioritized assets, highest score first, in pages', async () => {
    const first = await app.request('GET', '/assets?jurisdiction=Monroe%20County&sort=-vulnerability_score&limit=5', { key: key() });
    expect(first.status).toBe(200);
    const second = await app.request('GET', `/assets?jurisdiction=Monroe%20County&sort=-vulnerability_score&limit=100&cursor=${first.json.next_cursor}`, { key: key() });
    const all = [...first.json.data, ...second.json.data];
    expect(all).toHaveLength(FIXTURE_ROWS);
    const scores = all.map((a: any) => a.vulnerability?.vulnerability_score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const byName = await app.request('GET', '/assets?jurisdiction=Monroe%20County&sort=name&limit=100', { key: key() });
    const names = byName.json.data.map((a: any) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en')));
    const foreign = await app.request('GET', `/assets?jurisdiction=Monroe%20County&sort=name&limit=5&cursor=${first.json.next_cursor}`, { key: key() });
    expect(foreign.status).toBe(400);
  });

  it('validates the assessment by id, listing each contradiction of its methodology by item', async () => {
    const res = await app.request('POST', '/compliance/validate', { key: key(), json: { assessment_id: assessmentId } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ assessment_id: assessmentId, compliant: false, jurisdiction_id: 'county:12087' });
    const status = res.json.dep_checklist_status;
    const contradicted = new Set(status.contradictions.map((c: { item: string }) => c.item));
    expect(contradicted.has('B')).toBe(true);
    expect(status.contradictions.find((c: any) => c.item === 'B')).toMatchObject({ claimed: '52', found: expect.stringContaining(`holds ${FIXTURE_ROWS} assets`) });
    expect(contradicted.has('C')).toBe(true);
    expect(status.contradictions.find((c: any) => c.item === 'C').found).toMatch(/SRTM/);
    // No rainfall layer is loaded: the claimed rainfall analysis has no result behind it.
    expect(contradicted.has('H')).toBe(true);
    // It claims FEMA surge; the API's own surge for the county is its GEV fit to the gauges' annual maxima.
    expect(status.contradictions.find((c: any) => c.item === 'G')).toMatchObject({ claimed: 'fema', found: expect.stringContaining('(tide_gauge_gev)') });
    const items = Object.fromEntries(status.items.map((i: any) => [i.item, i]));
    expect(items.B).toMatchObject({ status: 'fail', evidence: { status: 'contradicted' } });
    // The methodology also claims the High scenario and 2100, which no linked analysis ran.
    expect(status.contradictions.find((c: any) => c.item === 'K').found).toMatch(/^high never analysed/);
    expect(status.contradictions.find((c: any) => c.item === 'L').found).toMatch(/^2100 never analysed/);
    expect(items.M.evidence.status).toBe('verified');
    expect(items.E.evidence.status).toBe('verified');
    expect(status.evidence_summary.analyses.map((a: any) => a.analysis_id)).toEqual([analysis.analysis_id]);

    const read = await app.request('GET', `/assessments/${assessmentId}`, { key: key() });
    expect(read.json.dep_checklist_status.contradictions).toEqual(status.contradictions);

    const both = await app.request('POST', '/compliance/validate', { key: key(), json: { assessment_id: assessmentId, jurisdiction: 'Monroe County' } });
    expect(both.status).toBe(400);
    const missing = await app.request('POST', '/compliance/validate', { key: key(), json: { assessment_id: 'va_00000000000000000000000000' } });
    expect(missing.status).toBe(404);
  });

  it('generates the deliverable package as a job, each file readable on its own', async () => {
    const started = await app.request('POST', `/assessments/${assessmentId}/deliverables`, { key: key() });
    expect(started.status).toBe(202);
    const location = started.headers.get('location')!;
    expect(location).toBe(`${app.baseUrl}/assessments/${assessmentId}/deliverables/${started.json.deliverable_id}`);
    let job = started.json;
    const deadline = Date.now() + 240_000;
    while (job.status !== 'succeeded' && job.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = (await app.request('GET', location.slice(app.baseUrl.length), { key: key() }).catch(() => ({ json: job }))).json;
    }
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    const kinds = job.files.map((f: any) => f.kind);
    expect(kinds).toEqual(expect.arrayContaining(['report_pdf', 'gis_package', 'asset_list_xlsx']));
    const download = async (file: any) => {
      const body = Buffer.from(await (await fetch(file.url)).arrayBuffer());
      expect(body.length).toBe(file.bytes);
      return body;
    };

    // The PDF: its own small reader inflates the content streams and decodes pdfkit's hex strings.
    const pdf = await download(job.files.find((f: any) => f.kind === 'report_pdf'));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const section of ['Executive summary', 'Study area', 'Critical asset inventory', 'Elevation data', 'Flood components and exposure', 'Maps', 'Datum, scenarios, horizons and tide gauges', 'Prioritized asset list', 'Checklist status with evidence', 'Data sources and versions']) {
      expect(text).toContain(section);
    }
    expect(text).toContain('DEPOO HOSPITAL');
    expect(text).toContain('NOAA 8724580 Key West');

    // The GeoPackage opens with SQLite and holds the five layers in EPSG:3087 with their metadata (rainfall
    // ponding and compound flooding empty here: no design storm was given).
    const dir = mkdtempSync(path.join(tmpdir(), 'gpkg-test-'));
    try {
      const file = path.join(dir, 'package.gpkg');
      writeFileSync(file, await download(job.files.find((f: any) => f.name.endsWith('.gpkg'))));
      const db = await openSqlite(file);
      const contents = db.prepare('SELECT table_name, data_type, srs_id FROM gpkg_contents ORDER BY table_name').all();
      expect(contents).toEqual([
        { table_name: 'assets', data_type: 'features', srs_id: 3087 },
        { table_name: 'boundary', data_type: 'features', srs_id: 3087 },
        { table_name: 'compound_flooding', data_type: 'features', srs_id: 3087 },
        { table_name: 'inundation', data_type: 'features', srs_id: 3087 },
        { table_name: 'rainfall_ponding', data_type: 'features', srs_id: 3087 },
      ]);
      expect((db.prepare('SELECT organization, organization_coordsys_id FROM gpkg_spatial_ref_sys WHERE srs_id = 3087').get())).toEqual({ organization: 'EPSG', organization_coordsys_id: 3087 });
      expect((db.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number }).n).toBe(FIXTURE_ROWS);
      const references = db.prepare('SELECT r.table_name, m.metadata FROM gpkg_metadata_reference r JOIN gpkg_metadata m ON m.id = r.md_file_id').all() as { table_name: string; metadata: string }[];
      expect(references.map((r) => r.table_name).sort()).toEqual(['assets', 'boundary', 'compound_flooding', 'inundation', 'rainfall_ponding']);
      expect(references.every((r) => r.metadata.includes('<metstdn>FGDC Content Standard for Digital Geospatial Metadata</metstdn>'))).toBe(true);
      // A point of the layer, read back from its GeoPackage binary, lies in Florida GDL Albers metres.
      const geom = (db.prepare('SELECT geom FROM assets LIMIT 1').get() as { geom: Buffer }).geom;
      const headerLength = 8 + [0, 32, 48, 48, 64][(geom[3]! >> 1) & 7]!;
      const x = geom.readDoubleLE(headerLength + 5);
      expect(x).toBeGreaterThan(400_000 + 150_000);
      expect(x).toBeLessThan(400_000 + 450_000);
      // Each pair's inundated land as printed equals its polygons' area in the layer (EPSG:3087 metres), to 0.5 %.
      const flat = text.replace(/\s+/g, ' ');
      const names: Record<string, string> = { intermediate_low: 'Intermediate-Low', intermediate: 'Intermediate' };
      const extents = db.prepare('SELECT SCENARIO, HORIZON, geom FROM inundation').all() as { SCENARIO: string; HORIZON: number; geom: Buffer }[];
      expect(extents.length).toBeGreaterThan(0);
      for (const extent of extents) {
        const printed = new RegExp(`${names[extent.SCENARIO]} ${extent.HORIZON} [a-z +()0-9-]+? (\\d+) ([\\d.]+) ([\\d,]+)`).exec(flat)!;
        expect(Math.abs(Number(printed[2]) / (planarArea(gpkgPolygons(extent.geom)) / 1e6) - 1)).toBeLessThan(0.005);
      }
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The zipped Shapefile of the assets passes this API's own GIS validation.
    const shp = job.files.find((f: any) => f.name.endsWith('-assets-epsg3087-shp.zip'));
    const { body, contentType } = await multipartBody({ file: { filename: shp.name, data: await download(shp) }, coordinate_system: 'EPSG:3087' });
    const validation = await app.request('POST', '/compliance/gis-validation', { key: key(), body, headers: { 'Content-Type': contentType } });
    expect(validation.status).toBe(200);
    expect(validation.json).toMatchObject({ valid: true, feature_count: FIXTURE_ROWS, crs: { detected_epsg: 3087 }, metadata: { standard: 'fgdc_csdgm', source: 'archive' } });

    // So does the GeoPackage's asset layer, named among the package's five.
    const gpkg = job.files.find((f: any) => f.name.endsWith('.gpkg'));
    const gpkgBytes = await download(gpkg);
    const unnamed = await multipartBody({ file: { filename: gpkg.name, data: gpkgBytes }, coordinate_system: 'EPSG:3087' });
    const ambiguous = await app.request('POST', '/compliance/gis-validation', { key: key(), body: unnamed.body, headers: { 'Content-Type': unnamed.contentType } });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json.reason).toBe('layer_not_chosen');
    expect(ambiguous.json.detail).toContain('assets, boundary, compound_flooding, inundation, rainfall_ponding');
    const named = await multipartBody({ file: { filename: gpkg.name, data: gpkgBytes }, coordinate_system: 'EPSG:3087', layer: 'assets' });
    const gpkgValidation = await app.request('POST', '/compliance/gis-validation', { key: key(), body: named.body, headers: { 'Content-Type': named.contentType } });
    expect(gpkgValidation.status).toBe(200);
    expect(gpkgValidation.json).toMatchObject({
      valid: true, format: 'geopackage', layer: 'assets', feature_count: FIXTURE_ROWS,
      crs: { detected_epsg: 3087, detected_from: 'gpkg_srs', dep_accepted: true }, metadata: { standard: 'fgdc_csdgm', source: 'archive' },
    });

    // The workbook's rows are the sorted prioritized list.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await download(job.files.find((f: any) => f.kind === 'asset_list_xlsx')) as never);
    const sheet = workbook.getWorksheet('Prioritized assets')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const idColumn = header.indexOf('ASSET_ID') + 1;
    const rows: string[] = [];
    sheet.eachRow((row, n) => { if (n > 1) rows.push(String(row.getCell(idColumn).value)); });
    const sorted = await app.request('GET', '/assets?jurisdiction=Monroe%20County&sort=-vulnerability_score&limit=100', { key: key() });
    expect(rows).toEqual(sorted.json.data.map((a: any) => a.asset_id));
  }, 300_000);

  it('refuses analysis requests it cannot honour before any work', async () => {
    const post = (json: unknown) => app.request('POST', '/hazards/flood-analysis', { key: key(), json });
    const square = { type: 'Polygon', coordinates: [[[-81.8, 24.54], [-81.75, 24.54], [-81.75, 24.58], [-81.8, 24.58], [-81.8, 24.54]]] };
    const both = await post({ boundary_geojson: square, jurisdiction: 'Monroe County' });
    expect(both.status).toBe(400);
    const neither = await post({ components: ['tidal'] });
    expect(neither.status).toBe(400);
    // A municipality is analysed over its own boundary now; a name that is no Florida place is refused.
    const nowhere = await post({ jurisdiction: 'Gotham City' });
    expect(nowhere.status).toBe(400);
    expect(nowhere.json.errors[0]).toMatchObject({ field: 'jurisdiction' });
    const unknown = await post({ boundary_geojson: square, assessment_id: 'va_00000000000000000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0]).toMatchObject({ field: 'assessment_id' });
    const foreign = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.enterprise, json: { boundary_geojson: square, assessment_id: assessmentId } });
    expect(foreign.status).toBe(400);
  });

  it('answers 404 for another account\'s deliverable and an unknown assessment', async () => {
    expect((await app.request('POST', '/assessments/va_00000000000000000000000000/deliverables', { key: key() })).status).toBe(404);
    expect((await app.request('GET', `/assessments/${assessmentId}/deliverables/dlv_AAAAAAAAAAAAAAAA`, { key: key() })).status).toBe(404);
    expect((await app.request('GET', `/assessments/${assessmentId}/deliverables/not-an-id`, { key: key() })).status).toBe(400);
  });
});
