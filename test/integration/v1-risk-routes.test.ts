import path from 'node:path';
import { readCsvRows } from '../helpers/v1-risk-csv';
import { startV1Harness, testUser } from '../helpers/v1-training-harness';

const nri = readCsvRows(path.join(__dirname, '../../shared/data/v1/nri/NRI_Table_Counties_Florida_v1.19.0.csv'));
const row = (fips: string) => nri.find((r) => r.STCOFIPS === fips)!;

let harness: Awaited<ReturnType<typeof startV1Harness>>;
const resident = testUser({ role: 'resident', name: 'Rosa Resident' });

beforeAll(async () => {
  harness = await startV1Harness(() => import('../../functions/v1-risk/handler'));
});
afterAll(async () => harness?.stop());

const get = (route: string) => harness.invoke('GET', route, { user: resident });

describe('GET /v1/risks/calculate', () => {
  it('answers FEMA\'s published values for a point in Key West, with the coastal figures of this API', async () => {
    const res = await get('/v1/risks/calculate?lat=24.5551&lon=-81.78');
    expect(res.status).toBe(200);
    const monroe = row('12087');
    expect(res.json.location).toMatchObject({ county_fips: '12087', county_name: 'Monroe', coastal: true, matched_by: 'point_in_boundary' });
    expect(res.json.source).toMatchObject({ dataset: 'FEMA National Risk Index', level: 'county', release: monroe.NRI_VER });
    expect(res.json.source.version).toContain('1.19.0');
    expect(res.json.source.disclaimer).toMatch(/planning purposes only/);
    expect(res.json.composite.risk_score).toBe(Number(monroe.RISK_SCORE));
    expect(res.json.composite.risk_rating).toBe(monroe.RISK_RATNG);
    expect(res.json.coastal.sea_level_rise.scenarios.map((s: { scenario: string }) => s.scenario)).toEqual(['intermediate_low', 'intermediate']);
    expect(res.json.coastal.high_tide_flooding.gauges[0].thresholds_navd88.minor.m).toEqual(expect.any(Number));
    expect(res.json.coastal.provenance).toMatch(/not part of the FEMA National Risk Index/);
  });

  it('answers by name or FIPS code; inland counties have no coastal section', async () => {
    const byName = await get('/v1/risks/calculate?county=Orange&hazards=cfld,HRCN');
    expect(byName.status).toBe(200);
    expect(byName.json.location).toMatchObject({ county_fips: '12095', coastal: false, point_basis: 'county_centroid' });
    expect(byName.json.coastal).toBeNull();
    expect(byName.json.hazards.map((h: { code: string }) => h.code)).toEqual(['CFLD', 'HRCN']);
    expect(byName.json.hazards[0]).toMatchObject({ risk_rating: row('12095').CFLD_RISKR, risk_score: null });
    const byFips = await get('/v1/risks/calculate?county_fips=12095');
    expect(byFips.json.composite).toEqual(byName.json.composite);
  });

  it('refuses other states, unknown counties, ambiguous and unknown parameters', async () => {
    expect((await get('/v1/risks/calculate?lat=33.749&lon=-84.388')).json).toMatchObject({ status: 422, code: 'location_outside_florida' });
    expect((await get('/v1/risks/calculate?county_fips=13121')).json).toMatchObject({ status: 422, code: 'location_outside_florida' });
    expect((await get('/v1/risks/calculate?county=Atlantis')).json).toMatchObject({ status: 404, code: 'not_found' });
    expect((await get('/v1/risks/calculate?county=Monroe&county_fips=12087')).json).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await get('/v1/risks/calculate?lat=24.5')).json).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await get('/v1/risks/calculate?county=Monroe&hazards=XXXX')).json).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await get('/v1/risks/calculate?county=Monroe&colour=blue')).json).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('GET /v1/hazards/location', () => {
  it('lists the county\'s NRI hazards strongest first, SLR and tidal flooding at the gauges, landfalls within 100 km and an unknown flood zone', async () => {
    const res = await get('/v1/hazards/location?lat=27.7676&lon=-82.6403');
    expect(res.status).toBe(200);
    expect(res.json.location).toMatchObject({ county_fips: '12103', county_name: 'Pinellas', coastal: true });
    const hurricane = res.json.hazards.find((h: { code: string }) => h.code === 'HRCN');
    expect(hurricane).toMatchObject({ applies: true, rating: row('12103').HRCN_RISKR, risk_score: Number(row('12103').HRCN_RISKS) });
    expect(res.json.hazards.find((h: { code: string }) => h.code === 'VLCN')).toMatchObject({ applies: false, rating: 'Not Applicable', risk_score: null });
    const scores = res.json.hazards.map((h: { risk_score: number | null }) => h.risk_score ?? -1);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(res.json.sea_level_rise.gauge_selection.gauges.length).toBeGreaterThanOrEqual(1);
    expect(res.json.high_tide_flooding.gauges[0].projected).toHaveLength(4);
    // The projected flood days count UHSLC daily-maximum peaks where a record covers the gauge: the answer cites them.
    const ids = (sources: { id: string }[]) => sources.map((s) => s.id);
    expect(ids(res.json.high_tide_flooding.sources)).toEqual(expect.arrayContaining(['noaa_htf', 'uhslc_daily_max_peaks']));
    expect(ids(res.json.sources)).toEqual(expect.arrayContaining(['noaa_htf', 'uhslc_daily_max_peaks']));
    expect(res.json.hurricane_landfalls_within_100km.radius_km).toBe(100);
    for (const event of res.json.hurricane_landfalls_within_100km.events) expect(event.distance_km).toBeLessThanOrEqual(100);
    expect(res.json.flood_zone).toMatchObject({ status: 'unknown', how_to_get: expect.stringContaining('msc.fema.gov') });
  });

  it('says an inland point is inland, with no tidal figures', async () => {
    const res = await get('/v1/hazards/location?lat=28.5383&lon=-81.3792');
    expect(res.json.location).toMatchObject({ county_name: 'Orange', coastal: false });
    expect(res.json.sea_level_rise).toBeNull();
    expect(res.json.high_tide_flooding).toBeNull();
  });

  it('answers 422 location_outside_florida outside Florida', async () => {
    const res = await get('/v1/hazards/location?lat=40.7128&lon=-74.006');
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('location_outside_florida');
  });
});

describe('GET /v1/supplies/generate', () => {
  it('computes the kit as JSON, CSV and PDF', async () => {
    const json = await get('/v1/supplies/generate?adults=2&children=1&pets=1&hazard=hurricane');
    expect(json.status).toBe(200);
    expect(json.json.days).toBe(7);
    expect(json.json.totals.water_gallons).toBe(21);
    const csv = await get('/v1/supplies/generate?adults=2&children=1&pets=1&hazard=hurricane&format=csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')[1]).toMatch(/^water,basic,"Water, for drinking and sanitation",21,gallons,/);
    const pdf = await get('/v1/supplies/generate?adults=1&format=pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.slice(0, 5)).toBe('%PDF-');
  });

  it('refuses days outside 3–30 and a household without an adult', async () => {
    expect((await get('/v1/supplies/generate?adults=1&days=2')).status).toBe(400);
    expect((await get('/v1/supplies/generate?adults=1&days=31')).status).toBe(400);
    expect((await get('/v1/supplies/generate?adults=0')).status).toBe(400);
    expect((await get('/v1/supplies/generate?adults=1&medical_needs=maybe')).status).toBe(400);
  });
});
