import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FloodEvent } from '../../shared/domain/hazards/flood-events';
import { csv } from '../science/readers/raw';
import { NCEI_FLOOD_EVENT_TYPES } from '../helpers/ncei-flood-types';
import { freshModule } from '../helpers/fresh-module';

/**
 * The events shipped with the product, checked record by record against the data files read here
 * with a reader of their own (HURDAT2 landfalls, FEMA declarations, NCEI Storm Events, and NOAA
 * TR 086's observed flood days from the raw CSV). The module keeps the list it builds, so each test
 * loads it afresh: every test runs the code that builds the list.
 */
const DATA = path.join(__dirname, '../../shared/data/hazards');

function records(file: string): Record<string, any>[] {
  const { columns, rows } = JSON.parse(readFileSync(path.join(DATA, file), 'utf8')) as { columns: string[]; rows: unknown[][] };
  return rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]])));
}

type FloodEventsModule = typeof import('../../shared/domain/hazards/flood-events');
const freshFloodEvents = () => freshModule<FloodEventsModule>(require.resolve('../../shared/domain/hazards/flood-events'));

function freshBundle(): readonly FloodEvent[] {
  return freshFloodEvents().bundledFloodEvents();
}

const bySource = (events: readonly FloodEvent[], source: FloodEvent['source']) => events.filter((e) => e.source === source);

describe('the bundled flood events', () => {
  it('hold one event per HURDAT2 landfall record: id from storm and minute, a hurricane where HURDAT2 says HU, pressure only where recorded', () => {
    const landfalls = records('hurdat2-florida-landfalls.json');
    const events = bySource(freshBundle(), 'hurdat2');
    expect(events).toHaveLength(landfalls.length);
    for (const l of landfalls) {
      const t = String(l.landfall_time);
      const id = `hurdat2:${l.storm_id}:${t.slice(0, 4)}${t.slice(5, 7)}${t.slice(8, 10)}${t.slice(11, 13)}${t.slice(14, 16)}`;
      const event = events.find((e) => e.event_id === id);
      if (!event) throw new Error(`${id} missing`);
      expect(event).toEqual({
        event_id: id,
        source: 'hurdat2',
        date: t.slice(0, 10),
        end_date: null,
        // HURDAT2's own status: HU is a hurricane (64 kt and more); TS, TD and SS are not.
        type: l.status === 'HU' ? 'hurricane' : 'tropical_storm',
        name: expect.stringMatching(new RegExp(`^.+ \\(${l.storm_id}\\) Florida landfall ${t.slice(11, 16)} UTC, ${l.county} County$`)),
        // The tagged county first, then any other the 0.1° rounding of the position may reach.
        location: { lat: l.lat, lon: l.lon, county: l.county, county_fips: l.county_fips, scope: 'point', counties_within_precision: [l.county, ...event.location.counties_within_precision!.slice(1)] },
        magnitude: l.pressure_mb === null ? { wind_kt: l.wind_kt } : { wind_kt: l.wind_kt, pressure_mb: l.pressure_mb },
        time_utc: t,
      });
    }
    const names = new Map(events.map((e) => [e.event_id, e.name]));
    expect(names.get('hurdat2:AL102023:202308301145')).toBe('Idalia (AL102023) Florida landfall 11:45 UTC, Taylor County');
    expect(names.get('hurdat2:AL061900:190010120300')).toBe('Unnamed storm (AL061900) Florida landfall 03:00 UTC, Dixie County');
  });

  it('hold each FEMA declaration of a flood-related incident once, statewide, as an emergency (EM) or a disaster (DR)', () => {
    const floodIncidents = ['Hurricane', 'Flood', 'Severe Storm', 'Tropical Storm', 'Coastal Storm'];
    const declarations = records('fema-declarations.json').filter((d) => floodIncidents.includes(d.incident_type));
    const events = bySource(freshBundle(), 'fema_declarations');
    expect(events).toHaveLength(declarations.length);
    for (const d of declarations) {
      const id = `fema:${d.declaration_type === 'Emergency' ? 'EM' : 'DR'}-${d.disaster_number}`;
      expect(events.find((e) => e.event_id === id)).toEqual({
        event_id: id,
        source: 'fema_declarations',
        date: d.incident_begin,
        end_date: d.incident_end,
        type: 'disaster_declaration',
        name: expect.stringMatching(new RegExp(`^.+ \\(${d.declaration_type} ${d.disaster_number}, declared ${d.declaration_date}\\)$`)),
        location: { lat: null, lon: null, county: null, county_fips: null, scope: 'state' },
        magnitude: { incident_type: d.incident_type, declaration_type: d.declaration_type },
      });
    }
    const names = new Map(events.map((e) => [e.event_id, e.name]));
    expect(names.get('fema:DR-12')).toBe('Flood (Major Disaster 12, declared 1953-10-22)');
    expect(names.get('fema:EM-3075')).toBe('Severe Storms & Flooding (Emergency 3075, declared 1979-03-24)');
    // Fires, freezes and the like are not flood events.
    expect(events.some((e) => e.event_id === 'fema:EM-3079')).toBe(false);
  });

  it('hold one event per gauge and year with observed minor flood days (TR 086), at the gauge, in its county', () => {
    const observed = csv('fl_htf_days_tr086.csv').filter((r) => r.series === 'floods_historical' && Number(r.flood_days) > 0);
    const gauges = new Map((JSON.parse(readFileSync(path.join(DATA, 'gauges.json'), 'utf8')) as { noaa_id: string; name: string; lat: number; lon: number }[]).map((g) => [g.noaa_id, g]));
    // The county each gauge stands in (Naples and Panama City Beach stand on piers, past the shoreline of the outlines).
    const counties: Record<string, [string, string]> = {
      8720030: ['Nassau', '12089'], 8720218: ['Duval', '12031'], 8721604: ['Brevard', '12009'], 8723214: ['Miami-Dade', '12086'],
      8723970: ['Monroe', '12087'], 8724580: ['Monroe', '12087'], 8725110: ['Collier', '12021'], 8725520: ['Lee', '12071'],
      8726520: ['Pinellas', '12103'], 8726724: ['Pinellas', '12103'], 8727520: ['Levy', '12075'], 8728690: ['Franklin', '12037'],
      8729108: ['Bay', '12005'], 8729210: ['Bay', '12005'], 8729840: ['Escambia', '12033'],
    };
    const events = bySource(freshBundle(), 'noaa_htf');
    expect(events).toHaveLength(observed.length);
    for (const r of observed) {
      const gauge = gauges.get(r.noaa_id!)!;
      const days = Number(r.flood_days);
      const id = `htf:${r.noaa_id}:${r.year}`;
      expect(events.find((e) => e.event_id === id)).toEqual({
        event_id: id,
        source: 'noaa_htf',
        date: `${r.year}-01-01`,
        end_date: `${r.year}-12-31`,
        type: 'high_tide_flooding',
        name: `${days} high tide flood ${days === 1 ? 'day' : 'days'} at ${gauge.name} in ${r.year}`,
        location: { lat: gauge.lat, lon: gauge.lon, county: counties[r.noaa_id!]![0], county_fips: counties[r.noaa_id!]![1], scope: 'gauge' },
        magnitude: { flood_days: days },
      });
    }
  });

  it('hold the Florida flood-type rows of the NCEI Storm Events file, and nothing else', () => {
    const rows = records('ncei-storm-events-2019q1.json');
    const expected = rows.filter((r) => r.STATE === 'FLORIDA' && NCEI_FLOOD_EVENT_TYPES.has(r.EVENT_TYPE)).map((r) => `ncei:${r.EVENT_ID}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(bySource(freshBundle(), 'ncei_storm_events').map((e) => e.event_id).sort()).toEqual(expected.sort());
  });

  it('come in one list, built once per module', () => {
    const { bundledFloodEvents } = freshFloodEvents();
    const first = bundledFloodEvents();
    const second = bundledFloodEvents();
    expect(second).toBe(first);
    expect(new Set(first.map((e) => e.source))).toEqual(new Set(['hurdat2', 'ncei_storm_events', 'fema_declarations', 'noaa_htf']));
  });
});
