import path from 'node:path';
import { readCsvRows } from '../helpers/v1-risk-csv';
import { hazardsAtLocation, LANDFALL_RADIUS_KM } from '../../shared/domain/risk/answers';
import { floridaCountyBoundaries } from '../../shared/domain/hazards/florida-counties';
import { countyAtPoint, SHORELINE_TOLERANCE_KM } from '../../shared/domain/risk/county-at-point';
import { resolvePlace, type RiskPlace } from '../../shared/domain/risk/place';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { distanceKm as km, hurdatLandfalls } from '../science/readers/raw';

/**
 * The hazards-at-a-location answer checked against the raw files: HURDAT2's landfall records (own
 * line reader, own great-circle distance) and the NRI county table; and the shoreline tolerance
 * of the county lookup on points just off the coast.
 */

const flatSea: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
const nri = readCsvRows(path.join(__dirname, '../../shared/data/v1/nri/NRI_Table_Counties_Florida_v1.19.0.csv'));

function placeAt(lat: number, lon: number): RiskPlace {
  const result = resolvePlace({ lat, lon });
  if (!result.ok) throw new Error(result.message);
  return result.place;
}

describe('hurricane landfalls near a place, from HURDAT2', () => {
  const records = hurdatLandfalls();

  it.each([
    ['Key West', 24.5551, -81.78],
    ['Panama City', 30.1588, -85.6602],
    ['Orlando', 28.5383, -81.3792],
  ] as const)('%s: every landfall record within 100 km and none beyond, split at 64 kt', async (_name, lat, lon) => {
    const answer = await hazardsAtLocation(placeAt(lat, lon), { assessmentYear: 2026, tides: flatSea });
    const section = answer.hurricane_landfalls_within_100km;
    expect(section.radius_km).toBe(LANDFALL_RADIUS_KM);
    expect(LANDFALL_RADIUS_KM).toBe(100);
    // Records clearly inside the radius (a kilometre of margin for the two distance formulas).
    const near = records.filter((r) => km({ lat, lon }, r) < 99);
    const far = records.filter((r) => km({ lat, lon }, r) > 101);
    const listed = (r: { storm: string; lat: number; lon: number }) => section.events.some((e) => e.event_id.includes(r.storm) && e.lat === r.lat && e.lon === r.lon);
    expect(near.length).toBeGreaterThan(0);
    for (const r of near) expect([r.storm, r.time, listed(r)]).toEqual([r.storm, r.time, true]);
    for (const r of far) expect([r.storm, r.time, listed(r)]).toEqual([r.storm, r.time, false]);
    expect(section.count).toBe(section.events.length);
    const hurricanes = section.events.filter((e) => e.wind_kt! >= 64).length;
    expect(section.hurricanes).toBe(hurricanes);
    expect(section.tropical_storms).toBe(section.count - hurricanes);
    expect(hurricanes).toBeGreaterThan(0);
    for (const e of section.events) {
      const record = records.find((r) => e.event_id.includes(r.storm) && r.lat === e.lat && r.lon === e.lon)!;
      expect(record).toBeDefined();
      expect(e.wind_kt).toBe(record.wind);
      expect(e.type).toBe(record.wind >= 64 ? 'hurricane' : 'tropical_storm');
      expect(Math.abs(e.distance_km! - km({ lat, lon }, record))).toBeLessThan(1);
    }
  });

  it('puts unscored hazards after every scored one, even a score below 1 (Holmes County\'s ice storm)', async () => {
    const place = resolvePlace({ county_fips: '12059' });
    if (!place.ok) throw new Error(place.message);
    const answer = await hazardsAtLocation(place.place, { assessmentYear: 2026, tides: flatSea });
    const holmes = nri.find((r) => r.STCOFIPS === '12059')!;
    const rated = new Set(['Very High', 'Relatively High', 'Relatively Moderate', 'Relatively Low', 'Very Low']);
    const codes = Object.keys(holmes).filter((k) => k.endsWith('_RISKS')).map((k) => k.slice(0, -6));
    const scored = codes.filter((c) => rated.has(holmes[`${c}_RISKR`]!)).sort((a, b) => Number(holmes[`${b}_RISKS`]) - Number(holmes[`${a}_RISKS`]));
    expect(Math.min(...scored.map((c) => Number(holmes[`${c}_RISKS`])))).toBeLessThan(1);
    expect(answer.hazards.slice(0, scored.length).map((h) => h.code)).toEqual(scored);
    expect(answer.hazards.slice(scored.length).every((h) => h.risk_score === null)).toBe(true);
    expect(answer.hazards).toHaveLength(codes.length);
  });

  it('orders the county\'s hazards by NRI risk score, unscored last', async () => {
    const answer = await hazardsAtLocation(placeAt(24.5551, -81.78), { assessmentYear: 2026, tides: flatSea });
    const monroe = nri.find((r) => r.STCOFIPS === '12087')!;
    const scores = answer.hazards.map((h) => h.risk_score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const top = answer.hazards[0]!;
    const publishedMax = Math.max(...answer.hazards.map((h) => Number(monroe[`${h.code}_RISKS`] || -1)));
    expect(top.risk_score).toBeCloseTo(publishedMax, 6);
    // The table's file name carries its release.
    for (const h of answer.hazards) expect(h.source).toMatch(/^FEMA National Risk Index 1\.19\.0\b.*, county level$/);
  });

  it('gives a coastal place tidal figures and NOAA sources, an inland one a note instead', async () => {
    const coastal = await hazardsAtLocation(placeAt(24.5551, -81.78), { assessmentYear: 2026, tides: flatSea });
    expect(coastal.sea_level_rise).not.toBeNull();
    expect(coastal.high_tide_flooding?.gauges.map((g) => g.noaa_id)).toContain('8724580');
    expect(coastal).not.toHaveProperty('coastal_note');
    expect(coastal.sources.map((s) => s.id)).toEqual(['fema_nri', 'hurdat2', 'us_atlas', 'noaa_tr2022', 'noaa_datums', 'noaa_htf', 'uhslc_daily_max_peaks']);
    expect(coastal.sources[0]).toMatchObject({ name: expect.stringContaining('1.19.0'), url: expect.stringMatching(/^https:\/\//) });

    const inland = await hazardsAtLocation(placeAt(28.5383, -81.3792), { assessmentYear: 2026, tides: flatSea });
    expect(inland.sea_level_rise).toBeNull();
    expect(inland.high_tide_flooding).toBeNull();
    expect(inland.coastal_note).toMatch(/^Inland county/);
    expect(inland.sources.map((s) => s.id)).toEqual(['fema_nri', 'hurdat2', 'us_atlas']);
    expect(inland.location).not.toHaveProperty('distance_to_boundary_km');
  });
});

describe('points just off the shore', () => {
  // Nearest distance from the point to the county polygon's edges, by sampling each edge every
  // ~50 m with the haversine distance: independent of the lookup's planar segment formula.
  function edgeDistanceKm(point: { lat: number; lon: number }, fips: string): number {
    const county = floridaCountyBoundaries().find((c) => c.fips === fips)!;
    const rings = county.geometry.type === 'Polygon' ? county.geometry.coordinates : county.geometry.coordinates.flat();
    let best = Infinity;
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) {
        const [a, b] = [ring[i - 1]!, ring[i]!];
        const steps = Math.max(1, Math.ceil(km({ lat: a[1]!, lon: a[0]! }, { lat: b[1]!, lon: b[0]! }) / 0.05));
        for (let s = 0; s <= steps; s++) {
          const t = s / steps;
          best = Math.min(best, km(point, { lat: a[1]! + t * (b[1]! - a[1]!), lon: a[0]! + t * (b[0]! - a[0]!) }));
        }
      }
    }
    return best;
  }

  it('places a point a few kilometres off Miami Beach in Miami-Dade, saying how far it is from the boundary', () => {
    const point = { lat: 25.79, lon: -80.09 };
    const distance = edgeDistanceKm(point, '12086');
    expect(distance).toBeGreaterThan(0.5);
    expect(distance).toBeLessThan(SHORELINE_TOLERANCE_KM);
    const match = countyAtPoint(point)!;
    expect(match).toMatchObject({ method: 'nearest_boundary', county: { fips: '12086' } });
    expect(Math.abs(match.distance_km - distance)).toBeLessThan(0.05);
    expect(resolvePlace(point)).toMatchObject({ ok: true, place: { matched_by: 'nearest_boundary', distance_to_boundary_km: match.distance_km, coastal: true } });
  });

  it('states the distance to the boundary in the answer\'s location when the point was placed by it', async () => {
    const answer = await hazardsAtLocation(placeAt(25.79, -80.09), { assessmentYear: 2026, tides: flatSea });
    expect(answer.location).toMatchObject({ county_fips: '12086', matched_by: 'nearest_boundary', point_basis: 'requested_point' });
    expect(answer.location.distance_to_boundary_km).toBeGreaterThan(0.5);
  });

  it.each([
    // 3 km off the middle of a 29 km straight stretch of Flagler's coast in the census outline: the nearest
    // point is inside the segment, 14 km from either end.
    ['off Flagler Beach', { lat: 29.5589, lon: -81.129 }, '12035'],
    // Across the state line, where a coordinate may stray: Okaloosa's straight northern line.
    ['in Alabama just north of Okaloosa', { lat: 31.0231, lon: -86.7346 }, '12091'],
  ] as const)('measures to the nearest point of a long edge, not only its vertices: %s', (_name, point, fips) => {
    const distance = edgeDistanceKm(point, fips);
    expect(distance).toBeGreaterThan(2.5);
    expect(distance).toBeLessThan(SHORELINE_TOLERANCE_KM);
    const match = countyAtPoint(point)!;
    expect(match).toMatchObject({ method: 'nearest_boundary', county: { fips } });
    expect(Math.abs(match.distance_km - distance)).toBeLessThan(0.05);
  });

  it('measures an outline that repeats a vertex (Leon and Gadsden share one in the census file) like any other', () => {
    const point = { lat: 30.73, lon: -84.4 };
    const toLeon = edgeDistanceKm(point, '12073');
    const toGadsden = edgeDistanceKm(point, '12039');
    expect(Math.min(toLeon, toGadsden)).toBeLessThan(SHORELINE_TOLERANCE_KM);
    const match = countyAtPoint(point)!;
    expect(match.county.fips).toBe(toLeon < toGadsden ? '12073' : '12039');
    expect(Math.abs(match.distance_km - Math.min(toLeon, toGadsden))).toBeLessThan(0.05);
  });

  it.each([
    // Off the Broward / Palm Beach line (the Hillsboro Canal), within 5 km of both outlines: north of
    // it Palm Beach is nearer, south of it Broward, whichever the lookup measures first.
    ['north of the line', { lat: 26.345, lon: -80.06 }],
    ['south of the line', { lat: 26.3, lon: -80.06 }],
  ] as const)('between two counties within the tolerance, picks the nearer: %s', (_name, point) => {
    const toPalmBeach = edgeDistanceKm(point, '12099');
    const toBroward = edgeDistanceKm(point, '12011');
    expect(Math.max(toPalmBeach, toBroward)).toBeLessThan(SHORELINE_TOLERANCE_KM);
    expect(Math.abs(toPalmBeach - toBroward)).toBeGreaterThan(0.2);
    const match = countyAtPoint(point)!;
    expect(match.method).toBe('nearest_boundary');
    expect(match.county.fips).toBe(toPalmBeach < toBroward ? '12099' : '12011');
    expect(Math.abs(match.distance_km - Math.min(toPalmBeach, toBroward))).toBeLessThan(0.05);
  });

  it('refuses a point inside a county\'s bounding box but farther than 5 km from every outline (Florida Bay)', () => {
    const bay = { lat: 24.95, lon: -80.9 };
    const monroe = floridaCountyBoundaries().find((c) => c.fips === '12087')!;
    expect(bay.lon > monroe.bbox[0] && bay.lon < monroe.bbox[2] && bay.lat > monroe.bbox[1] && bay.lat < monroe.bbox[3]).toBe(true);
    for (const county of floridaCountyBoundaries()) expect([county.fips, edgeDistanceKm(bay, county.fips) > SHORELINE_TOLERANCE_KM + 0.5]).toEqual([county.fips, true]);
    expect(countyAtPoint(bay)).toBeUndefined();
  });

  it('refuses a point beyond the 5 km tolerance, and picks the nearer of two counties', () => {
    const offshore = { lat: 25.79, lon: -79.98 };
    expect(edgeDistanceKm(offshore, '12086')).toBeGreaterThan(SHORELINE_TOLERANCE_KM + 0.5);
    expect(countyAtPoint(offshore)).toBeUndefined();
    expect(SHORELINE_TOLERANCE_KM).toBe(5);
    // Off the Broward / Palm Beach line at Boca Raton inlet, slightly north: Palm Beach is nearer.
    const boca = { lat: 26.36, lon: -80.05 };
    const toPalmBeach = edgeDistanceKm(boca, '12099');
    const toBroward = edgeDistanceKm(boca, '12011');
    const match = countyAtPoint(boca)!;
    expect(match.method).toBe('nearest_boundary');
    expect(match.county.fips).toBe(toPalmBeach < toBroward ? '12099' : '12011');
  });
});
