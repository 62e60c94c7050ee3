import { areaDatumCheck, assetDatumCheck } from '../../shared/domain/hazards/datum-check';
import { selectGauges } from '../../shared/domain/hazards/gauges';
import { weightedMhhwNavd88 } from '../../shared/domain/hazards/tidal';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';
import { distanceKm, ncGauges, packageDatums, packageFloridaStations, sameWaterStation, twoClosestUsable } from './readers/raw';

/**
 * The local datum check against the NOAA station data itself (@neaps/tide-database, read here on
 * its own): which stations stand near a place, their MHHW − NAVD88, and whether the MHHW an answer
 * took from the sea level gauges is within a tenth of a metre of the nearest one's.
 */
const stations = packageFloridaStations();
const reference = stations.filter((s) => s.type === 'reference');
const noElevation: ElevationSource = { info: () => ({ name: 'none', vertical_datum: 'NAVD88', native_resolution: 'none' }), grid: async () => undefined };
/** The package keeps float32 datums; the product keeps them to the mm. */
const MM = 0.0011;

async function answerAt(point: { lat: number; lon: number }) {
  return assessSlrImpact({ point, scenario: 'intermediate', planningHorizon: 2070, percentile: '50', radiusKm: 1, includeGeoJson: false }, { elevation: noElevation, assets: [] });
}

function nearestReference(point: { lat: number; lon: number }) {
  return reference.map((s) => ({ s, d: distanceKm(point, s) })).filter((x) => x.d <= 10).sort((a, b) => a.d - b.d);
}

describe('local datum check, recomputed from the NOAA station data', () => {
  it("finds the gauges' MHHW 0.57 m above downtown Jacksonville's own station (the gauges are Fernandina Beach and Cedar Key; the river damps the tide)", async () => {
    const point = { lat: 30.3255, lon: -81.659 };
    const answer = await answerAt(point);
    const [a, b] = twoClosestUsable(point);
    const datums = packageDatums([a.g.id, b.g.id]);
    const used = a.w * (datums[a.g.id]!.MHHW! - datums[a.g.id]!.NAVD88!) + b.w * (datums[b.g.id]!.MHHW! - datums[b.g.id]!.NAVD88!);
    const near = nearestReference(point);
    expect(near[0]!.s.id).toBe('8720226');
    const check = answer.local_datum_check;
    expect(check.status).toBe('differs');
    expect(Math.abs(check.used_mhhw_navd88.m - used)).toBeLessThan(MM);
    expect(check.stations.map((s) => s.noaa_id)).toEqual(near.slice(0, 5).map((x) => x.s.id));
    check.stations.forEach((listed, i) => {
      expect(Math.abs(listed.mhhw_navd88.m - near[i]!.s.mhhwNavd88)).toBeLessThan(MM);
      expect(Math.abs(listed.difference.m - (near[i]!.s.mhhwNavd88 - used))).toBeLessThan(MM);
      expect(Math.abs(listed.distance_km! - near[i]!.d)).toBeLessThan(0.02);
    });
    expect(near[0]!.s.mhhwNavd88 - used).toBeLessThan(-0.5);
    expect(check.note).toContain("the station's MHHW is used here");
  });

  it("uses downtown Jacksonville's own station, 8720226, for MHHW and the projected MHHW, and names it with its distance and epoch", async () => {
    const point = { lat: 30.3255, lon: -81.659 };
    const answer = await answerAt(point);
    const local = sameWaterStation(point, reference)!;
    expect(local.s.id).toBe('8720226');
    expect(Math.abs(answer.mhhw_navd88.m - local.s.mhhwNavd88)).toBeLessThan(MM);
    expect(answer.mhhw_source).toMatchObject({ kind: 'noaa_station', station: { noaa_id: '8720226', name: local.s.name, epoch: '1983–2001' } });
    expect(Math.abs(answer.mhhw_source.station!.distance_km - local.d)).toBeLessThan(0.01);
    // Projected MHHW: the station's MHHW + the gauges' 1992→2000 rise and projected rise, from the NOAA 2022 file.
    const [a, b] = twoClosestUsable(point);
    const nc = new Map(ncGauges().map((g) => [g.id, g]));
    const epoch = (id: string) => (nc.get(id)!.trajectory(1, 2000) - nc.get(id)!.trajectory(1, 1992)) / 1000;
    const rise = (a.w * nc.get(a.g.id)!.total('intermediate', 1, 2070) + b.w * nc.get(b.g.id)!.total('intermediate', 1, 2070)) / 1000;
    expect(Math.abs(answer.projected_mhhw_navd88.m - (local.s.mhhwNavd88 + a.w * epoch(a.g.id) + b.w * epoch(b.g.id) + rise))).toBeLessThan(MM);
  });

  it('keeps the gauges\' MHHW where no station stands within 10 km, and says so', async () => {
    const point = { lat: 28.5383, lon: -81.3792 }; // Orlando
    expect(sameWaterStation(point, reference)).toBeUndefined();
    const answer = await answerAt(point);
    expect(answer.mhhw_source.kind).toBe('sea_level_gauges');
    expect(answer.mhhw_navd88).toEqual(answer.local_datum_check.used_mhhw_navd88);
  });

  it('stores on an asset in downtown Jacksonville the nearest station, its MHHW and the difference from its gauges\' MHHW', () => {
    const point = { lat: 30.3255, lon: -81.659 };
    const [a, b] = twoClosestUsable(point);
    const datums = packageDatums([a.g.id, b.g.id]);
    const used = a.w * (datums[a.g.id]!.MHHW! - datums[a.g.id]!.NAVD88!) + b.w * (datums[b.g.id]!.MHHW! - datums[b.g.id]!.NAVD88!);
    const nearest = nearestReference(point)[0]!;
    // The MHHW the flood analysis hands to the exposure at this place (its own two gauges).
    const check = assetDatumCheck(point, weightedMhhwNavd88(selectGauges(point)));
    expect(check.status).toBe('differs');
    expect(Math.abs(check.mhhw_used_navd88_m - used)).toBeLessThan(MM);
    expect(check.station!.noaa_id).toBe(nearest.s.id);
    expect(Math.abs(check.station!.mhhw_navd88_m - nearest.s.mhhwNavd88)).toBeLessThan(MM);
    expect(Math.abs(check.station!.distance_km - nearest.d)).toBeLessThan(0.01);
    expect(Math.abs(check.difference_m! - (nearest.s.mhhwNavd88 - used))).toBeLessThan(MM);
  });

  it('never lists a subordinate station, whose datums are often copied from its reference (Jacksonville Navy Fuel Depot, 8.8 km away, carries Mayport-like datums)', async () => {
    const point = { lat: 30.3255, lon: -81.659 };
    const subordinate = stations.find((s) => s.id === '8720215')!;
    expect(subordinate.type).toBe('subordinate');
    expect(distanceKm(point, subordinate)).toBeLessThan(10);
    const listed = (await answerAt(point)).local_datum_check.stations.map((s) => s.noaa_id);
    const types = new Map(stations.map((s) => [s.id, s.type]));
    expect(listed.length).toBeGreaterThan(0);
    for (const id of listed) expect(types.get(id)).toBe('reference');
  });

  it.each([
    { place: 'Melbourne, on the Indian River Lagoon', lat: 28.0836, lon: -80.6081, status: 'differs' },
    { place: 'Key West', lat: 24.5551, lon: -81.78, status: 'agrees' },
    { place: 'Fort Myers', lat: 26.6406, lon: -81.8723, status: 'agrees' },
    { place: 'Pensacola', lat: 30.4213, lon: -87.2169, status: 'agrees' },
    { place: 'Orlando, inland', lat: 28.5383, lon: -81.3792, status: 'no_station_nearby' },
  ])('$place: $status', async ({ lat, lon, status }) => {
    const point = { lat, lon };
    const answer = await answerAt(point);
    const check = answer.local_datum_check;
    const near = nearestReference(point);
    const local = sameWaterStation(point, reference);
    expect(local?.s.id).toBe(near[0]?.s.id);
    // The answer's MHHW is the station's; the check compares the gauges' with it.
    expect(Math.abs(answer.mhhw_navd88.m - (local ? local.s.mhhwNavd88 : check.used_mhhw_navd88.m))).toBeLessThan(MM);
    const expected = near.length === 0 ? 'no_station_nearby' : Math.abs(near[0]!.s.mhhwNavd88 - check.used_mhhw_navd88.m) > 0.1 ? 'differs' : 'agrees';
    expect(check.status).toBe(expected);
    expect(check.status).toBe(status);
    expect(check.stations.map((s) => s.noaa_id)).toEqual(near.slice(0, 5).map((x) => x.s.id));
  });

  it("over Brevard County's bounding box: every reference station in it, the lagoon's microtidal Melbourne Causeway the furthest from Trident Pier's MHHW", () => {
    const bbox = [-80.99, 27.82, -80.44, 28.79] as const;
    const inBox = reference.filter((s) => s.lon >= bbox[0] && s.lon <= bbox[2] && s.lat >= bbox[1] && s.lat <= bbox[3]);
    const trident = stations.find((s) => s.id === '8721604')!.mhhwNavd88;
    const check = areaDatumCheck([...bbox], trident);
    expect(check.stations_in_bbox).toBe(inBox.length);
    expect(inBox.length).toBeGreaterThan(1);
    const heights = inBox.map((s) => s.mhhwNavd88);
    expect(Math.abs(check.range!.min.m - Math.min(...heights))).toBeLessThan(MM);
    expect(Math.abs(check.range!.max.m - Math.max(...heights))).toBeLessThan(MM);
    expect(check.differing).toBe(inBox.filter((s) => Math.abs(s.mhhwNavd88 - trident) > 0.1).length);
    expect(check.stations[0]!.noaa_id).toBe('8721843');
    expect(check.status).toBe('differs');
  });
});
