import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { startTestApp } from '../helpers/local-app';
import { countyBoundaryByFips } from '../../shared/domain/hazards/florida-counties';
import { multipartBody } from '../fixtures/assets/multipart';

const rows = parse(readFileSync(path.join(__dirname, '../../shared/data/hazards/source/fl_gauges_tr2022_slr_scenarios.csv')), { columns: true }) as Record<string, string>[];
const keyWestBox = { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.57], [-81.81, 24.57], [-81.81, 24.54]]] };

let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => { app = await startTestApp({ backgroundWorkers: 'jobs' }); });
afterAll(async () => { await app?.stop(); });

describe('GET /hazards/slr-scenarios', () => {
  it('serves the NOAA values for a gauge, in metres and feet', async () => {
    const res = await app.request('GET', '/hazards/slr-scenarios?gauge_id=8724580&time_horizon=2050&scenario=intermediate', { key: app.keys.free });
    expect(res.status).toBe(200);
    const expected = Number(rows.find((r) => r.noaa_id === '8724580' && r.scenario === 'Intermediate' && r.percentile === '50')!['2050']);
    // The CSV is rounded to the millimetre; the exact netCDF values are checked in test/science.
    expect(Math.abs(res.json.scenarios[0].projections[0].p50.m - expected)).toBeLessThanOrEqual(0.00056);
    expect(res.json.scenarios[0].projections[0].p50.ft).toBeCloseTo(res.json.scenarios[0].projections[0].p50.m / 0.3048, 3);
    expect(res.json.baseline_year).toBe(2000);
    expect(res.json.provenance.gauge_rule.rule).toBe('F.A.C. 62S-7.012(1)(b)');
  });

  it('serves the out-of-state gauges of the rule (Dauphin Island AL) and names the ones without projections', async () => {
    const res = await app.request('GET', '/hazards/slr-scenarios?gauge_id=8735180&time_horizon=2050&scenario=intermediate', { key: app.keys.free });
    expect(res.status).toBe(200);
    expect(res.json.gauge_selection.gauges[0].name).toBe('Dauphin Island, AL');
    expect(res.json.provenance.gauge_rule.gauges_without_noaa_2022_projections).toEqual(['Lake Worth Pier, FL', 'Port Manatee, FL', 'East Bay, FL']);
  });

  it('interpolates two gauges by default and takes one only on a recorded, allowed choice', async () => {
    const pensacola = await app.request('GET', '/hazards/slr-scenarios?location=30.4,-87.0&time_horizon=2050', { key: app.keys.free });
    expect(pensacola.json.gauge_selection.method).toBe('inverse_distance_two_gauges');
    expect(pensacola.json.gauge_selection.gauges.map((g: { noaa_id: string }) => g.noaa_id).sort()).toEqual(['8729840', '8735180']);
    const missingReason = await app.request('GET', '/hazards/slr-scenarios?location=30.4,-87.0&gauge_method=single&representative_gauge=8729840', { key: app.keys.free });
    expect(missingReason.status).toBe(400);
    // Pensacola and Dauphin Island are about 45 miles apart: the statute's exception does not apply.
    const refused = await app.request('GET', '/hazards/slr-scenarios?location=30.4,-87.0&gauge_method=single&representative_gauge=8729840&gauge_choice_reason=Same%20bay%20system', { key: app.keys.free });
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0].field).toBe('representative_gauge');
  });

  it('selects gauges for a county name and repeated time_horizon parameters', async () => {
    const res = await app.request('GET', '/hazards/slr-scenarios?location=Pinellas%20County&time_horizon=2040&time_horizon=2070', { key: app.keys.free });
    expect(res.status).toBe(200);
    expect(res.json.gauge_selection.gauges.length).toBeGreaterThanOrEqual(1);
    expect(res.json.scenarios[0].projections.map((p: { year: number }) => p.year)).toEqual([2040, 2070]);
  });

  it('answers 400 for both or neither of gauge_id and location, unknown gauges and places', async () => {
    for (const query of ['', '?gauge_id=8724580&location=Miami', '?gauge_id=1234567', '?location=Narnia', '?gauge_id=8724580&time_horizon=2200']) {
      const res = await app.request('GET', `/hazards/slr-scenarios${query}`, { key: app.keys.free });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_request');
    }
  });
});

describe('POST /hazards/slr-impact', () => {
  it('needs a paid tier', async () => {
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.free, json: { lat: 24.555, lon: -81.78, scenario: 'high', planning_horizon: 2100 } });
    expect(res.status).toBe(403);
  });

  it('answers depth and inundated area on Key West, screening level, NAVD88', async () => {
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 24.555, lon: -81.78, scenario: 'high', planning_horizon: 2100, allow_surface_model: true, include_geojson: true } });
    expect(res.status).toBe(200);
    expect(res.json.vertical_datum).toBe('NAVD88');
    expect(res.json.elevation.status).toBe('covered');
    expect(res.json.inundation_area.km2).toBeGreaterThan(0);
    expect(res.json.inundation_area.geojson.geometry.type).toBe('MultiPolygon');
    expect(res.json.screening_level).toMatch(/Screening level/);
  });

  it('answers no_bare_earth on Key West unless the caller accepts SRTM, a surface model, and says what to do', async () => {
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 24.555, lon: -81.78, scenario: 'high', planning_horizon: 2100 } });
    expect(res.status).toBe(200);
    expect(res.json.elevation).toMatchObject({ status: 'no_bare_earth', surface_model: { elevation_model_id: 'srtm-1arcsec' } });
    expect(res.json.elevation.what_to_do).toMatch(/POST \/hazards\/elevation-models.*allow_surface_model: true/);
    expect(res.json.water_depth).toBeNull();
    expect(res.json.inundation_area).toBeNull();
    expect(res.json.sources.map((source: { id: string }) => source.id)).not.toContain('srtm');
    expect(res.json.projected_mhhw_navd88.m).toBeGreaterThan(1);
  });

  it('lists the caller\'s imported assets inside the inundated area with their depths', async () => {
    // One asset at the analysed point, one on the mainland far outside the 2 km radius.
    const csv = 'facility_id,name,type,latitude,longitude\nKW-LS-12,Lift Station 12,Lift Station,24.555,-81.78\nTLH-FS-1,Fire Station 1,Fire Station,30.44,-84.28\n';
    const { body, contentType } = await multipartBody({ file: { filename: 'assets.csv', data: csv }, jurisdiction: 'Monroe County' });
    const imported = await app.request('POST', '/assets/import', { key: app.keys.enterprise, body, headers: { 'Content-Type': contentType } });
    expect(imported.status).toBe(201);

    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.enterprise, json: { lat: 24.555, lon: -81.78, scenario: 'high', planning_horizon: 2100, allow_surface_model: true } });
    expect(res.status).toBe(200);
    const names = res.json.affected_assets.assets.map((a: { name: string }) => a.name);
    expect(names).toEqual(['Lift Station 12']);
    const [asset] = res.json.affected_assets.assets;
    // Depth = projected MHHW − ground, both NAVD88, as the answer states them.
    expect(res.json.water_depth.inundated).toBe(true);
    expect(asset.depth.m).toBeGreaterThan(0);
    expect(asset.depth.m).toBeCloseTo(res.json.projected_mhhw_navd88.m - asset.ground_elevation_navd88.m, 3);
    // Another account's assets are never listed.
    const other = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 24.555, lon: -81.78, scenario: 'high', planning_horizon: 2100, allow_surface_model: true } });
    expect(other.json.affected_assets.count).toBe(0);
  });

  it('says a point is inland and gives it no coastal water depth', async () => {
    // East Orange County: no coast, and the lagoon water of the SRTM tile does not reach it.
    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 28.5, lon: -80.95, scenario: 'high', planning_horizon: 2100, allow_surface_model: true } });
    expect(res.status).toBe(200);
    expect(res.json.location_setting.setting).toBe('inland');
    expect(res.json.location_setting.note).toMatch(/Orange County reaches no coast/);
    expect(res.json.water_depth).toBeNull();
    expect(res.json.inundation_area).toBeNull();
    expect(res.json.provenance.datum_epoch.rise_1992_to_2000.m).toBeGreaterThan(0.02);
  });

  it('rejects a point outside Florida and unknown fields', async () => {
    expect((await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 40.7, lon: -74, scenario: 'high', planning_horizon: 2100 } })).status).toBe(400);
    expect((await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 24.5, lon: -81.7, scenario: 'extreme', planning_horizon: 2100 } })).status).toBe(400);
  });
});

describe('POST /hazards/flood-analysis: rainfall ponding of a design storm', () => {
  const storm = { duration_h: 24, return_period_years: 100, source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate, 100-year 24-hour' };
  const analyse = (rainfall?: Record<string, unknown>) => app.request('POST', '/hazards/flood-analysis', {
    key: app.keys.pro,
    json: { boundary_geojson: keyWestBox, components: ['tidal', 'surge', 'rainfall', 'compound'], scenarios: ['intermediate'], planning_horizons: [2050], allow_surface_model: true, ...(rainfall ? { rainfall } : {}) },
  });

  it('fills the depressions with the runoff, conserving its volume, and echoes the storm', async () => {
    const half = await analyse({ ...storm, depth_mm: 200, runoff_coefficient: 0.5 });
    expect(half.status).toBe(200);
    const rainfall = half.json.components.rainfall;
    expect(rainfall.status).toBe('computed');
    expect(rainfall.design_storm).toMatchObject({ depth_mm: 200, source: storm.source, runoff: { runoff_coefficient: 0.5 } });
    expect(rainfall.design_storm.runoff_mm).toBe(100);
    expect(rainfall.scope).toMatch(/no pipes/);
    expect(rainfall.grid.cells).toBeGreaterThan(0);
    const balance = rainfall.volume_balance;
    expect(balance.ponded_m3).toBeGreaterThan(0);
    expect(Math.abs(balance.ponded_m3 + balance.to_open_water_m3 + balance.left_model_m3 - balance.runoff_m3)).toBeLessThanOrEqual(0.01 * balance.runoff_m3);
    for (const lake of rainfall.depressions) {
      expect(['partial', 'full', 'spilling']).toContain(lake.status);
      expect(lake.water_surface_navd88.m).toBeLessThanOrEqual(lake.spill_elevation_navd88.m + 1e-4);
    }
    // The same runoff stated in inches with C = 1 (7.874 in × 25.4 = 200 mm): twice the runoff never ponds less.
    const full = await analyse({ ...storm, depth_in: 200 / 25.4 });
    const doubled = full.json.components.rainfall;
    expect(doubled.design_storm.depth_in).toBeCloseTo(200 / 25.4, 9);
    expect(doubled.design_storm.runoff_mm).toBe(200);
    expect(doubled.volume_balance.runoff_m3).toBeCloseTo(2 * balance.runoff_m3, -1);
    expect(doubled.ponded_volume_m3).toBeGreaterThanOrEqual(rainfall.ponded_volume_m3);
  });

  it('takes the NRCS curve number (TR-55) and answers the compound cases against the tidal and surge levels', async () => {
    const res = await analyse({ ...storm, depth_mm: 200, curve_number: 85 });
    const s = 25400 / 85 - 254;
    const expectedRunoff = (200 - 0.2 * s) ** 2 / (200 + 0.8 * s);
    expect(res.json.components.rainfall.design_storm.runoff_mm).toBeCloseTo(expectedRunoff, 2);
    const compound = res.json.components.compound;
    expect(compound.status).toBe('computed');
    expect(compound.beyond_either_note).toMatch(/normally zero/);
    expect(compound.results).toHaveLength(1);
    const [combo] = compound.results;
    expect(combo.tidal.tailwater_navd88).toEqual(res.json.components.tidal.results[0].design_water_level_navd88);
    const surge100 = res.json.components.surge.results.find((r: { return_period_years: number }) => r.return_period_years === 100);
    expect(combo.surge.tailwater_navd88).toEqual(surge100.design_water_level_navd88);
    for (const c of [combo.tidal, combo.surge]) {
      expect(c.extent.km2).toBeGreaterThan(0);
      expect(c.beyond_either_share).toBeGreaterThanOrEqual(0);
      expect(c.beyond_either_share).toBeLessThanOrEqual(1);
    }
    // A higher sea floods at least as much land.
    expect(combo.surge.extent.km2).toBeGreaterThanOrEqual(combo.tidal.extent.km2);
    expect(compound.still_water_envelope.status).toBe('ok');
  });

  it('without a storm answers needs_design_storm with the depressions and the rain that fills each', async () => {
    const res = await analyse();
    const rainfall = res.json.components.rainfall;
    expect(rainfall.status).toBe('needs_design_storm');
    expect(rainfall.design_storm_needed).toMatch(/Atlas 14/);
    expect(rainfall.count).toBeGreaterThan(0);
    for (const d of rainfall.depressions) {
      // All rain runs off: the rain that fills it is its capacity spread over its catchment.
      expect(d.fill_rain_mm).toBeCloseTo((1000 * d.capacity_m3) / d.catchment_area_m2, 0);
    }
    expect(res.json.components.compound.status).toBe('ok');
  });

  it.each([
    ['both depths', { ...storm, depth_mm: 200, depth_in: 8 }, 'rainfall.depth_mm'],
    ['no depth', { ...storm }, 'rainfall.depth_mm'],
    ['no source', { depth_mm: 200, duration_h: 24, return_period_years: 100 }, 'rainfall.source'],
    ['a coefficient above 1', { ...storm, depth_mm: 200, runoff_coefficient: 1.5 }, 'rainfall.runoff_coefficient'],
    ['a curve number below 30', { ...storm, depth_mm: 200, curve_number: 20 }, 'rainfall.curve_number'],
    ['two runoff models', { ...storm, depth_mm: 200, runoff_coefficient: 0.5, curve_number: 80 }, 'rainfall.curve_number'],
  ])('answers 400 for a storm with %s', async (_name, rainfall, field) => {
    const res = await analyse(rainfall);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_request');
    expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

/** Polls a flood-analysis job until it ends. */
async function finishedJob(jobPath: string, key: string) {
  // Locally the job runs in this process: while it holds the event loop for seconds, a kept-alive
  // connection may be closed under a poll, so a reset poll (an idempotent GET) is simply repeated.
  const poll = async () => {
    try {
      return (await app.request('GET', jobPath, { key })).json;
    } catch (error) {
      if ((error as Error).name !== 'TypeError') throw error;
      return { status: 'running' };
    }
  };
  let job;
  for (let attempt = 0; attempt < 120; attempt++) {
    job = await poll();
    if (job.status === 'succeeded' || job.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return job;
}

describe('PUT/GET /hazards/design-storms/{jurisdiction}', () => {
  const storm = { depth_in: 12, duration_h: 24, return_period_years: 100, source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate, 100-year 24-hour', runoff_coefficient: 0.8 };

  it('stores the account\'s storm per jurisdiction and later analyses of it use it, echoed with its source', async () => {
    const put = await app.request('PUT', '/hazards/design-storms/Monroe%20County', { key: app.keys.enterprise, json: storm });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ jurisdiction_name: 'Monroe County', design_storm: { depth_in: 12, source: storm.source, runoff: { runoff_coefficient: 0.8 } } });
    expect(put.json.design_storm.depth_mm).toBeCloseTo(12 * 25.4, 9);
    const got = await app.request('GET', '/hazards/design-storms/Monroe%20County', { key: app.keys.enterprise });
    expect(got.json).toEqual(put.json);
    // Another jurisdiction, another account: none stored.
    expect((await app.request('GET', '/hazards/design-storms/Pinellas%20County', { key: app.keys.enterprise })).status).toBe(404);
    expect((await app.request('GET', '/hazards/design-storms/Monroe%20County', { key: app.keys.pro })).status).toBe(404);

    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.enterprise, json: { jurisdiction: 'Monroe County', components: ['rainfall'], scenarios: ['intermediate'], planning_horizons: [2050], allow_surface_model: true } });
    const job = res.status === 202 ? (await finishedJob(new URL(res.headers.get('location')!).pathname.replace(/^\/api/, ''), app.keys.enterprise)).result : res.json;
    const rainfall = job.components.rainfall;
    expect(rainfall.status).toBe('computed');
    expect(rainfall.design_storm).toMatchObject({ source: storm.source, stored_for_jurisdiction: 'Monroe County', runoff_mm: 243.84 });
    const balance = rainfall.volume_balance;
    expect(Math.abs(balance.ponded_m3 + balance.to_open_water_m3 + balance.left_model_m3 - balance.runoff_m3)).toBeLessThanOrEqual(0.01 * balance.runoff_m3);
  });

  it('answers 400 for an unknown jurisdiction or a storm without its source', async () => {
    const unknown = await app.request('PUT', '/hazards/design-storms/Narnia', { key: app.keys.enterprise, json: storm });
    expect(unknown.status).toBe(400);
    const { source: _source, ...unsourced } = storm;
    const bad = await app.request('PUT', '/hazards/design-storms/Monroe%20County', { key: app.keys.enterprise, json: unsourced });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { field: string }) => e.field)).toContain('source');
  });
});

describe('POST /hazards/flood-analysis', () => {
  it('analyses a small boundary with the statute defaults', async () => {
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: keyWestBox, allow_surface_model: true } });
    expect(res.status).toBe(200);
    expect(res.json.scenarios).toEqual(['intermediate_low', 'intermediate']);
    expect(res.json.components.tidal.status).toBe('ok');
    expect(res.json.components.surge.basis).toBe('tide_gauge_statistics');
    expect(res.json.components.rainfall.status).toBe('needs_design_storm');
    expect(res.json.components.rainfall.design_storm_needed).toMatch(/Atlas 14/);
    expect(res.json.components.compound.status).toBe('ok');
    expect(res.json.components.surge.label).toMatch(/not a NOAA or FEMA storm surge model/);
    expect(res.json.components.surge.noaa_official_1pct.above_mhhw.m).toBe(0.74);
    expect(res.json.components.surge.current_conditions[0].return_period_years).toBe(100);
  });

  it('does not carry a surge fit into another surge regime (Cedar Key)', async () => {
    const cedarKey = { type: 'Polygon', coordinates: [[[-83.05, 29.12], [-83.02, 29.12], [-83.02, 29.15], [-83.05, 29.15], [-83.05, 29.12]]] };
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: cedarKey, components: ['surge'] } });
    expect(res.status).toBe(200);
    expect(res.json.components.surge.status).toBe('no_data');
    expect(res.json.components.surge.reason).toMatch(/Big Bend/);
  });

  it.each([
    ['open ring', { type: 'Polygon', coordinates: [keyWestBox.coordinates[0]!.slice(0, 4)] }, /not closed/],
    ['self-intersection', { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.78, 24.57], [-81.78, 24.54], [-81.81, 24.57], [-81.81, 24.54]]] }, /intersects itself/],
    ['outside Florida', { type: 'Polygon', coordinates: [[[-90.2, 29.9], [-90.1, 29.9], [-90.1, 30], [-90.2, 30], [-90.2, 29.9]]] }, /Florida/],
    ['too large', { type: 'Polygon', coordinates: [[[-84, 27], [-82, 27], [-82, 29], [-84, 29], [-84, 27]]] }, /km²/],
    ['wrong type', { type: 'Point', coordinates: [-81.8, 24.55] }, /Polygon or MultiPolygon/],
  ])('answers 400 for a boundary with %s', async (_name, boundary, reason) => {
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: boundary } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_request');
    expect(res.json.errors[0].field).toMatch(/^boundary_geojson/);
    expect(res.json.errors[0].message).toMatch(reason);
  });

  it('runs a county-sized analysis as a job: 202, then the result at the job URL', async () => {
    const monroe = countyBoundaryByFips('12087')!.geometry;
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.enterprise, json: { boundary_geojson: monroe } });
    expect(res.status).toBe(202);
    const jobPath = new URL(res.headers.get('location')!).pathname.replace(/^\/api/, '');
    expect(jobPath).toBe(`/hazards/jobs/${res.json.job_id}`);
    expect((await app.request('GET', jobPath, { key: app.keys.pro })).status).toBe(404);
    const job = await finishedJob(jobPath, app.keys.enterprise);
    expect(job.status).toBe('succeeded');
    expect(job.result.components.tidal.results).toHaveLength(4);
    expect(job.result.boundary.counties.map((c: { name: string }) => c.name)).toContain('Monroe');
  });
});

describe('GET /hazards/flood-events', () => {
  it('pages through events near Key West, newest first', async () => {
    const first = await app.request('GET', '/hazards/flood-events?location=24.555,-81.78&limit=5&event_type=hurricane,tropical_storm', { key: app.keys.free });
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(5);
    for (const event of first.json.data) expect(event.distance_km).toBeLessThanOrEqual(100);
    const second = await app.request('GET', `/hazards/flood-events?location=24.555,-81.78&limit=5&event_type=hurricane,tropical_storm&cursor=${first.json.next_cursor}`, { key: app.keys.free });
    expect(second.json.data[0].date <= first.json.data[4].date).toBe(true);
    expect(second.json.data.map((e: { event_id: string }) => e.event_id)).not.toContain(first.json.data[4].event_id);
  });

  it('filters by date range and rejects a bad range or cursor', async () => {
    const res = await app.request('GET', '/hazards/flood-events?location=Monroe%20County&date_range=2017-01-01..2017-12-31&radius_km=300', { key: app.keys.free });
    expect(res.status).toBe(200);
    // Irma's two Florida landfall records: Cudjoe Key (Monroe) and Marco Island (Collier).
    const irma = res.json.data.filter((e: { event_id: string }) => e.event_id.startsWith('hurdat2:AL112017:'));
    expect(irma.map((e: { location: { county: string } }) => e.location.county).sort()).toEqual(['Collier', 'Monroe']);
    expect((await app.request('GET', '/hazards/flood-events?location=Monroe%20County&date_range=2018-01-01..2017-01-01', { key: app.keys.free })).status).toBe(400);
    expect((await app.request('GET', '/hazards/flood-events?location=Monroe%20County&cursor=xyz', { key: app.keys.free })).status).toBe(400);
  });
});

describe('the ground of the hazard answers', () => {
  it('names the bare-earth model that answers and uses an asset\'s surveyed ground before the DEM', async () => {
    // 2.0 ft NAVD88 surveyed at the pump station; the bundled Tampa quad reads about 3.1 ft there.
    const csv = 'facility_id,name,type,latitude,longitude,ground_elevation_ft_navd88\nTPA-PS-3,Pump Station 3,Lift Station,27.93,-82.44,2.0\n';
    const { body, contentType } = await multipartBody({ file: { filename: 'assets.csv', data: csv }, jurisdiction: 'Hillsborough County' });
    const imported = await app.request('POST', '/assets/import', { key: app.keys.enterprise, body, headers: { 'Content-Type': contentType } });
    expect(imported.status).toBe(201);

    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.enterprise, json: { lat: 27.93, lon: -82.44, scenario: 'intermediate', planning_horizon: 2076, radius_km: 1, include_geojson: true } });
    expect(res.status).toBe(200);
    expect(res.json.elevation.source).toMatchObject({ elevation_model_id: 'usgs-24k-tampa', surface_model: false, vertical_accuracy_m: 0.76 });
    // The quad alone answers here: SRTM is not among the answer's sources.
    expect(res.json.elevation.sources.map((source: { elevation_model_id: string }) => source.elevation_model_id)).toEqual(['usgs-24k-tampa']);
    expect(res.json.sources.map((source: { id: string }) => source.id)).not.toContain('srtm');
    const [asset] = res.json.affected_assets.assets;
    expect(asset).toMatchObject({ name: 'Pump Station 3', ground_basis: 'surveyed_ground', ground_column: 'ground_elevation_ft_navd88' });
    expect(asset.ground_elevation_navd88.ft).toBeCloseTo(2.0, 3);
    expect(asset.depth.m).toBeCloseTo(asset.water_level_navd88.m - 2.0 * 1200 / 3937, 3);
    // The point's own ground comes from the model, not from the asset.
    expect(res.json.ground_elevation_navd88.ft).toBeGreaterThan(2.5);
    expect(res.json.existing_water.open_water.acres).toBeGreaterThan(0);
    expect(res.json.inundation_area.geojson.properties.acres).toBeGreaterThanOrEqual(res.json.inundation_area.acres);
  });

  it('reads a first-floor elevation from any column the import\'s column_map names', async () => {
    const csv = 'facility_id,name,type,latitude,longitude,FFE\nTPA-FS-9,Fire Station 9,Fire Station,27.9305,-82.4405,1.5\n';
    const columnMap = JSON.stringify({ FFE: 'first_floor_elevation_ft_navd88' });
    const { body, contentType } = await multipartBody({ file: { filename: 'assets.csv', data: csv }, jurisdiction: 'Hillsborough County', column_map: columnMap });
    const imported = await app.request('POST', '/assets/import', { key: app.keys.pro, body, headers: { 'Content-Type': contentType } });
    expect(imported.status).toBe(201);
    expect(imported.json.report.columns.surveyed).toEqual([{ column: 'FFE', field: 'first_floor_elevation_ft_navd88' }]);

    const res = await app.request('POST', '/hazards/slr-impact', { key: app.keys.pro, json: { lat: 27.9305, lon: -82.4405, scenario: 'high', planning_horizon: 2076, radius_km: 1 } });
    expect(res.status).toBe(200);
    const asset = res.json.affected_assets.assets.find((a: { name: string }) => a.name === 'Fire Station 9');
    expect(asset).toMatchObject({ ground_basis: 'surveyed_first_floor', ground_column: 'first_floor_elevation_ft_navd88' });
    expect(asset.ground_elevation_navd88.ft).toBeCloseTo(1.5, 3);
  });

  it('flags the SRTM fallback as a surface model and returns extents and existing water per scenario and horizon on request', async () => {
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: keyWestBox, components: ['tidal'], include_extents: true, allow_surface_model: true } });
    expect(res.status).toBe(200);
    expect(res.json.elevation.source).toMatchObject({ elevation_model_id: 'srtm-1arcsec', surface_model: true });
    expect(res.json.elevation.surface_model_flags.share_of_cells).toBeGreaterThan(0);
    expect(res.json.sources.map((source: { id: string }) => source.id)).toContain('srtm');
    expect(res.json.inundation_extents).toHaveLength(4);
    for (const extent of res.json.inundation_extents) {
      expect(extent.type).toBe('Feature');
      expect(extent.geometry.type).toBe('MultiPolygon');
    }
    for (const result of res.json.components.tidal.results) {
      expect(result.existing_water.open_water.acres).toBeGreaterThan(0);
      expect(result.existing_water.year).toBeGreaterThanOrEqual(2026);
    }
  });

  it('rejects include_extents that is not a boolean', async () => {
    const res = await app.request('POST', '/hazards/flood-analysis', { key: app.keys.pro, json: { boundary_geojson: keyWestBox, include_extents: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].field).toBe('include_extents');
  });
});
