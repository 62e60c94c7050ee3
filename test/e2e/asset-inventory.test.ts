import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import proj4 from 'proj4';
import { startTestApp } from '../helpers/local-app';
import { multipartBody } from '../fixtures/assets/multipart';
import { PRJ, zippedShapefile } from '../fixtures/assets/shapefile-writer';
import { deflatedRepeat, honestEntry, zipArchive } from '../fixtures/assets/zip-bomb';
import { syntheticAssets } from '../helpers/synthetic-assets';
import { countyBoundaryByFips } from '../../shared/domain/hazards/florida-counties';
import { compliantMethodology, newAssessmentBody } from '../helpers/assessment-fixtures';

const DATA = path.join(__dirname, '../../shared/data/assets');
const HOSPITALS = readFileSync(path.join(DATA, 'fl-hospitals-hifld.csv'));
const hospitalRows: Record<string, string>[] = parse(HOSPITALS, { columns: true });

/** Import → query → vulnerability over HTTP against the local gateway and emulators. */
describe('critical asset inventory over HTTP', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  const upload = async (key: string, parts: Parameters<typeof multipartBody>[0], route = '/assets/import') => {
    const { body, contentType } = await multipartBody(parts);
    return app.request('POST', route, { key, body, headers: { 'Content-Type': contentType } });
  };

  it('imports the HIFLD hospitals CSV, classifies them, and a re-import duplicates nothing', async () => {
    // A statewide file: every row is kept only on request (by default rows outside Monroe are rejected, tested below).
    const first = await upload(app.keys.pro, { file: { filename: 'Hospitals.csv', data: HOSPITALS }, jurisdiction: 'Monroe County', outside_jurisdiction: 'accept' });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toMatch(/\/assets\/imports\/imp_/);
    expect(first.json).toMatchObject({
      status: 'complete', format: 'csv', jurisdiction: { id: 'county:12087', name: 'Monroe County' }, asset_count: hospitalRows.length,
      validation: { accepted: hospitalRows.length, rejected: 0, errors: [] },
      categorization: { by_category: { community_emergency: hospitalRows.length } },
      report: { validation: { accepted: hospitalRows.length, rejected: 0 }, categorization: { by_category: { community_emergency: hospitalRows.length } }, written: { created: hospitalRows.length } },
    });
    const again = await upload(app.keys.pro, { file: { filename: 'Hospitals.csv', data: HOSPITALS }, jurisdiction: 'county:12087', outside_jurisdiction: 'accept' });
    expect(again.json.report.written).toEqual({ created: 0, updated: 0, unchanged: hospitalRows.length });
    const stored = await app.request('GET', `/assets/imports/${first.json.import_id}`, { key: app.keys.pro });
    expect(stored.status).toBe(200);
    expect(stored.json.report.asset_count).toBe(hospitalRows.length);
  });

  it('pages a jurisdiction\'s assets with a cursor, without repeats', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `/assets?jurisdiction=Monroe%20County&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await app.request('GET', query, { key: app.keys.pro });
      expect(page.status).toBe(200);
      for (const asset of page.json.data) seen.add(asset.asset_id);
      cursor = page.json.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.size).toBe(hospitalRows.length);
    expect(pages).toBe(Math.ceil(hospitalRows.length / 100));
  });

  it('sets vulnerability conditionally, keeps its history and filters by level and timeline', async () => {
    const list = await app.request('GET', '/assets?jurisdiction=Monroe%20County&category=community_emergency&limit=1', { key: app.keys.pro });
    const asset = list.json.data[0];
    expect(asset).toMatchObject({ vulnerability: null, vulnerability_level: 'not_assessed', version: 1 });
    const url = `/assets/${asset.asset_id}/vulnerability`;
    const body = { hazard_type: 'storm_surge', scenario: 'intermediate', exposure: 0.9, sensitivity: 0.9, adaptive_capacity: 0.1, first_exposed_year: new Date().getUTCFullYear() + 10 };

    const first = await app.request('PUT', url, { key: app.keys.pro, json: body, headers: { 'If-Match': '"1"' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    expect(first.json).toMatchObject({ version: 2, vulnerability_level: 'high', impact_timeline: 'near_term', vulnerability: { vulnerability_score: 0.729, method: 'computed', exposure: 0.9 } });

    const stale = await app.request('PUT', url, { key: app.keys.pro, json: body, headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.json.code).toBe('conflict');
    const unconditional = await app.request('PUT', url, { key: app.keys.pro, json: body });
    expect(unconditional.status).toBe(428);
    expect(unconditional.json.code).toBe('precondition_required');

    const second = await app.request('PUT', url, { key: app.keys.pro, json: { hazard_type: 'tidal_flooding', vulnerability_score: 0.3, adaptive_capacity: 0.5, first_exposed_year: null, version: 2 }, headers: { 'If-Match': '"2"' } });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ version: 3, vulnerability_level: 'moderate', impact_timeline: 'not_exposed' });
    expect(second.json.vulnerability_history.map((h: { version: number; vulnerability: { hazard_type: string } }) => [h.version, h.vulnerability.hazard_type])).toEqual([[2, 'storm_surge'], [3, 'tidal_flooding']]);

    const moderate = await app.request('GET', '/assets?jurisdiction=Monroe%20County&vulnerability_level=moderate&impact_timeline=not_exposed', { key: app.keys.pro });
    expect(moderate.json.data.map((a: { asset_id: string }) => a.asset_id)).toEqual([asset.asset_id]);
    const notAssessed = await app.request('GET', '/assets?jurisdiction=Monroe%20County&vulnerability_level=not_assessed&limit=100', { key: app.keys.pro });
    expect(notAssessed.json.data.some((a: { asset_id: string }) => a.asset_id === asset.asset_id)).toBe(false);

    const invalid = await app.request('PUT', url, { key: app.keys.pro, json: { hazard_type: 'meteor', exposure: 2, sensitivity: 0.5, adaptive_capacity: 0.5, first_exposed_year: 2040 }, headers: { 'If-Match': '"3"' } });
    expect(invalid.status).toBe(400);
    expect(invalid.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['exposure', 'hazard_type']);
    const missing = await app.request('PUT', '/assets/a_000000000000000000000000/vulnerability', { key: app.keys.pro, json: body, headers: { 'If-Match': '"1"' } });
    expect(missing.status).toBe(404);
  });

  it('exports GeoJSON, CSV and XLSX with every matching asset', async () => {
    const geo = await app.request('GET', '/assets?jurisdiction=Monroe%20County&format=geojson', { key: app.keys.pro });
    expect(geo.status).toBe(200);
    expect(geo.headers.get('content-type')).toBe('application/geo+json');
    expect(geo.json.type).toBe('FeatureCollection');
    expect(geo.json.features).toHaveLength(hospitalRows.length);
    const byId = new Map(hospitalRows.map((h) => [h.ID, h]));
    for (const feature of geo.json.features) {
      const source = byId.get(feature.properties.source_id)!;
      expect(feature).toMatchObject({ type: 'Feature', geometry: { type: 'Point', coordinates: [Number(source.LONGITUDE), Number(source.LATITUDE)] } });
    }

    const csv = await app.request('GET', '/assets?jurisdiction=Monroe%20County&format=csv', { key: app.keys.pro });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="critical-assets-county-12087.csv"');
    const table: Record<string, string>[] = parse(csv.text, { columns: true });
    expect(table).toHaveLength(hospitalRows.length);
    expect(new Set(table.map((r) => r.source_id))).toEqual(new Set(hospitalRows.map((h) => h.ID)));

    const response = await fetch(`${app.baseUrl}/assets?jurisdiction=Monroe%20County&format=xlsx&category=community_emergency`, { headers: { 'X-API-Key': app.keys.pro } });
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.worksheets[0]!.actualRowCount).toBe(hospitalRows.length + 1);
  });

  it('imports XLSX, GeoJSON and zipped Shapefile uploads', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Assets').addRows([['Facility Name', 'Facility Type', 'Latitude', 'Longitude'], ['Lift Station 12', 'Lift Station', 24.56, -81.78], ['Station 3', 'Fire Station', 24.57, -81.75]]);
    const xlsx = await upload(app.keys.pro, { file: { filename: 'assets.xlsx', data: Buffer.from(await wb.xlsx.writeBuffer()) }, jurisdiction: 'City of Key West' });
    expect(xlsx.status).toBe(201);
    expect(xlsx.json.report.categorization.by_asset_type).toEqual({ wastewater_treatment_facilities_and_lift_stations: 1, fire_stations: 1 });

    const geojson = await upload(app.keys.pro, {
      file: { filename: 'parks.geojson', data: JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { NAME: 'Fort Zachary Taylor', TYPE: 'State Park' }, geometry: { type: 'Point', coordinates: [-81.8107, 24.5457] } }] }) },
      jurisdiction: 'City of Key West',
      asset_category: 'natural_cultural_historical',
    });
    expect(geojson.status).toBe(201);
    expect(geojson.json.report.categorization.by_asset_type).toEqual({ parks: 1 });

    const zip = zippedShapefile({ kind: 'Point', fields: [{ name: 'NAME', type: 'C', length: 30 }, { name: 'TYPE', type: 'C', length: 30 }], records: [{ geometry: { type: 'Point', coordinates: [-81.7, 24.6] }, attributes: { NAME: 'Stock Island WWTP', TYPE: 'Wastewater Treatment' } }], prj: PRJ.wgs84 });
    const shp = await upload(app.keys.pro, { file: { filename: 'plants.zip', data: zip }, jurisdiction: 'Monroe County' });
    expect(shp.status).toBe(201);
    expect(shp.json.report.asset_count).toBe(1);
  });

  it('refuses files that are not what they claim with 400, writing nothing', async () => {
    const before = await app.request('GET', '/assets?jurisdiction=Liberty%20County', { key: app.keys.pro });
    expect(before.json.data).toEqual([]);
    const cases: [string, string | Buffer, string][] = [
      ['broken.xlsx', 'not a workbook', 'malformed_xlsx'],
      ['broken.zip', 'not a zip', 'malformed_zip'],
      ['broken.geojson', '{"type":', 'malformed_json'],
      ['swapped.csv', 'name,lat,lon\nA,-84.9,30.4\n', 'coordinate_order'],
      ['georgia.csv', 'name,lat,lon\nA,33.7,-84.4\n', 'outside_florida'],
      ['nogeo.csv', 'name,address\nA,1 Main\n', 'no_geometry'],
      ['assets.pdf', '%PDF-1.4', 'unsupported_format'],
    ];
    for (const [filename, data, reason] of cases) {
      const res = await upload(app.keys.pro, { file: { filename, data }, jurisdiction: 'Liberty County' });
      expect([filename, res.status, res.json.code, res.json.reason]).toEqual([filename, 400, 'invalid_request', reason]);
    }
    const after = await app.request('GET', '/assets?jurisdiction=Liberty%20County', { key: app.keys.pro });
    expect(after.json.data).toEqual([]);
  });

  it('answers clear 400s for a bad form, a bad jurisdiction and a bad cursor', async () => {
    const noFile = await upload(app.keys.pro, { jurisdiction: 'Liberty County' });
    expect(noFile.json.errors).toEqual([expect.objectContaining({ field: 'file' })]);
    const unknown = await upload(app.keys.pro, { file: { filename: 'a.csv', data: 'name,lat,lon\nA,30.4,-84.9\n' }, jurisdiction: 'Gotham City' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors).toEqual([expect.objectContaining({ field: 'jurisdiction' })]);
    const badCategory = await upload(app.keys.pro, { file: { filename: 'a.csv', data: 'name,lat,lon\nA,30.4,-84.9\n' }, jurisdiction: 'Liberty County', asset_category: 'misc' });
    expect(badCategory.json.errors).toEqual([expect.objectContaining({ field: 'asset_category' })]);
    const cursor = await app.request('GET', '/assets?cursor=bm90LWEtY3Vyc29y', { key: app.keys.pro });
    expect(cursor.status).toBe(400);
    expect(cursor.json.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
    const wrongType = await app.request('POST', '/assets/import', { key: app.keys.pro, json: { jurisdiction: 'Liberty County' } });
    expect(wrongType.status).toBe(415);
  });

  it('keeps each account\'s assets to itself', async () => {
    const mine = await app.request('GET', '/assets?jurisdiction=Monroe%20County&limit=1', { key: app.keys.pro });
    const assetId = mine.json.data[0].asset_id;
    const theirs = await app.request('GET', '/assets?jurisdiction=Monroe%20County', { key: app.keys.enterprise });
    expect(theirs.json).toEqual({ data: [], next_cursor: null });
    const put = await app.request('PUT', `/assets/${assetId}/vulnerability`, { key: app.keys.enterprise, json: { hazard_type: 'storm_surge', vulnerability_score: 0.1, adaptive_capacity: 0, first_exposed_year: null }, headers: { 'If-Match': '"1"' } });
    expect(put.status).toBe(404);
    const importId = (await upload(app.keys.pro, { file: { filename: 'a.csv', data: 'name,lat,lon\nA,30.4,-84.9\n' }, jurisdiction: 'Liberty County' })).json.import_id;
    expect((await app.request('GET', `/assets/imports/${importId}`, { key: app.keys.enterprise })).status).toBe(404);
    // A cursor of one account does not open another's partition.
    const page = await app.request('GET', '/assets?jurisdiction=Monroe%20County&limit=1', { key: app.keys.pro });
    const stolen = await app.request('GET', `/assets?jurisdiction=Monroe%20County&limit=1&cursor=${encodeURIComponent(page.json.next_cursor)}`, { key: app.keys.enterprise });
    expect(stolen.status).toBe(400);
    const free = await app.request('GET', '/assets', { key: app.keys.free });
    expect(free.status).toBe(403);
  });

  /** Polls an import until it completes or fails (the upload watcher runs it in the background). */
  const finished = async (importId: string) => {
    for (let i = 0; i < 480; i++) {
      const status = (await app.request('GET', `/assets/imports/${importId}`, { key: app.keys.pro })).json;
      if (status.status === 'complete' || status.status === 'failed') return status;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`import ${importId} did not finish`);
  };

  it('runs a large import through a presigned upload and reports progress and the result', async () => {
    const start = await app.request('POST', '/assets/imports', { key: app.keys.pro, json: { filename: 'Hospitals.csv', jurisdiction: 'Pinellas County', outside_jurisdiction: 'accept' } });
    expect(start.status).toBe(201);
    expect(start.json).toMatchObject({ status: 'pending', progress: { phase: 'waiting_for_upload', rows_processed: 0 }, upload_method: 'PUT' });
    expect(new URL(start.json.upload_url).hostname).toBe('127.0.0.1');
    const put = await fetch(start.json.upload_url, { method: 'PUT', body: HOSPITALS });
    expect(put.status).toBe(200);
    let status = await finished(start.json.import_id);
    expect(status).toMatchObject({ status: 'complete', asset_count: hospitalRows.length, progress: { phase: 'done', rows_processed: hospitalRows.length } });

    const bad = await app.request('POST', '/assets/imports', { key: app.keys.pro, json: { filename: 'broken.xlsx', jurisdiction: 'Pinellas County' } });
    await fetch(bad.json.upload_url, { method: 'PUT', body: 'not a workbook' });
    status = await finished(bad.json.import_id);
    expect(status).toMatchObject({ status: 'failed', error: { code: 'malformed_xlsx' } });
    const badName = await app.request('POST', '/assets/imports', { key: app.keys.pro, json: { filename: 'assets.pdf', jurisdiction: 'Pinellas County' } });
    expect(badName.status).toBe(400);
  });

  it('honours Idempotency-Key on both import routes', async () => {
    const csv = Buffer.from('facility_id,name,type,latitude,longitude\nKW-LS-12,Lift Station 12,Lift Station,24.5557,-81.7826\n');
    const headers = (key: string) => ({ 'Idempotency-Key': key });
    const send = async (jurisdiction: string) => {
      // A new multipart boundary on every send, as clients do: the key still sees the same form.
      const { body, contentType } = await multipartBody({ file: { filename: 'lift.csv', data: csv }, jurisdiction });
      return app.request('POST', '/assets/import', { key: app.keys.pro, body, headers: { ...headers('import-lift-12'), 'Content-Type': contentType } });
    };
    const first = await send('City of Key West');
    const again = await send('City of Key West');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.import_id).toBe(first.json.import_id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await send('Monroe County')).status).toBe(422);

    const start = (jurisdiction: string) => app.request('POST', '/assets/imports', { key: app.keys.pro, json: { filename: 'big.csv', jurisdiction }, headers: headers('start-big-1') });
    const started = await start('Pinellas County');
    expect((await start('Pinellas County')).json.import_id).toBe(started.json.import_id);
    const reused = await start('Monroe County');
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe('idempotency_key_reused');
  });

  it('replays a first response larger than one stored item (400 KB): an import report listing 1,000 rows, twice', async () => {
    // Coordinate columns named with 128 characters (the longest name a column may have) make every
    // listed row long: 500 rejected rows (errors) and 500 outside the county (warnings, with `warn`).
    const lat = `Latitude ${'·'.repeat(119)}`;
    const lon = `Longitude ${'·'.repeat(118)}`;
    const rows = [
      ...Array.from({ length: 600 }, (_, i) => `Station ${i},Fire Station,north,west`),
      ...Array.from({ length: 600 }, (_, i) => `Miami ${i},Fire Station,25.77,-80.19`),
    ];
    const csv = Buffer.from(`name,type,${lat},${lon}\n${rows.join('\n')}\n`);
    const send = async () => {
      const { body, contentType } = await multipartBody({
        file: { filename: 'long.csv', data: csv }, jurisdiction: 'Hillsborough County', outside_jurisdiction: 'warn',
        column_map: JSON.stringify({ [lat]: 'latitude', [lon]: 'longitude' }),
      });
      return app.request('POST', '/assets/import', { key: app.keys.pro, body, headers: { 'Content-Type': contentType, 'Idempotency-Key': 'long-report-1' } });
    };
    const first = await send();
    expect(first.status).toBe(201);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(400 * 1024);
    expect([first.json.validation.errors.length, first.json.validation.warnings.length]).toEqual([500, 500]);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('validates a GIS deliverable and returns a coded report', async () => {
    const zip = zippedShapefile({ kind: 'Point', fields: [{ name: 'NAME', type: 'C', length: 30 }], records: [{ geometry: { type: 'Point', coordinates: [-81.7, 24.6] }, attributes: { NAME: 'Plant' } }], prj: PRJ.wgs84 });
    const res = await upload(app.keys.pro, { file: { filename: 'layer.zip', data: zip }, coordinate_system: 'EPSG:3087' }, '/compliance/gis-validation');
    expect(res.status).toBe(200);
    expect(res.json.valid).toBe(false);
    expect(res.json.errors.map((e: { code: string }) => e.code)).toEqual(expect.arrayContaining(['crs_mismatch', 'crs_not_accepted', 'missing_attribute', 'metadata_missing']));
    const csv = await upload(app.keys.pro, { file: { filename: 'layer.csv', data: 'a,b\n' }, coordinate_system: 'EPSG:3087' }, '/compliance/gis-validation');
    expect(csv.status).toBe(400);
    const noCrs = await upload(app.keys.pro, { file: { filename: 'layer.zip', data: zip } }, '/compliance/gis-validation');
    expect(noCrs.json.errors).toEqual([expect.objectContaining({ field: 'coordinate_system' })]);
  });

  /** The GeoJSON export, following the 303 of a large one to its download. */
  const exported = async (key: string, jurisdiction: string) => {
    const response = await fetch(`${app.baseUrl}/assets?jurisdiction=${encodeURIComponent(jurisdiction)}&format=geojson`, { headers: { 'X-API-Key': key } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { features: { id: string; properties: { source_id: string } }[] }).features;
  };

  /** A CSV of `count` synthetic assets, each inside Miami-Dade County's boundary. */
  const miamiDadeCsv = (count: number, seed: number) => Buffer.from(['facility_id,name,type,latitude,longitude',
    ...syntheticAssets(count, [countyBoundaryByFips('12086')!], seed).map((a, i) => `MD-${seed}-${i},${a.name},Fire Station,${a.lat.toFixed(6)},${a.lon.toFixed(6)}`)].join('\n'));

  it('answers 202 with the import for a file beyond the inline budget, imports it once in the background, and a retry replays the 202', async () => {
    const csv = miamiDadeCsv(6000, 1);
    const send = async () => {
      const { body, contentType } = await multipartBody({ file: { filename: 'stations.csv', data: csv }, jurisdiction: 'Miami-Dade County' });
      return app.request('POST', '/assets/import', { key: app.keys.pro, body, headers: { 'Content-Type': contentType, 'Idempotency-Key': 'big-csv-1' } });
    };
    const first = await send();
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ import_id: expect.stringMatching(/^imp_/), status: 'pending', reason: expect.stringContaining('5000 rows') });
    expect(first.headers.get('location')).toBe(`${app.baseUrl}/assets/imports/${first.json.import_id}`);
    const retry = await send();
    expect(retry.status).toBe(202);
    expect(retry.json.import_id).toBe(first.json.import_id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const done = await finished(first.json.import_id);
    expect(done).toMatchObject({ status: 'complete', asset_count: 6000, report: { written: { created: 6000 } }, progress: { phase: 'done', rows_processed: 6000 } });
    const all = await exported(app.keys.pro, 'Miami-Dade County');
    expect(all.filter((f) => f.properties.source_id.startsWith('MD-1-'))).toHaveLength(6000);
  }, 180_000);

  it('refuses a 100,000-row CSV on the synchronous route with 413 pointing to POST /assets/imports', async () => {
    const csv = miamiDadeCsv(100_000, 2);
    expect(csv.length).toBeGreaterThan(5 * 1024 * 1024);
    const res = await upload(app.keys.pro, { file: { filename: 'big.csv', data: csv }, jurisdiction: 'Miami-Dade County' });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('payload_too_large');
    expect(res.json.detail).toContain('POST /assets/imports');
  });

  it('keeps answering /health while it refuses a zip bomb, and answers hostile workbooks with 413 and 400', async () => {
    const bomb = zipArchive([{ name: 'assets.shp', deflated: deflatedRepeat('\0', 2 * 1024 ** 3).deflated }]);
    const { body, contentType } = await multipartBody({ file: { filename: 'bomb.zip', data: bomb }, jurisdiction: 'Monroe County' });
    let settled = false;
    const refused = app.request('POST', '/assets/import', { key: app.keys.pro, body, headers: { 'Content-Type': contentType } }).finally(() => {
      settled = true;
    });
    let healthWhileRefusing = 0;
    while (!settled) {
      const health = await app.request('GET', '/health');
      expect(health.status).toBe(200);
      if (!settled) healthWhileRefusing++;
    }
    const res = await refused;
    expect([res.status, res.json.code, res.json.reason]).toEqual([413, 'payload_too_large', 'file_too_large']);
    // The server answered other requests while it inflated the archive up to its budget.
    expect(healthWhileRefusing).toBeGreaterThanOrEqual(2);

    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Assets').addRows([['name', 'lat', 'lon'], ['Station 1', 24.56, -81.78]]);
    const workbook = Buffer.from(await wb.xlsx.writeBuffer());
    const strings = deflatedRepeat('<si><t>bomb</t></si>', 512 * 1024 ** 2, '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">');
    const entries = Object.entries(unzipSync(workbook)).filter(([name]) => !name.endsWith('/'));
    const xlsxBomb = zipArchive(entries.map(([name, data]) => (name === 'xl/sharedStrings.xml' ? { name, deflated: strings.deflated, declaredSize: strings.size } : honestEntry(name, Buffer.from(data)))));
    const bombed = await upload(app.keys.pro, { file: { filename: 'bomb.xlsx', data: xlsxBomb }, jurisdiction: 'Monroe County' });
    expect([bombed.status, bombed.json.reason]).toEqual([413, 'file_too_large']);
    const truncated = await upload(app.keys.pro, { file: { filename: 'cut.xlsx', data: workbook.subarray(0, 1600) }, jurisdiction: 'Monroe County' });
    expect([truncated.status, truncated.json.code, truncated.json.reason]).toEqual([400, 'invalid_request', 'malformed_xlsx']);
  });

  it('gives the same file other asset ids in another account, and the same ids again in the same account', async () => {
    const csv = miamiDadeCsv(3, 3);
    const ids = async (key: string) => {
      const res = await upload(key, { file: { filename: 'three.csv', data: csv }, jurisdiction: 'Miami-Dade County' });
      expect(res.status).toBe(201);
      return (await exported(key, 'Miami-Dade County')).filter((f) => f.properties.source_id.startsWith('MD-3-')).map((f) => f.id).sort();
    };
    const pro = await ids(app.keys.pro);
    const enterprise = await ids(app.keys.enterprise);
    expect(pro).toHaveLength(3);
    expect(enterprise).toHaveLength(3);
    expect(pro.filter((id) => enterprise.includes(id))).toEqual([]);
    expect(await ids(app.keys.pro)).toEqual(pro);
  });

  it('deletes an asset, and undoes an import by deleting only the assets it created', async () => {
    const first = await upload(app.keys.pro, { file: { filename: 'a.csv', data: 'facility_id,name,type,lat,lon\nGD-1,Station One,Fire Station,30.58,-84.58\nGD-2,Station Two,Fire Station,30.59,-84.57\n' }, jurisdiction: 'Gadsden County' });
    expect(first.status).toBe(201);
    // The second import updates GD-2 (renamed) and creates GD-3.
    const second = await upload(app.keys.pro, { file: { filename: 'b.csv', data: 'facility_id,name,type,lat,lon\nGD-2,Station Two (new),Fire Station,30.59,-84.57\nGD-3,Station Three,Fire Station,30.60,-84.56\n' }, jurisdiction: 'Gadsden County' });
    expect(second.json.report.written).toEqual({ created: 1, updated: 1, unchanged: 0 });
    const names = async () => ((await app.request('GET', '/assets?jurisdiction=Gadsden%20County', { key: app.keys.pro })).json.data as { name: string; asset_id: string }[]);

    expect((await app.request('DELETE', `/assets/imports/${second.json.import_id}`, { key: app.keys.enterprise })).status).toBe(404);
    const undo = await app.request('DELETE', `/assets/imports/${second.json.import_id}`, { key: app.keys.pro });
    expect(undo.status).toBe(204);
    expect((await names()).map((a) => a.name).sort()).toEqual(['Station One', 'Station Two (new)']);
    expect((await app.request('GET', `/assets/imports/${second.json.import_id}`, { key: app.keys.pro })).status).toBe(404);

    const one = (await names()).find((a) => a.name === 'Station One')!;
    expect((await app.request('DELETE', `/assets/${one.asset_id}`, { key: app.keys.enterprise })).status).toBe(404);
    expect((await app.request('DELETE', `/assets/${one.asset_id}`, { key: app.keys.pro })).status).toBe(204);
    expect((await app.request('DELETE', `/assets/${one.asset_id}`, { key: app.keys.pro })).status).toBe(404);
    expect((await names()).map((a) => a.name)).toEqual(['Station Two (new)']);
  });

  it('rejects rows outside the named jurisdiction by default, and reads State Plane tables with a title row', async () => {
    const inBroward = hospitalRows.filter((h) => h.COUNTY === 'BROWARD');
    const res = await upload(app.keys.pro, { file: { filename: 'Hospitals.csv', data: HOSPITALS }, jurisdiction: 'Broward County' });
    expect(res.status).toBe(201);
    // One Broward hospital sits on the Palm Beach line; the boundary check is allowed its tolerance.
    expect(Math.abs(res.json.asset_count - inBroward.length)).toBeLessThanOrEqual(1);
    expect(res.json.validation).toMatchObject({ outside_jurisdiction: { mode: 'reject', checked_against: 'Broward County' } });
    expect(res.json.validation.errors[0]).toMatchObject({ code: 'outside_jurisdiction' });

    const stateplane = require('epsg-index/s/2236.json').proj4 as string;
    const rows = inBroward.slice(0, 5).map((h) => {
      const [x, y] = proj4('EPSG:4326', stateplane, [Number(h.LONGITUDE), Number(h.LATITUDE)]);
      return `${h.ID};${h.NAME};Hospital;${x!.toFixed(3)};${y!.toFixed(3)}`;
    });
    const csv = ['Broward hospitals, State Plane East (US ft)', 'KEY;FACILITY;KIND;X;Y', ...rows].join('\n');
    const table = await upload(app.keys.pro, { file: { filename: 'sp.csv', data: csv }, jurisdiction: 'Broward County', crs: 'EPSG:2236', header_row: '2', column_map: JSON.stringify({ KEY: 'source_id', FACILITY: 'name', KIND: 'asset_type' }) });
    expect(table.status).toBe(201);
    expect(table.json.report).toMatchObject({ asset_count: 5, columns: { name: 'FACILITY', source_id: 'KEY', longitude: 'X', latitude: 'Y', type_columns: ['KIND'] } });
    const imported = (await exported(app.keys.pro, 'Broward County')).filter((f) => (f as unknown as { properties: { import_id: string } }).properties.import_id === table.json.import_id);
    expect(imported).toHaveLength(5);
    for (const feature of imported as unknown as { geometry: { coordinates: [number, number] }; properties: { source_id: string } }[]) {
      const source = inBroward.find((h) => h.ID === feature.properties.source_id)!;
      expect(feature.geometry.coordinates[0]).toBeCloseTo(Number(source.LONGITUDE), 6);
      expect(feature.geometry.coordinates[1]).toBeCloseTo(Number(source.LATITUDE), 6);
    }
    const bad = await upload(app.keys.pro, { file: { filename: 'sp.csv', data: csv }, jurisdiction: 'Broward County', crs: 'State Plane', column_map: '{"KEY": "nonsense"}' });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['column_map', 'crs']);
  });

  it('keeps lines and areas whole from a GeoJSON and a GDL Albers Shapefile through storage and the GeoJSON, CSV and XLSX exports', async () => {
    const area = [[[-81.8021, 24.5512], [-81.7905, 24.5509], [-81.7899, 24.5601], [-81.7960, 24.5644], [-81.8030, 24.5590], [-81.8021, 24.5512]],
      [[-81.7990, 24.5540], [-81.7950, 24.5540], [-81.7950, 24.5570], [-81.7990, 24.5540]]];
    const line = [[-81.7880, 24.5560], [-81.7840, 24.5575], [-81.7800, 24.5570], [-81.7770, 24.5590]];
    const circle = Array.from({ length: 5200 }, (_, i) => [-81.79 + 0.004 * Math.cos((2 * Math.PI * i) / 5200), 24.556 + 0.004 * Math.sin((2 * Math.PI * i) / 5200)]);
    const features = [
      { type: 'Feature', properties: { NAME: 'Bayview Park', TYPE: 'Park', GID: 'G-AREA' }, geometry: { type: 'Polygon', coordinates: area } },
      { type: 'Feature', properties: { NAME: 'Truman Avenue', TYPE: 'Road', GID: 'G-LINE' }, geometry: { type: 'LineString', coordinates: line } },
      { type: 'Feature', properties: { NAME: 'Too detailed', TYPE: 'Park', GID: 'G-BIG' }, geometry: { type: 'Polygon', coordinates: [[...circle, circle[0]]] } },
    ];
    const res = await upload(app.keys.enterprise, { file: { filename: 'shapes.geojson', data: JSON.stringify({ type: 'FeatureCollection', features }) }, jurisdiction: 'City of Key West', column_map: JSON.stringify({ GID: 'source_id' }) });
    expect(res.status).toBe(201);
    expect(res.json.asset_count).toBe(2);
    expect(res.json.validation.errors).toEqual([expect.objectContaining({ row: 3, field: 'geometry', code: 'geometry_too_large' })]);

    // The same area as a Shapefile in Florida GDL Albers: every vertex comes back in WGS84.
    const albers = proj4('EPSG:4326', require('epsg-index/s/3087.json').proj4 as string);
    const projectedArea = area.map((ring) => ring.map((p) => albers.forward(p) as [number, number]));
    const zip = zippedShapefile({ kind: 'Polygon', fields: [{ name: 'NAME', type: 'C', length: 30 }, { name: 'GID', type: 'C', length: 10 }], records: [{ geometry: { type: 'Polygon', coordinates: projectedArea }, attributes: { NAME: 'Bayview Park (shp)', GID: 'S-AREA' } }], prj: PRJ.harnGdlAlbers });
    const shp = await upload(app.keys.enterprise, { file: { filename: 'parks.zip', data: zip }, jurisdiction: 'City of Key West', column_map: JSON.stringify({ GID: 'source_id' }) });
    expect(shp.status).toBe(201);
    expect(shp.json.asset_count).toBe(1);

    const close = (actual: unknown, expected: unknown, digits: number) => {
      const flat = (c: unknown): number[] => (Array.isArray(c) ? c.flatMap(flat) : [c as number]);
      const a = flat(actual);
      const e = flat(expected);
      expect(a).toHaveLength(e.length);
      a.forEach((v, i) => expect(v).toBeCloseTo(e[i]!, digits));
    };
    const geo = await exported(app.keys.enterprise, 'City of Key West') as unknown as { id: string; geometry: { type: string; coordinates: unknown }; properties: { source_id: string; lon: number; lat: number } }[];
    const bySource = new Map(geo.map((f) => [f.properties.source_id, f]));
    expect(bySource.get('G-AREA')!.geometry).toEqual({ type: 'Polygon', coordinates: area });
    expect(bySource.get('G-LINE')!.geometry).toEqual({ type: 'LineString', coordinates: line });
    // A Shapefile ring may be stored turned (ESRI: outer rings clockwise); the same vertices either way.
    const shpArea = bySource.get('S-AREA')!.geometry as { type: string; coordinates: number[][][] };
    expect(shpArea.type).toBe('Polygon');
    shpArea.coordinates.forEach((ring, i) => close([...ring].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!), [...area[i]!].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!), 7));
    expect(bySource.has('G-BIG')).toBe(false);

    const page = await app.request('GET', '/assets?jurisdiction=City%20of%20Key%20West&limit=100', { key: app.keys.enterprise });
    const one = page.json.data.find((a: { asset_id: string }) => a.asset_id === bySource.get('G-LINE')!.id);
    expect(one).toMatchObject({ geometry_type: 'LineString', geometry: { type: 'LineString', coordinates: line } });
    // lat/lon stay a point on the line itself, for lists and exposure.
    expect(line.some(([x, y]) => x === one.lon && y === one.lat)).toBe(true);

    const csv = await app.request('GET', '/assets?jurisdiction=City%20of%20Key%20West&format=csv', { key: app.keys.enterprise });
    const table: Record<string, string>[] = parse(csv.text, { columns: true });
    const wktNumbers = (wkt: string) => [...wkt.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
    const areaRow = table.find((r) => r.source_id === 'G-AREA')!;
    expect(areaRow.wkt.startsWith('POLYGON ((')).toBe(true);
    close(wktNumbers(areaRow.wkt), area, 10);
    const lineRow = table.find((r) => r.source_id === 'G-LINE')!;
    expect(lineRow.wkt.startsWith('LINESTRING (')).toBe(true);
    close(wktNumbers(lineRow.wkt), line, 10);

    const response = await fetch(`${app.baseUrl}/assets?jurisdiction=City%20of%20Key%20West&format=xlsx`, { headers: { 'X-API-Key': app.keys.enterprise } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    const rowOf = (source: string) => { let found: ExcelJS.Row | undefined; sheet.eachRow((row) => { if (row.getCell(header.indexOf('source_id')).value === source) found = row; }); return found!; };
    close(wktNumbers(String(rowOf('G-AREA').getCell(header.indexOf('wkt')).value)), area, 10);
  });

  it('links an import to the assessment: the checklist counts it, and a deleted import no longer', async () => {
    const csv = 'facility_id,name,type,latitude,longitude\nLNK-1,Linked Lift Station,Lift Station,24.5557,-81.7826\nLNK-2,Linked Fire Station,Fire Station,24.5590,-81.8020\n';
    const send = async (apiKey: string, fields: Record<string, string>) => {
      const { body, contentType } = await multipartBody({ file: { filename: 'linked.csv', data: csv }, ...fields });
      return app.request('POST', '/assets/import', { key: apiKey, body, headers: { 'Content-Type': contentType } });
    };
    const created = await app.request('POST', '/assessments', { key: app.keys.pro, json: newAssessmentBody({ timeline: { start_date: '2026-01-15', target_completion_date: '2027-06-30' }, methodology: compliantMethodology('2024', 2026) }) });
    expect(created.status).toBe(201);
    const assessmentId: string = created.json.assessment_id;
    const key = () => app.keys.pro;
    const itemB = async () => {
      const res = await app.request('POST', '/compliance/validate', { key: key(), json: { assessment_id: assessmentId } });
      return res.json.dep_checklist_status.items.find((i: any) => i.item === 'B');
    };
    expect((await itemB()).evidence.detail).toContain('No asset import is linked to this assessment');

    // Refused before anything is read: an unknown assessment, another account's, another jurisdiction's.
    for (const [apiKey, fields] of [
      [key(), { jurisdiction: 'Monroe County', assessment_id: 'va_00000000000000000000000000' }],
      [app.keys.enterprise, { jurisdiction: 'Monroe County', assessment_id: assessmentId }],
      [key(), { jurisdiction: 'Miami-Dade County', assessment_id: assessmentId }],
    ] as const) {
      const refused = await send(apiKey, fields);
      expect(refused.status).toBe(400);
      expect(refused.json.errors[0]).toMatchObject({ field: 'assessment_id' });
    }
    expect((await send(key(), { jurisdiction: 'Monroe County', assessment_id: 'not-an-id' })).status).toBe(400);

    const linked = await send(key(), { jurisdiction: 'Monroe County', assessment_id: assessmentId });
    expect(linked.status).toBe(201);
    expect(linked.json).toMatchObject({ assessment_id: assessmentId, asset_count: 2 });
    expect((await itemB()).evidence.detail).toContain('1 asset import linked to this assessment, 1 complete with 2 assets accepted (linked.csv: 2 assets)');

    expect((await app.request('DELETE', `/assets/imports/${linked.json.import_id}`, { key: key() })).status).toBe(204);
    expect((await itemB()).evidence.detail).toContain('No asset import is linked to this assessment');
  });
});
