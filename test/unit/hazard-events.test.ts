import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { bundledFloodEvents, decodeEventCursor, eventFromStormEventsRow, pageAfter, parseNceiDamage, selectFloodEvents } from '../../shared/domain/hazards/flood-events';
import { InvalidCursorError } from '../../shared/domain/errors';
import { NCEI_FLOOD_EVENT_TYPES } from '../helpers/ncei-flood-types';

const FIXTURE = path.join(__dirname, '../../shared/data/hazards/source/StormEvents_details-ftp_v1.0_d2019_c20190617.csv.gz');

describe('NCEI Storm Events rows', () => {
  it('keeps exactly the Florida flood-type rows of the 2019 file, with their county', async () => {
    const rows: Record<string, string>[] = [];
    const parser = createReadStream(FIXTURE).pipe(createGunzip()).pipe(parse({ columns: true }));
    for await (const row of parser) rows.push(row);
    const expected = rows.filter((r) => r.STATE === 'FLORIDA' && NCEI_FLOOD_EVENT_TYPES.has(r.EVENT_TYPE!));
    const events = rows.flatMap((r) => eventFromStormEventsRow(r) ?? []);
    expect(events.map((e) => e.event_id).sort()).toEqual(expected.map((r) => `ncei:${r.EVENT_ID}`).sort());
    for (const event of events) {
      const row = expected.find((r) => `ncei:${r.EVENT_ID}` === event.event_id)!;
      expect(event.date).toBe(`${row.BEGIN_YEARMONTH!.slice(0, 4)}-${row.BEGIN_YEARMONTH!.slice(4)}-${row.BEGIN_DAY!.padStart(2, '0')}`);
      expect(event.location.county_fips).toMatch(/^12\d{3}$/);
    }
  });

  it('parses NCEI damage amounts', () => {
    expect(parseNceiDamage('1.50K')).toBe(1500);
    expect(parseNceiDamage('2M')).toBe(2_000_000);
    expect(parseNceiDamage('0.00K')).toBe(0);
    expect(parseNceiDamage('')).toBeNull();
  });
});

describe('bundled events', () => {
  // HURDAT2's landfall record (L, 00:30 UTC, 100 kt), not the 6-hourly point around it (105 kt).
  it('places Hurricane Milton (2024) at its HURDAT2 landfall record near Sarasota, 100 kt', () => {
    const rows = readFileSync(path.join(__dirname, '../../shared/data/hazards/hurdat2-florida-landfalls.json'), 'utf8');
    expect(rows).toContain('AL142024');
    const milton = bundledFloodEvents().find((e) => e.event_id === 'hurdat2:AL142024:202410100030')!;
    expect(milton).toMatchObject({ type: 'hurricane', date: '2024-10-10', time_utc: '2024-10-10T00:30:00Z', magnitude: { wind_kt: 100 } });
    const sarasota = { lat: 27.34, lon: -82.53 };
    const [near] = selectFloodEvents([milton], { centre: sarasota, radiusKm: 50 });
    expect(near!.distance_km).toBeLessThan(20);
    // 27.4° N 82.6° W falls in Manatee; rounded to 0.1°, the box (27.35–27.45° N, 82.65–82.55° W)
    // crosses the Manatee–Sarasota line on Longboat Key (about 27.39° N), and no other county.
    expect(milton.location).toMatchObject({ county: 'Manatee', counties_within_precision: ['Manatee', 'Sarasota'] });
  });

  it('lists only the tagged county for a landfall far from any county line', () => {
    const andrew = bundledFloodEvents().find((e) => e.event_id.startsWith('hurdat2:AL041992'))!;
    expect(andrew.location.counties_within_precision).toEqual(['Miami-Dade']);
  });

  it('filters by date range, type and radius, newest first', () => {
    const keyWest = { lat: 24.555, lon: -81.78 };
    const events = selectFloodEvents(bundledFloodEvents(), { centre: keyWest, radiusKm: 100, from: '2000-01-01', to: '2010-12-31', types: ['hurricane', 'tropical_storm'] });
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.date >= '2000-01-01' && e.date <= '2010-12-31').toBe(true);
      expect(e.distance_km!).toBeLessThanOrEqual(100);
    }
    expect(events.map((e) => e.date)).toEqual([...events.map((e) => e.date)].sort().reverse());
  });

  it('counts high tide flood days per gauge only where days were recorded', () => {
    const htf = bundledFloodEvents().filter((e) => e.type === 'high_tide_flooding');
    expect(htf.every((e) => e.magnitude.flood_days! > 0 && e.location.scope === 'gauge')).toBe(true);
  });

  it('pages with a cursor through every event once', () => {
    const all = selectFloodEvents(bundledFloodEvents(), { centre: { lat: 27.76, lon: -82.63 }, radiusKm: 150 });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ReturnType<typeof pageAfter> = pageAfter(all, cursor ? decodeEventCursor(cursor) : undefined, 37);
      seen.push(...page.data.map((e) => e.event_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.event_id));
    expect(() => decodeEventCursor('not-a-cursor')).toThrow(InvalidCursorError);
    expect(() => decodeEventCursor(Buffer.from(JSON.stringify({ d: '2024-10-09' })).toString('base64url'))).toThrow(InvalidCursorError);
  });
});
