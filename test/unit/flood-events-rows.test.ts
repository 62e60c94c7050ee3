import {
  countiesWithinRadius, eventFromStormEventsRow, pageAfter, parseNceiDamage, selectFloodEvents, decodeEventCursor, type FloodEvent,
} from '../../shared/domain/hazards/flood-events';
import { freshModule } from '../helpers/fresh-module';

/** One NCEI Storm Events row as the details files spell it, with what a test changes. */
const row = (fields: Record<string, string | undefined>): Record<string, string> => {
  const base: Record<string, string | undefined> = {
    EVENT_ID: '900001', EVENT_TYPE: 'Flood', STATE: 'FLORIDA', BEGIN_YEARMONTH: '201901', BEGIN_DAY: '7', END_YEARMONTH: '201901', END_DAY: '9',
    CZ_TYPE: 'C', CZ_FIPS: '86', CZ_NAME: 'MIAMI-DADE', BEGIN_LAT: '25.47', BEGIN_LON: '-80.48', BEGIN_LOCATION: 'HOMESTEAD',
    DAMAGE_PROPERTY: '1.50K', DAMAGE_CROPS: '0.00K', DEATHS_DIRECT: '0', FLOOD_CAUSE: 'Heavy Rain',
  };
  return Object.fromEntries(Object.entries({ ...base, ...fields }).filter(([, v]) => v !== undefined)) as Record<string, string>;
};

describe('an NCEI Storm Events row as an event', () => {
  it('keeps the reported point, the county of a county event, the dates, the damage and the cause', () => {
    expect(eventFromStormEventsRow(row({}))).toEqual({
      event_id: 'ncei:900001',
      source: 'ncei_storm_events',
      date: '2019-01-07',
      end_date: '2019-01-09',
      type: 'flood',
      name: 'Flood near Homestead, Miami-Dade County',
      location: { lat: 25.47, lon: -80.48, county: 'Miami-Dade', county_fips: '12086', scope: 'point' },
      magnitude: { damage_usd: 1500, deaths: 0, flood_cause: 'Heavy Rain' },
    });
  });

  it('places a county event without a full point at its county, and a zone event in the county the zone names', () => {
    // A county event is placed by its FIPS code, whatever its name says.
    expect(eventFromStormEventsRow(row({ CZ_NAME: 'DADE' }))!.location).toMatchObject({ county: 'Miami-Dade', county_fips: '12086' });
    const noLon = eventFromStormEventsRow(row({ BEGIN_LON: '' }))!;
    expect(noLon.location).toMatchObject({ county: 'Miami-Dade', county_fips: '12086', scope: 'county' });
    expect(noLon.location.lat).not.toBe(25.47);
    const noLat = eventFromStormEventsRow(row({ BEGIN_LAT: undefined }))!;
    expect(noLat.location.scope).toBe('county');
    const zone = eventFromStormEventsRow(row({ CZ_TYPE: 'Z', CZ_FIPS: '141', CZ_NAME: 'COASTAL VOLUSIA', BEGIN_LOCATION: '' }))!;
    expect(zone.location).toEqual({ lat: 25.47, lon: -80.48, county: 'Volusia', county_fips: '12127', scope: 'point' });
    expect(zone.name).toBe('Flood, Volusia County');
    // A zone that names no county keeps its own name, and needs a point.
    const water = eventFromStormEventsRow(row({ CZ_TYPE: 'Z', CZ_NAME: 'WATERS FROM DESTIN TO PENSACOLA', BEGIN_LOCATION: undefined }))!;
    expect(water.location).toMatchObject({ county: null, county_fips: null, scope: 'point' });
    expect(water.name).toBe('Flood, Waters From Destin To Pensacola');
    expect(eventFromStormEventsRow(row({ CZ_TYPE: 'Z', CZ_NAME: 'WATERS FROM DESTIN TO PENSACOLA', BEGIN_LAT: '' }))).toBeUndefined();
  });

  it('places a zone whose name holds two county names in the longer one\'s: Lake Okeechobee is not in Lake County', () => {
    // The module orders the county names when it loads: loaded here afresh, so a mutation run sees this test use that order.
    const fresh = freshModule<typeof import('../../shared/domain/hazards/flood-events')>(require.resolve('../../shared/domain/hazards/flood-events'));
    const lake = fresh.eventFromStormEventsRow(row({ CZ_TYPE: 'Z', CZ_NAME: 'LAKE OKEECHOBEE', BEGIN_LOCATION: '' }))!;
    expect(lake.location).toMatchObject({ county: 'Okeechobee', county_fips: '12093' });
  });

  it('refuses rows of other states, other types and malformed begin months', () => {
    expect(eventFromStormEventsRow(row({ STATE: 'GEORGIA' }))).toBeUndefined();
    expect(eventFromStormEventsRow(row({ EVENT_TYPE: 'Hail' }))).toBeUndefined();
    expect(eventFromStormEventsRow(row({ BEGIN_YEARMONTH: '2019011' }))).toBeUndefined();
    expect(eventFromStormEventsRow(row({ BEGIN_YEARMONTH: 'x201901' }))).toBeUndefined();
  });

  it('gives an end date only for a well-formed end month, on the first of it when the day is missing', () => {
    expect(eventFromStormEventsRow(row({ END_DAY: undefined }))!.end_date).toBe('2019-01-01');
    expect(eventFromStormEventsRow(row({ END_YEARMONTH: undefined }))!.end_date).toBeNull();
    for (const bad of ['2019011', 'x201901', '20190', 'abcdef']) expect(eventFromStormEventsRow(row({ END_YEARMONTH: bad }))!.end_date).toBeNull();
  });

  it('adds property and crop damage, unknown only when both are, and counts direct deaths', () => {
    const magnitude = (fields: Record<string, string | undefined>) => eventFromStormEventsRow(row(fields))!.magnitude;
    expect(magnitude({ DAMAGE_PROPERTY: '1K', DAMAGE_CROPS: '2K' }).damage_usd).toBe(3000);
    expect(magnitude({ DAMAGE_PROPERTY: '', DAMAGE_CROPS: '2M' }).damage_usd).toBe(2_000_000);
    expect(magnitude({ DAMAGE_PROPERTY: '1.5K', DAMAGE_CROPS: '' }).damage_usd).toBe(1500);
    expect(magnitude({ DAMAGE_PROPERTY: '', DAMAGE_CROPS: '' }).damage_usd).toBeNull();
    expect(magnitude({ DEATHS_DIRECT: '3' }).deaths).toBe(3);
    expect(magnitude({ DEATHS_DIRECT: '' }).deaths).toBe(0);
    expect(magnitude({ DEATHS_DIRECT: undefined }).deaths).toBe(0);
    expect(magnitude({ FLOOD_CAUSE: '' })).toEqual({ damage_usd: 1500, deaths: 0 });
  });

  it.each([['15', 15], ['2.5B', 2_500_000_000], [' 1K ', 1000], ['x1K', null], ['1Kx', null], ['1K1', null], ['K', null]])('reads damage %j as %j', (text, usd) => {
    expect(parseNceiDamage(text as string)).toBe(usd);
  });
});

describe('choosing and paging events', () => {
  const event = (id: string, date: string, end: string | null, lat: number | null = 25.5, lon: number | null = -80.5): FloodEvent => ({
    event_id: id, source: 'ncei_storm_events', date, end_date: end, type: 'flood', name: id,
    location: { lat, lon, county: null, county_fips: null, scope: lat === null ? 'state' : 'point' },
    magnitude: {},
  });
  const centre = { lat: 25.5, lon: -80.5 };

  it('keeps an event once, and one that ends on the range\'s first day or starts on its last', () => {
    const events = [event('a', '2020-01-01', '2020-01-10'), event('a', '2020-01-01', '2020-01-10'), event('b', '2020-01-20', null), event('c', '2020-01-05', '2020-01-09')];
    expect(selectFloodEvents(events, { centre, radiusKm: 10, from: '2020-01-10', to: '2020-01-20' }).map((e) => e.event_id)).toEqual(['b', 'a']);
  });

  it('lists the counties whose extent comes within the radius', () => {
    const keyWest = { lat: 24.555, lon: -81.78 };
    expect(countiesWithinRadius(keyWest, 10)).toEqual(['12087']);
    // Extents are boxes: Orlando lies in Orange County's and in Lake County's.
    expect(countiesWithinRadius({ lat: 28.54, lon: -81.38 }, 0).sort()).toEqual(['12069', '12095']);
    expect(countiesWithinRadius(keyWest, 1000).length).toBe(67);
  });

  it('pages to the very end: no further cursor on a last page that is exactly full, nothing after the last event', () => {
    const sorted = selectFloodEvents(['a', 'b', 'c', 'd'].map((id, i) => event(id, `2020-01-0${i + 1}`, null)), { centre, radiusKm: 10 });
    const first = pageAfter(sorted, undefined, 2);
    expect(first.data.map((e) => e.event_id)).toEqual(['d', 'c']);
    const second = pageAfter(sorted, decodeEventCursor(first.next_cursor!), 2);
    expect(second).toEqual({ data: sorted.slice(2), next_cursor: null });
    const past = { d: '2019-12-31', i: 'z' };
    expect(pageAfter(sorted, past, 3)).toEqual({ data: [], next_cursor: null });
    expect(pageAfter(sorted, past, 10)).toEqual({ data: [], next_cursor: null });
  });
});
