import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countiesTopology from 'us-atlas/counties-10m.json';
import { listFloodEvents } from '../../shared/application/hazards/flood-events';
import type { FloodEventStore } from '../../shared/domain/hazards/flood-events';
import { bundledFloodEvents } from '../../shared/domain/hazards/flood-events';
import { FLORIDA_COUNTIES } from '../../shared/domain/jurisdictions';
import { distanceKm, hurdatLandfalls } from './readers/raw';

const records = hurdatLandfalls();
const events = bundledFloodEvents().filter((e) => e.source === 'hurdat2');

describe('hurricane landfalls from HURDAT2\'s own landfall records', () => {
  it('every landfall event is a HURDAT2 `L` record, with its exact time, position and wind', () => {
    expect(events.length).toBeGreaterThan(150);
    for (const e of events) {
      const storm = e.event_id.split(':')[1];
      const match = records.find((r) => r.storm === storm && `${r.time.replace(' ', 'T')}Z` === e.time_utc);
      if (!match) throw new Error(`${e.event_id} is not a landfall record`);
      expect([e.location.lat, e.location.lon, e.magnitude.wind_kt]).toEqual([match.lat, match.lon, match.wind]);
    }
  });

  it.each([
    ['Michael 2018 at Mexico Beach', 'AL142018', '2018-10-10 17:30:00', 'Bay', 140],
    ['Idalia 2023 at Keaton Beach', 'AL102023', '2023-08-30 11:45:00', 'Taylor', 100],
    ['Irma 2017 at Cudjoe Key', 'AL112017', '2017-09-10 13:00:00', 'Monroe', 115],
    ['Irma 2017 at Marco Island', 'AL112017', '2017-09-10 19:30:00', 'Collier', 100],
    ['Ian 2022 at Cayo Costa', 'AL092022', '2022-09-28 19:05:00', 'Lee', 130],
    ['Andrew 1992 near Homestead', 'AL041992', '1992-08-24 09:05:00', 'Miami-Dade', 145],
  ])('%s', (_name, storm, time, county, wind) => {
    const record = records.find((r) => r.storm === storm && r.time === time);
    expect(record).toBeDefined();
    expect(record!.wind).toBe(wind);
    const event = events.find((e) => e.event_id.startsWith(`hurdat2:${storm}:`) && e.time_utc === `${time.replace(' ', 'T')}Z`);
    expect(event).toBeDefined();
    expect(event!.location.county).toBe(county);
    expect(event!.type).toBe('hurricane');
  });

  it('keeps every landfall record whose position lies well inside Florida\'s coast (not Alabama or Georgia)', () => {
    // Florida peninsula and Keys, south of Georgia and east of Perdido Bay.
    const inPeninsula = records.filter((r) => r.lat < 30.5 && r.lat > 24.4 && r.lon > -87.4 && r.lon < -80 && !(r.lat > 29.9 && r.lon > -82 && r.lon < -81.9));
    const florida = inPeninsula.filter((r) => r.lon > -85 || r.lat > 29.5);
    for (const r of florida) {
      const found = events.some((e) => e.event_id.startsWith(`hurdat2:${r.storm}:`) && e.time_utc === `${r.time.replace(' ', 'T')}Z`);
      if (!found) throw new Error(`${r.storm} ${r.time} at ${r.lat},${r.lon} missing`);
    }
  });
});

describe('a county query searches the county polygon plus the radius, not a circle around its centre', () => {
  const countyPolygon = (fips: string) => {
    const topology = countiesTopology as unknown as Topology<{ counties: GeometryCollection }>;
    return (feature(topology, topology.objects.counties) as unknown as FeatureCollection<Polygon | MultiPolygon>).features.find((f) => String(f.id) === fips)!;
  };
  const query = async (location: string, radius: number) => ({
    body: await listFloodEvents({ events: () => ({ eventsInCounties: async () => [] }) as unknown as FloodEventStore },
      { location, radius_km: radius, date_range: ['2017-09-01', '2017-09-30'], event_type: ['hurricane'], limit: 100 } as unknown as Parameters<typeof listFloodEvents>[1]),
  });

  it("Monroe County at 50 km holds Irma's Cudjoe Key landfall (2017), more than 50 km from the county's centre", async () => {
    const record = records.find((r) => r.storm === 'AL112017' && r.time === '2017-09-10 13:00:00')!;
    const monroe = countyPolygon('12087');
    const centre = FLORIDA_COUNTIES.find((c) => c.fips === '12087')!;
    expect(distanceKm(centre, record)).toBeGreaterThan(50);
    const inside = booleanPointInPolygon([record.lon, record.lat], monroe);
    const body = (await query('Monroe County', 50)).body as { data: { event_id: string; distance_km: number | null }[]; location: { distance_from: string } };
    expect(body.location.distance_from).toBe('county_boundary');
    const irma = body.data.find((e) => e.event_id === 'hurdat2:AL112017:201709101300');
    expect(irma).toBeDefined();
    if (inside) expect(irma!.distance_km).toBe(0);
    else expect(irma!.distance_km).toBeLessThanOrEqual(50);
  });

  it('a point query still measures from the point', async () => {
    const body = (await query('24.6631,-81.3534', 5)).body as { data: { event_id: string }[]; location: { distance_from: string } };
    expect(body.location.distance_from).toBe('point');
    const record = records.find((r) => r.storm === 'AL112017' && r.time === '2017-09-10 13:00:00')!;
    const near = distanceKm({ lat: 24.6631, lon: -81.3534 }, record) <= 5;
    expect(body.data.some((e) => e.event_id === 'hurdat2:AL112017:201709101300')).toBe(near);
  });
});
