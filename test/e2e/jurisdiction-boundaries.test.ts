import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { startTestApp } from '../helpers/local-app';
import { multipartBody } from '../fixtures/assets/multipart';

/**
 * Municipal boundaries over HTTP: a municipal import checked against the city (an outside row, a
 * shoreline row), a municipal flood analysis, and an account's official boundary winning.
 */
let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => { app = await startTestApp({ backgroundWorkers: false }); });
afterAll(async () => { await app.stop(); });

const importCsv = async (csv: string, jurisdiction: string) => {
  const { body, contentType } = await multipartBody({ file: { filename: 'assets.csv', data: Buffer.from(csv) }, jurisdiction });
  return app.request('POST', '/assets/import', { key: app.keys.enterprise, body, headers: { 'Content-Type': contentType } });
};

describe('every municipality by name', () => {
  it('imports for the City of Key West: a row in Marathon is outside the city, a pier row 300 m offshore is in', async () => {
    // Mallory Square pier head, about 300 m west of the Key West shoreline (in the water), and Marathon city hall, 70 km away.
    const csv = 'name,type,lat,lon\nCity Hall,government,24.5551,-81.7826\nPier head,pier,24.5594,-81.8090\nMarathon City Hall,government,24.7130,-81.0903\n';
    const res = await importCsv(csv, 'City of Key West');
    expect(res.status).toBe(201);
    expect(res.json.jurisdiction).toEqual({ id: 'municipality:120168', name: 'City of Key West' });
    expect(res.json.validation.accepted).toBe(2);
    expect(res.json.validation.errors).toEqual([expect.objectContaining({ row: 4, code: 'outside_jurisdiction', message: 'The position is outside City of Key West.' })]);
  });

  it('imports for a place NFIP does not list, by its Census GEOID', async () => {
    // Town of Bell (1204975), Gilchrist County.
    const res = await importCsv('name,type,lat,lon\nTown Hall,government,29.7556,-82.8620\nTrenton,government,29.6133,-82.8176\n', 'municipality:1204975');
    expect(res.status).toBe(201);
    expect(res.json.validation.accepted).toBe(1);
    expect(res.json.validation.errors[0]).toMatchObject({ code: 'outside_jurisdiction' });
  });

  it('analyses the City of Key West by name: its Census place, not Monroe County', async () => {
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { jurisdiction: 'City of Key West', components: ['tidal'] } });
    expect(res.status).toBe(200);
    const boundary = await app.request('GET', '/jurisdictions/municipality:120168/boundary', { key: app.keys.pro });
    expect(boundary.status).toBe(200);
    expect(boundary.json).toMatchObject({ jurisdiction_id: 'municipality:120168', display_name: 'City of Key West', source: 'census_place', updated_at: null });
    expect(booleanPointInPolygon([-81.7826, 24.5551], boundary.json.boundary_geojson)).toBe(true);
    expect(booleanPointInPolygon([-81.0903, 24.7130], boundary.json.boundary_geojson)).toBe(false);
  });

  it('stores an official boundary that then wins for imports and analyses, and removes it', async () => {
    const key = app.keys.enterprise;
    // A square around Key West's old town only: City Hall inside, the pier head outside by more than 500 m.
    const square = { type: 'Polygon', coordinates: [[[-81.80, 24.545], [-81.77, 24.545], [-81.77, 24.565], [-81.80, 24.565], [-81.80, 24.545]]] };
    const stored = await app.request('PUT', '/jurisdictions/City%20of%20Key%20West/boundary', { key, json: { boundary_geojson: square, source_note: 'test square' } });
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({ jurisdiction_id: 'municipality:120168', source: 'account', source_note: 'test square', boundary_geojson: { type: 'Polygon' } });
    const read = await app.request('GET', '/jurisdictions/municipality:120168/boundary', { key });
    expect(read.json.source).toBe('account');
    // Another account still sees the Census place.
    expect((await app.request('GET', '/jurisdictions/municipality:120168/boundary', { key: app.keys.pro })).json.source).toBe('census_place');

    const res = await importCsv('name,type,lat,lon\nCity Hall,government,24.5551,-81.7826\nAirport,airport,24.5561,-81.7596\n', 'municipality:120168');
    expect(res.json.validation.accepted).toBe(1);
    expect(res.json.validation.errors[0]).toMatchObject({ row: 3, code: 'outside_jurisdiction', message: "The position is outside City of Key West (the account's official boundary)." });

    const analysis = await app.request('POST', '/hazards/flood-analysis', { key, json: { jurisdiction: 'municipality:120168', components: ['tidal'] } });
    expect(analysis.status).toBe(200);

    // A boundary in another county is refused, naming where it lies.
    const orlando = { type: 'Polygon', coordinates: [[[-81.40, 28.52], [-81.36, 28.52], [-81.36, 28.56], [-81.40, 28.56], [-81.40, 28.52]]] };
    const wrong = await app.request('PUT', '/jurisdictions/municipality:120168/boundary', { key, json: { boundary_geojson: orlando } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors[0]).toMatchObject({ field: 'boundary_geojson', message: expect.stringMatching(/Orange County, not where City of Key West is/) });
    const open = await app.request('PUT', '/jurisdictions/county:12087/boundary', { key, json: { boundary_geojson: { type: 'Polygon', coordinates: [[[-81.8, 24.5], [-81.7, 24.5], [-81.7, 24.6]]] } } });
    expect(open.status).toBe(400);

    expect((await app.request('DELETE', '/jurisdictions/municipality:120168/boundary', { key })).status).toBe(204);
    expect((await app.request('DELETE', '/jurisdictions/municipality:120168/boundary', { key })).status).toBe(404);
    expect((await app.request('GET', '/jurisdictions/municipality:120168/boundary', { key })).json.source).toBe('census_place');
    expect((await app.request('GET', '/jurisdictions/Atlantis%20County/boundary', { key })).status).toBe(400);
  });
});
