import { areaDatumCheck, assetDatumCheck, DATUM_CHECK_RADIUS_KM, DATUM_STATIONS, localDatumStation, pointDatumCheck, type DatumStation } from '../../shared/domain/hazards/datum-check';

/** Stations due north of the origin: 0.009° of latitude is about 1 km. */
const at = (km: number, mhhw: number, id = `s${km}`): DatumStation => ({ noaa_id: id, name: `Station ${id}`, lat: km * 0.0089932, lon: 0, mhhw_navd88_m: mhhw });
const origin = { lat: 0, lon: 0 };

describe('pointDatumCheck', () => {
  it('takes the nearest station within the radius: differs beyond 0.1 m, and says which way the figures err', () => {
    const below = pointDatumCheck(origin, 0.5, [at(3, 0.2), at(1, 0.35), at(2, 0.5)]);
    expect(below.status).toBe('differs');
    expect(below.stations.map((s) => s.noaa_id)).toEqual(['s1', 's2', 's3']);
    expect(below.stations[0]).toMatchObject({ distance_km: 1, mhhw_navd88: { m: 0.35 }, difference: { m: -0.15 } });
    expect(below.note).toContain('0.15 m below the 0.5 m');
    expect(below.note).toContain('too high');
    // Two stations on different waters (0.25 m apart) at comparable distances: none is applied, the nearest is reported.
    const above = pointDatumCheck(origin, 0.1, [at(1, 0.35), at(1.5, 0.6)]);
    expect(above.status).toBe('differs');
    expect(above.note).toContain('0.25 m above');
    expect(above.note).toContain('too low');
  });

  it('agrees within 0.1 m either way, the tolerance itself included', () => {
    expect(pointDatumCheck(origin, 0.3, [at(1, 0.4)]).status).toBe('agrees');
    expect(pointDatumCheck(origin, 0.3, [at(1, 0.2)]).status).toBe('agrees');
    expect(pointDatumCheck(origin, 0.3, [at(1, 0.4001)]).status).toBe('differs');
    // A farther station that differs does not decide: the nearest does.
    expect(pointDatumCheck(origin, 0.3, [at(1, 0.31), at(2, 0.9)]).status).toBe('agrees');
  });

  it('looks no farther than the radius and lists at most five stations', () => {
    const none = pointDatumCheck(origin, 0.3, [at(DATUM_CHECK_RADIUS_KM + 0.1, 0.3)]);
    expect(none).toMatchObject({ status: 'no_station_nearby', stations: [], radius_km: 10, used_mhhw_navd88: { m: 0.3 } });
    expect(none.note).toContain('within 10 km');
    expect(pointDatumCheck(origin, 0.3, [at(DATUM_CHECK_RADIUS_KM - 0.1, 0.3)]).status).toBe('agrees');
    const many = pointDatumCheck(origin, 0.3, [1, 2, 3, 4, 5, 6, 7].map((km) => at(km, 0.3)));
    expect(many.stations.map((s) => s.noaa_id)).toEqual(['s1', 's2', 's3', 's4', 's5']);
  });
});

describe('localDatumStation: the same-water rule', () => {
  it('takes the nearest station within 10 km when every station within twice its distance agrees with it to 0.1 m', () => {
    expect(localDatumStation(origin, [at(1, 0.3), at(1.9, 0.4), at(2.5, 1)])?.station.noaa_id).toBe('s1');
    expect(localDatumStation(origin, [at(1, 0.3)])?.distance).toBeCloseTo(1, 2);
  });

  it('takes none when a station within twice the distance differs beyond 0.1 m (another water), or none is within 10 km', () => {
    expect(localDatumStation(origin, [at(1, 0.3), at(1.9, 0.41)])).toBeUndefined();
    expect(localDatumStation(origin, [at(DATUM_CHECK_RADIUS_KM + 0.1, 0.3)])).toBeUndefined();
  });

  it('says in the point check that the station\'s MHHW is used, with its difference from the gauges\'', () => {
    const check = pointDatumCheck(origin, 0.1, [at(1, 0.35)]);
    expect(check.status).toBe('differs');
    expect(check.note).toBe("NOAA station Station s1 (s1), 1 km away, has MHHW 0.35 m NAVD88 (0.25 m from the 0.1 m of the sea level gauges): the station's MHHW is used here (mhhw_source).");
  });
});

describe('assetDatumCheck', () => {
  it('keeps the nearest station within the radius, its MHHW and the difference, to 0.1 mm, with the point check\'s verdict', () => {
    expect(assetDatumCheck(origin, 0.76774, [at(3, 0.2), at(1, 0.19812, 'near'), at(2, 0.5)])).toEqual({
      status: 'differs', mhhw_used_navd88_m: 0.7677, station: { noaa_id: 'near', name: 'Station near', distance_km: 1, mhhw_navd88_m: 0.1981 }, difference_m: -0.5696,
    });
    expect(assetDatumCheck(origin, 0.3, [at(1, 0.4)])).toMatchObject({ status: 'agrees', difference_m: 0.1 });
    expect(assetDatumCheck(origin, 0.3, [at(1, 0.4001)])).toMatchObject({ status: 'differs', difference_m: 0.1001 });
    expect(assetDatumCheck(origin, 0.3, [at(1, 0.31), at(2, 0.9)])).toMatchObject({ status: 'agrees', station: { noaa_id: 's1' } });
  });

  it('has no station beyond the radius', () => {
    expect(assetDatumCheck(origin, 0.30004, [at(DATUM_CHECK_RADIUS_KM + 0.1, 0.3)])).toEqual({ status: 'no_station_nearby', mhhw_used_navd88_m: 0.3, station: null, difference_m: null });
    expect(assetDatumCheck(origin, 0.3, [at(DATUM_CHECK_RADIUS_KM - 0.1, 0.3)]).status).toBe('agrees');
  });
});

describe('areaDatumCheck', () => {
  const box = [-0.1, -0.1, 0.1, 0.1] as [number, number, number, number];

  it('counts the stations in the box, gives their range and lists the farthest from the MHHW used first', () => {
    const check = areaDatumCheck(box, 0.3, [at(1, 0.35, 'a'), at(2, -0.2, 'b'), at(3, 0.55, 'c'), at(50, 2, 'outside')]);
    expect(check).toMatchObject({ status: 'differs', stations_in_bbox: 3, differing: 2, range: { min: { m: -0.2 }, max: { m: 0.55 } } });
    expect(check.stations.map((s) => s.noaa_id)).toEqual(['b', 'c', 'a']);
    expect(check.note).toContain('2 of the 3 NOAA stations');
    expect(check.note).toContain('have an MHHW');
    expect(areaDatumCheck(box, 0.3, [at(1, 0.5, 'a'), at(2, 0.3, 'b')]).note).toContain('1 of the 2 NOAA stations in the boundary\'s bounding box has an MHHW');
  });

  it('takes the stations on the edges of the box and none beyond them', () => {
    const station = (lat: number, lon: number, id: string): DatumStation => ({ noaa_id: id, name: id, lat, lon, mhhw_navd88_m: 0.3 });
    const edges = [station(0, -0.1, 'west'), station(0, 0.1, 'east'), station(-0.1, 0, 'south'), station(0.1, 0, 'north')];
    const beyond = [station(0, -0.1001, 'w'), station(0, 0.1001, 'e'), station(-0.1001, 0, 's'), station(0.1001, 0, 'n')];
    const check = areaDatumCheck(box, 0.3, [...edges, ...beyond]);
    expect(check.stations_in_bbox).toBe(4);
    expect(check.stations.map((s) => s.noaa_id).sort()).toEqual(['east', 'north', 'south', 'west']);
  });

  it('counts every station in the box and lists the five farthest from the MHHW used', () => {
    const check = areaDatumCheck(box, 0.3, [1, 2, 3, 4, 5, 6, 7].map((km) => at(km, 0.3 + km / 100)));
    expect(check).toMatchObject({ stations_in_bbox: 7, differing: 0 });
    expect(check.stations.map((s) => s.noaa_id)).toEqual(['s7', 's6', 's5', 's4', 's3']);
  });

  it('names the station when the box holds only one', () => {
    const one = areaDatumCheck(box, 0.336, [at(1, -0.189, '8721843')]);
    expect(one).toMatchObject({ status: 'differs', stations_in_bbox: 1, differing: 1 });
    expect(one.note).toMatch(/^NOAA station Station 8721843 \(8721843\), the only one in the boundary's bounding box, has MHHW -0.189 m NAVD88, 0.525 m below the 0.336 m taken from the sea level gauges: the tidal water levels near it may be too high/);
    expect(areaDatumCheck(box, 0.3, [at(1, 0.35, 'a')]).note).toContain('the only one in the boundary\'s bounding box, has MHHW 0.35 m NAVD88, within 0.1 m');
  });

  it('agrees when every station is within 0.1 m, and says when the box holds none', () => {
    const all = areaDatumCheck(box, 0.3, [at(1, 0.35), at(2, 0.25)]);
    expect(all).toMatchObject({ status: 'agrees', differing: 0 });
    expect(all.note).toBe("All 2 NOAA stations in the boundary's bounding box are within 0.1 m of the 0.3 m NAVD88 taken from the sea level gauges.");
    expect(areaDatumCheck(box, 0.3, [at(50, 0.3)])).toMatchObject({ status: 'no_station_nearby', stations_in_bbox: 0, range: null, stations: [] });
  });
});

describe('the bundled stations', () => {
  it('are NOAA reference stations in and around Florida with a distinct id each', () => {
    expect(DATUM_STATIONS.length).toBeGreaterThan(100);
    expect(new Set(DATUM_STATIONS.map((s) => s.noaa_id)).size).toBe(DATUM_STATIONS.length);
    for (const s of DATUM_STATIONS) {
      expect(s.lat).toBeGreaterThanOrEqual(24.3);
      expect(s.lat).toBeLessThanOrEqual(31.1);
      expect(s.lon).toBeGreaterThanOrEqual(-87.7);
      expect(s.lon).toBeLessThanOrEqual(-79.9);
      expect(Math.abs(s.mhhw_navd88_m)).toBeLessThan(2);
    }
  });
});
