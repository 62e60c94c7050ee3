import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { open as openShapefile } from 'shapefile';
import { startTestApp } from '../helpers/local-app';
import { pdfText } from '../helpers/pdf-text';
import { openSqlite } from '../helpers/sqlite';
import { writeTiff } from '../helpers/tiff-writer';
import { albers3087, gpkgPolygons, planarArea, xlsxSheet } from '../helpers/deliverable-readers';
import { multipartBody } from '../fixtures/assets/multipart';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';

/**
 * From an uploaded GeoTIFF to the deliverable files, on an analytic ground in Pinellas County
 * (WGS 84, 120 × 60 posts of 0.0003° in longitude; rows spaced so the service's lon/lat lattice falls
 * on the posts):
 *   columns 0–14   sea at −2 m NAVD88;
 *   columns 15–72  a coastal slope, 0.3 m at column 15 rising 0.1 m a column to 6.0 m;
 *   columns 72–119 a plateau at 6.0 m, with a flat-floored pit of 11 × 11 posts (columns 90–100,
 *                  rows 25–35) at 5.7 m: 0.3 m deep, closed on every side by plateau ground.
 * A 330.2 mm (13 in) storm, all of it running off, overfills the pit even from the pit alone
 * (0.3302 m of runoff > 0.3 m of depth): it stands full at the plateau's 6.0 m, 0.3 m over the floor,
 * over exactly the pit's 121 cells. The slope asset stands on a post whose ground (0.3 + 0.1·(col − 15))
 * lies between today's MHHW and the tidal level of 2080, so its tidal depth is that level minus its
 * ground; the high asset stands on the plateau, dry in every component.
 */

const DX = 0.0003;
const WIDTH = 120;
const HEIGHT = 60;
const WEST_EDGE = -82.79;
const NORTH_EDGE = 27.935;
const PLATEAU = 6.0;
const FLOOR = 5.7;
const PIT = { col: 95, row: 30, half: 5 };
const STORM = { depth_mm: 330.2, duration_h: 24, return_period_years: 100, source: 'Stated for the test (an all-runoff 13-inch storm)' };
const SCENARIO = 'intermediate';
const YEAR = 2080;
const M_PER_FT = 0.3048;

// The service resamples a model onto a lon/lat lattice whose rows are `dx · cos(latitude of the central
// posts)` apart: rows spaced so, the lattice's cells are the posts and its values the posts' own.
const MID_ROW = Math.floor((HEIGHT - 1) / 2);
let DY = DX;
for (let i = 0; i < 4; i++) DY = DX * Math.cos(((NORTH_EDGE - DY / 2 - MID_ROW * DY) * Math.PI) / 180);
const lonOf = (col: number) => WEST_EDGE + (col + 0.5) * DX;
const latOf = (row: number) => NORTH_EDGE - (row + 0.5) * DY;
const inPit = (row: number, col: number) => Math.abs(row - PIT.row) <= PIT.half && Math.abs(col - PIT.col) <= PIT.half;
const ground = (row: number, col: number) => (col < 15 ? -2 : inPit(row, col) ? FLOOR : Math.min(PLATEAU, 0.3 + 0.1 * (col - 15)));
const slopeColumnAt = (elevation: number) => 15 + (elevation - 0.3) / 0.1;

/** A cell's area on the sphere (mean Earth radius): its band between two parallels times its share of the circle. */
function cellAreaM2(row: number): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const lat = latOf(row);
  return R * R * DX * rad * (Math.sin((lat + DY / 2) * rad) - Math.sin((lat - DY / 2) * rad));
}
const PIT_AREA_M2 = Array.from({ length: 2 * PIT.half + 1 }, (_, i) => cellAreaM2(PIT.row - PIT.half + i)).reduce((a, b) => a + b, 0) * (2 * PIT.half + 1);

describe('rainfall ponding and compound flooding, from an uploaded GeoTIFF to the deliverable files', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const key = () => app.keys.pro;
  const boundary = {
    type: 'Polygon',
    coordinates: [[[lonOf(2), latOf(HEIGHT - 3)], [lonOf(WIDTH - 3), latOf(HEIGHT - 3)], [lonOf(WIDTH - 3), latOf(2)], [lonOf(2), latOf(2)], [lonOf(2), latOf(HEIGHT - 3)]]],
  };
  let slope: { row: number; col: number; ground: number; tidalLevel: number };
  let analysis: any;
  let assessmentId: string;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);
  afterAll(async () => {
    await app.stop();
  });

  it('takes the GeoTIFF as the account\'s elevation model', async () => {
    const tiff = writeTiff({ width: WIDTH, height: HEIGHT, epsg: 4326, origin: [WEST_EDGE, NORTH_EDGE], cellSize: [DX, DY], value: ground, compression: 'deflate' });
    const created = await app.request('POST', '/hazards/elevation-models', { key: key(), json: { name: 'Analytic coast with a pit', vertical_datum: 'NAVD88', units: 'm' } });
    expect(created.status).toBe(201);
    expect((await fetch(created.json.upload_url, { method: 'PUT', body: tiff })).status).toBe(200);
    let model: any;
    for (let i = 0; i < 240 && !['ready', 'failed'].includes(model?.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      model = (await app.request('GET', `/hazards/elevation-models/${created.json.elevation_model_id}`, { key: key() })).json;
    }
    expect(model).toMatchObject({ status: 'ready', error: null });
  }, 90_000);

  it('places the slope asset between today\'s MHHW and the projected tidal level, from a first analysis', async () => {
    const res = await app.request('POST', '/hazards/flood-analysis', { key: key(), json: { boundary_geojson: boundary, components: ['tidal'], scenarios: [SCENARIO], planning_horizons: [YEAR] } });
    expect(res.status).toBe(200);
    const result = res.json.components.tidal.results[0];
    const today = result.existing_water.today_mhhw_navd88.m;
    const level = result.design_water_level_navd88.m;
    expect(level - today).toBeGreaterThan(0.3);
    const col = Math.round(slopeColumnAt((today + level) / 2));
    slope = { row: 10, col, ground: ground(10, col), tidalLevel: level };
    expect(slope.ground).toBeGreaterThan(today);
    expect(slope.ground).toBeLessThan(level);
  }, 120_000);

  it('analyses all four components with the storm, applied to the assets and linked to the assessment', async () => {
    const csv = ['SOURCE_ID,NAME,TYPE,LATITUDE,LONGITUDE',
      `P1,Pit Lift Station,WASTEWATER LIFT STATION,${latOf(PIT.row)},${lonOf(PIT.col)}`,
      `S1,Slope Road,ROAD,${latOf(slope.row)},${lonOf(slope.col)}`,
      `H1,Hill Fire Station,FIRE STATION,${latOf(10)},${lonOf(110)}`].join('\n');
    const { body, contentType } = await multipartBody({ file: { filename: 'analytic-assets.csv', data: csv }, jurisdiction: 'Pinellas County' });
    const imported = await app.request('POST', '/assets/import', { key: key(), body, headers: { 'Content-Type': contentType } });
    expect(imported.status).toBe(201);
    expect(imported.json.asset_count).toBe(3);
    const created = await app.request('POST', '/assessments', { key: key(), json: newAssessmentBody({ jurisdiction: 'Pinellas County', methodology: compliantMethodology('2024', 2026) }) });
    expect(created.status).toBe(201);
    assessmentId = created.json.assessment_id;

    const res = await app.request('POST', '/hazards/flood-analysis', {
      key: key(),
      json: { boundary_geojson: boundary, components: ['tidal', 'surge', 'rainfall', 'compound'], scenarios: [SCENARIO], planning_horizons: [YEAR], rainfall: STORM, apply_to_assets: true, assessment_id: assessmentId, include_extents: true },
    });
    expect(res.status).toBe(200);
    analysis = res.json;
    expect(analysis.applied_to_assets.assets_written).toBe(3);
    const rainfall = analysis.components.rainfall;
    expect(rainfall.status).toBe('computed');
    // The pit alone holds 0.3 m × its area; the runoff over it alone is 0.3302 m: full, spilling.
    expect(rainfall.max_depth.m).toBeCloseTo(PLATEAU - FLOOR, 3);
    const pitLake = rainfall.depressions.find((d: any) => Math.abs(d.lowest_point.ground_navd88.m - FLOOR) < 1e-3);
    expect(pitLake).toMatchObject({ status: 'spilling' });
    expect(pitLake.water_surface_navd88.m).toBeCloseTo(PLATEAU, 3);
    expect(pitLake.capacity_m3 / (PIT_AREA_M2 * (PLATEAU - FLOOR)) - 1).toBeCloseTo(0, 2);
  }, 180_000);

  it('writes the depths by component the analytic ground gives onto the assets', async () => {
    const listed = await app.request('GET', '/assets?jurisdiction=Pinellas%20County&limit=10', { key: key() });
    const byName = new Map<string, any>(listed.json.data.map((a: any) => [a.name, a]));
    const components = (name: string) => byName.get(name).exposure.by_component.find((e: any) => e.scenario === SCENARIO && e.planning_horizon === YEAR);
    const pit = components('Pit Lift Station');
    expect(pit.depth_m.rainfall).toBeCloseTo(PLATEAU - FLOOR, 3);
    expect(pit.depth_m.tidal).toBe(0);
    expect(pit.governing_component).toBe('rainfall');
    // The ponding is the pit's flooding: its depth for the scenario, its status, deepest depth and score.
    const pitExposure = byName.get('Pit Lift Station').exposure;
    expect(pitExposure.depths.find((d: any) => d.scenario === SCENARIO && d.planning_horizon === YEAR)).toMatchObject({ governing_component: 'rainfall', water_level_navd88_m: PLATEAU });
    expect(pitExposure).toMatchObject({ status: 'exposed', first_exposed_year: YEAR });
    expect(pitExposure.max_depth_ft).toBeCloseTo((PLATEAU - FLOOR) / M_PER_FT, 2);
    expect(byName.get('Pit Lift Station').vulnerability.exposure).toBeGreaterThan(0);
    const road = components('Slope Road');
    expect(byName.get('Slope Road').exposure.ground_elevation_navd88_m).toBeCloseTo(slope.ground, 3);
    expect(road.depth_m.tidal).toBeCloseTo(slope.tidalLevel - slope.ground, 3);
    expect(road.depth_m.rainfall).toBe(0);
    const hill = components('Hill Fire Station');
    expect([hill.depth_m.tidal, hill.depth_m.surge, hill.depth_m.rainfall, hill.depth_m.compound]).toEqual([0, 0, 0, 0]);
  });

  it('maps the pit as the storm\'s ponding, and compound flooding, in the answer', () => {
    const extents = analysis.component_extents as any[];
    const ponding = extents.filter((e) => e.component === 'rainfall');
    expect(ponding).toHaveLength(1);
    expect(ponding[0]).toMatchObject({ scenario: null, planning_horizon: null, storm: { return_period_years: 100, depth_mm: 330.2, duration_h: 24 } });
    expect(ponding[0].max_depth_m).toBeCloseTo(PLATEAU - FLOOR, 3);
    // The lattice falls on the posts: the ponded cells are the pit's 121, within the 0.5 % between the
    // service's cell areas and the spherical ones here.
    expect(Math.abs(ponding[0].area_m2 / PIT_AREA_M2 - 1)).toBeLessThan(0.005);
    expect(analysis.components.rainfall.ponded_area.km2).toBe(ponding[0].area_km2);
    const compound = extents.filter((e) => e.component === 'compound');
    expect(compound.map((e) => [e.scenario, e.planning_horizon])).toEqual([[SCENARIO, YEAR]]);
    // Compound: the sea at the 100-year still-water level on the slope (every slope column whose ground
    // 0.3 + 0.1·k lies below it, in every row of the grid) and the full pit, which the sea does not reach.
    const surgeLevel = analysis.components.surge.results.find((r: any) => r.return_period_years === 100).design_water_level_navd88.m;
    expect(surgeLevel).toBeLessThan(PLATEAU);
    expect(compound[0].max_depth_m).toBeCloseTo(Math.max(PLATEAU - FLOOR, surgeLevel - 0.3), 3);
    const wetColumns = Math.floor((surgeLevel - 0.3) / 0.1) + 1;
    // The analysis grid covers the boundary's 56 rows of posts (2 to 57), and may hold a row of margin on either side.
    const compoundM2 = (rows: number) => wetColumns * rows * cellAreaM2(PIT.row) + PIT_AREA_M2;
    expect(compound[0].area_m2).toBeGreaterThan(compoundM2(56) * 0.995);
    expect(compound[0].area_m2).toBeLessThan(compoundM2(58) * 1.005);
    expect(analysis.components.compound.results[0].combined.extent.km2).toBe(compound[0].area_km2);
  });

  it('delivers the report, the GIS package and the workbook, whose layers and columns agree with the analytic answer', async () => {
    const started = await app.request('POST', `/assessments/${assessmentId}/deliverables`, { key: key() });
    expect(started.status).toBe(202);
    const location = started.headers.get('location')!.slice(app.baseUrl.length);
    let job = started.json;
    const deadline = Date.now() + 240_000;
    while (job.status !== 'succeeded' && job.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = (await app.request('GET', location, { key: key() }).catch(() => ({ json: job }))).json;
    }
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    const download = async (suffix: string) => Buffer.from(await (await fetch(job.files.find((f: any) => f.name.endsWith(suffix)).url)).arrayBuffer());

    const text = pdfText(await download('report.pdf')).replace(/\s+/g, ' ');
    for (const name of ['Pit Lift Station', 'Slope Road', 'Hill Fire Station']) expect(text).toContain(name);
    // The prioritized list names rainfall as what governs the pit's flooding.
    expect(text).toMatch(/Pit Lift Station critical infrastructure [^#]{0,40}?rainfall/);

    const pitFt = (PLATEAU - FLOOR) / M_PER_FT;
    const roadTidalFt = (slope.tidalLevel - slope.ground) / M_PER_FT;
    // The pit's square (its cells' outer edges, half a cell beyond its outer posts) as marching squares
    // trace a cell mask: each corner cut from the middle of one side of the corner cell to the middle of
    // the other (1/8 of a cell off per corner).
    const edge = PIT.half + 0.5;
    const octagon = [[-PIT.half, -edge], [PIT.half, -edge], [edge, -PIT.half], [edge, PIT.half], [PIT.half, edge], [-PIT.half, edge], [-edge, PIT.half], [-edge, -PIT.half], [-PIT.half, -edge]];
    const pitAlbersKm2 = planarArea([[octagon.map(([dc, dr]) => albers3087(lonOf(PIT.col + dc!), latOf(PIT.row + dr!)))]]) / 1e6;
    // The report's ponding map prints the pit's area (four significant figures) and names the storm, the layer and the method.
    const pondingPage = /Rainfall ponding: 100-year 24-hour storm \(330\.2 mm\) Pinellas County\. Ponded land ([\d.]+) km\S* deepest ([\d.]+) ft \(layer rainfall_ponding\)/.exec(text);
    expect(pondingPage).not.toBeNull();
    expect(Math.abs(Number(pondingPage![1]) / pitAlbersKm2 - 1)).toBeLessThan(1e-3 + 5e-4);
    expect(Math.abs(Number(pondingPage![2]) - pitFt)).toBeLessThanOrEqual(0.005);
    expect(text).toMatch(/Method: the storm.s runoff filled into the ground grid.s depressions by fill.spill.merge/);
    expect(text).toMatch(new RegExp(`Compound flooding: NOAA 2022 Intermediate, ${YEAR}, 100-year 24-hour storm \\(330\\.2 mm\\) Pinellas County\\. Wet land [\\d.]+ km`));
    // Only the pit ponds (rainfall 0 elsewhere); its compound depth is the same full pit, so rainfall governs it (ties go to rainfall).
    expect(text).toMatch(/Governing component \(the one giving an asset its deepest flooding over the 1 scenario and horizon pair\(s\) above[^.]*\): [^.]*rainfall governs 1 asset\(s\)/);
    const dir = mkdtempSync(path.join(tmpdir(), 'rain-gpkg-'));
    try {
      const file = path.join(dir, 'package.gpkg');
      writeFileSync(file, await download('.gpkg'));
      const db = await openSqlite(file);
      try {
        const ponding = db.prepare('SELECT COMPONENT, SCENARIO, HORIZON, STORM_RP, STORM_MM, STORM_H, AREA_KM2, MAX_DEP_M, MAX_DEP_FT, geom FROM rainfall_ponding').all() as any[];
        expect(ponding).toHaveLength(1);
        expect(ponding[0]).toMatchObject({ COMPONENT: 'rainfall', HORIZON: null, STORM_RP: 100, STORM_MM: 330.2, STORM_H: 24 });
        expect(ponding[0].MAX_DEP_M).toBeCloseTo(PLATEAU - FLOOR, 3);
        expect(ponding[0].MAX_DEP_FT).toBeCloseTo(pitFt, 2);
        // The pit square's own corners projected by the test's Albers, against the layer's polygon and its attribute.
        const layerKm2 = planarArea(gpkgPolygons(ponding[0].geom)) / 1e6;
        expect(Math.abs(layerKm2 / pitAlbersKm2 - 1)).toBeLessThan(1e-3);
        expect(Math.abs(ponding[0].AREA_KM2 / pitAlbersKm2 - 1)).toBeLessThan(1e-3);
        const compound = db.prepare('SELECT SCENARIO, HORIZON, STORM_MM, AREA_KM2, MAX_DEP_M, geom FROM compound_flooding').all() as any[];
        expect(compound.map((c) => [c.SCENARIO, c.HORIZON, c.STORM_MM])).toEqual([[SCENARIO, YEAR, 330.2]]);
        // The compound extent holds the pit and the coastal water on the slope: more than the pit alone.
        expect(compound[0].AREA_KM2).toBeGreaterThan(pitAlbersKm2);
        expect(Math.abs(planarArea(gpkgPolygons(compound[0].geom)) / 1e6 / compound[0].AREA_KM2 - 1)).toBeLessThan(1e-6);
        const records = db.prepare(`SELECT r.table_name AS name, m.metadata FROM gpkg_metadata_reference r JOIN gpkg_metadata m ON m.id = r.md_file_id
          WHERE r.table_name IN ('rainfall_ponding', 'compound_flooding')`).all() as { name: string; metadata: string }[];
        expect(records.map((r) => r.name).sort()).toEqual(['compound_flooding', 'rainfall_ponding']);
        expect(records.every((r) => r.metadata.includes('<metstdv>FGDC-STD-001-1998</metstdv>'))).toBe(true);

        // The asset layer's per-component columns, and the workbook's, hold the hand-computed depths: feet to
        // the hundredth, so within half of that, plus 0.3 mm for the answer's level given to the tenth of a
        // millimetre (the asset's own level is computed at its place, not rounded).
        const feetNear = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(0.005 + 0.0003 / M_PER_FT);
        const field = (prefix: string) => `${prefix}_I_${YEAR}`;
        const layerRows = db.prepare(`SELECT NAME, ${['T', 'S', 'R', 'C', 'G'].map((p) => `"${field(p)}"`).join(', ')} FROM assets`).all() as any[];
        const inLayer = new Map(layerRows.map((r) => [r.NAME, r]));
        feetNear(inLayer.get('Pit Lift Station')[field('R')], pitFt);
        expect(inLayer.get('Pit Lift Station')[field('G')]).toBe('rainfall');
        feetNear(inLayer.get('Slope Road')[field('T')], roadTidalFt);
        const sheet = xlsxSheet(await download('.xlsx'), 'Prioritized assets');
        const header = sheet[0]!;
        for (const row of sheet.slice(1)) {
          const fromLayer = inLayer.get(row[header.indexOf('NAME')] as string);
          for (const prefix of ['T', 'S', 'R', 'C', 'G']) expect(row[header.indexOf(field(prefix))]).toEqual(fromLayer[field(prefix)] ?? undefined);
        }
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The Shapefiles of the two layers, read with their own reader, and the README listing them.
    const zipped = unzipSync(await download('rainfall_ponding-epsg3087-shp.zip'));
    expect(Object.keys(zipped)).toEqual(expect.arrayContaining(['rainfall_ponding.shp', 'rainfall_ponding.dbf', 'rainfall_ponding.shp.xml']));
    const shp = await openShapefile(Buffer.from(zipped['rainfall_ponding.shp']!), Buffer.from(zipped['rainfall_ponding.dbf']!));
    const shape = (await shp.read()).value as { geometry: { type: string; coordinates: any }; properties: Record<string, unknown> };
    const rings = shape.geometry.type === 'Polygon' ? [shape.geometry.coordinates] : shape.geometry.coordinates;
    expect(Math.abs(planarArea(rings) / 1e6 / pitAlbersKm2 - 1)).toBeLessThan(1e-3);
    expect(shape.properties).toMatchObject({ COMPONENT: 'rainfall', STORM_MM: 330.2 });
    expect(job.files.some((f: any) => f.name.endsWith('compound_flooding-epsg3087-shp.zip'))).toBe(true);
    const readme = (await download('gis-readme.txt')).toString('utf8');
    expect(readme).toContain('rainfall_ponding: Rainfall ponding per design storm');
    expect(readme).toContain('compound_flooding: Compound flooding per scenario and planning horizon');
  }, 300_000);
});
