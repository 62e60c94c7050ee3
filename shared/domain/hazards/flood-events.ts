import { countyByFipsCode, FLORIDA_COUNTIES, normalizePlaceName } from '../jurisdictions';
import { onFirstUse } from '../../on-first-use';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { bboxesIntersect, distanceToBBoxKm, distanceToBoundaryKm, grownBBox, haversineKm, polygonIntersectsBBox, type BBox, type LatLon } from './geo';
import { countyAtPoint } from '../risk/county-at-point';
import { floridaCountyBoundaries } from './florida-counties';
import { GAUGES } from './gauges';

import type { FloodEventType } from './vocabulary';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import { recordsOf, type RecordTable } from '../../data/record-table';

export { FLOOD_EVENT_TYPES, type FloodEventType } from './vocabulary';

export type FloodEventSource = 'hurdat2' | 'ncei_storm_events' | 'fema_declarations' | 'noaa_htf';

/** One historical event, whatever its source. */
export interface FloodEvent {
  event_id: string;
  source: FloodEventSource;
  date: string;
  end_date: string | null;
  type: FloodEventType;
  name: string;
  location: {
    lat: number | null;
    lon: number | null;
    county: string | null;
    county_fips: string | null;
    /** `point`: reported position; `county`: county centroid; `gauge`: tide gauge; `state`: statewide record. */
    scope: 'point' | 'county' | 'gauge' | 'state';
    /** HURDAT2 positions are given to 0.1°: every county the true position may lie in, `county` first. */
    counties_within_precision?: string[];
  };
  /** Exact time (ISO 8601 UTC) where the source gives one (HURDAT2 landfalls). */
  time_utc?: string;
  magnitude: {
    wind_kt?: number;
    pressure_mb?: number;
    damage_usd?: number | null;
    flood_days?: number;
    deaths?: number;
    incident_type?: string;
    declaration_type?: string;
    flood_cause?: string;
  };
}

/** NCEI event types kept, and their event-model type. */
const NCEI_TYPES: Record<string, FloodEventType> = {
  'Flood': 'flood',
  'Flash Flood': 'flash_flood',
  'Coastal Flood': 'coastal_flood',
  'Lakeshore Flood': 'flood',
  'Storm Surge/Tide': 'storm_surge',
  'Heavy Rain': 'heavy_rain',
  'Hurricane': 'hurricane',
  'Hurricane (Typhoon)': 'hurricane',
  'Tropical Storm': 'tropical_storm',
  'Tropical Depression': 'tropical_storm',
};

const FEMA_FLOOD_INCIDENTS = new Set(['Hurricane', 'Flood', 'Severe Storm', 'Tropical Storm', 'Coastal Storm']);

/** NCEI damage strings: "1.50K", "2M", "0.00K", "" (unknown). */
export function parseNceiDamage(value: string | undefined): number | null {
  const match = /^\s*([\d.]+)\s*([KMB]?)\s*$/i.exec(value ?? '');
  if (!match) return null;
  const scale = { '': 1, K: 1e3, M: 1e6, B: 1e9 }[match[2]!.toUpperCase() as '' | 'K' | 'M' | 'B'];
  return Math.round(Number(match[1]) * scale);
}

// Built with the first zone read: normalizing names at load would load ICU's tables at every cold start.
const countyNames = onFirstUse(() => FLORIDA_COUNTIES.map((c) => ({ county: c, key: ` ${normalizePlaceName(c.name)} ` })).sort((a, b) => b.key.length - a.key.length));

/** Forecast zones ("COASTAL VOLUSIA", "MONROE UPPER KEYS") named after a county map to that county. */
function countyForZoneName(zoneName: string) {
  const text = ` ${normalizePlaceName(zoneName)} `;
  return countyNames().find((c) => text.includes(c.key))?.county;
}

const ymd = (yearMonth: string, day: string) => `${yearMonth.slice(0, 4)}-${yearMonth.slice(4, 6)}-${day.padStart(2, '0')}`;

/** A Florida row of a flood-type event with a begin date. */
export function isFloridaFloodRow(row: Record<string, string>): boolean {
  return row.STATE === 'FLORIDA' && (row.EVENT_TYPE ?? '') in NCEI_TYPES && /^\d{6}$/.test(row.BEGIN_YEARMONTH ?? '');
}

/**
 * One row of an NCEI `StormEvents_details` file as an event, or undefined for other states and
 * non-flood types. County events carry the county; zone events are matched to the county they name.
 */
export function eventFromStormEventsRow(row: Record<string, string>): FloodEvent | undefined {
  if (!isFloridaFloodRow(row)) return undefined;
  const type = NCEI_TYPES[row.EVENT_TYPE!]!;
  const county = row.CZ_TYPE === 'C' ? countyByFipsCode(`12${(row.CZ_FIPS ?? '').padStart(3, '0')}`) : countyForZoneName(row.CZ_NAME ?? '');
  const lat = Number.parseFloat(row.BEGIN_LAT ?? '');
  const lon = Number.parseFloat(row.BEGIN_LON ?? '');
  const hasPoint = Number.isFinite(lat) && Number.isFinite(lon);
  if (!hasPoint && !county) return undefined;
  const property = parseNceiDamage(row.DAMAGE_PROPERTY);
  const crops = parseNceiDamage(row.DAMAGE_CROPS);
  return {
    event_id: `ncei:${row.EVENT_ID}`,
    source: 'ncei_storm_events',
    date: ymd(row.BEGIN_YEARMONTH!, row.BEGIN_DAY ?? '1'),
    end_date: /^\d{6}$/.test(row.END_YEARMONTH ?? '') ? ymd(row.END_YEARMONTH!, row.END_DAY ?? '1') : null,
    type,
    name: `${row.EVENT_TYPE}${row.BEGIN_LOCATION ? ` near ${titleCase(row.BEGIN_LOCATION)}` : ''}, ${county ? `${county.name} County` : titleCase(row.CZ_NAME ?? '')}`,
    location: {
      lat: hasPoint ? lat : county!.lat,
      lon: hasPoint ? lon : county!.lon,
      county: county?.name ?? null,
      county_fips: county?.fips ?? null,
      scope: hasPoint ? 'point' : 'county',
    },
    magnitude: {
      damage_usd: property === null && crops === null ? null : (property ?? 0) + (crops ?? 0),
      deaths: Number.parseInt(row.DEATHS_DIRECT ?? '0', 10) || 0,
      ...(row.FLOOD_CAUSE ? { flood_cause: row.FLOOD_CAUSE } : {}),
    },
  };
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** A HURDAT2 landfall record in Florida, as `scripts/derive-hurdat2-landfalls.ts` writes it. */
interface HurdatLandfall {
  storm_id: string;
  name: string;
  landfall_time: string;
  lat: number;
  lon: number;
  wind_kt: number;
  pressure_mb: number | null;
  county_fips: string;
  county: string;
}

/** A row of OpenFEMA's disaster declarations for Florida, as `shared/data/hazards/derive.ts` writes it. */
interface FemaDeclaration {
  disaster_number: string;
  declaration_date: string;
  name: string;
  incident_type: string;
  declaration_type: string;
  incident_begin: string;
  incident_end: string | null;
}

/** HURDAT2 gives positions to a tenth of a degree, so a reported position stands for a box 0.1° wide. */
export const HURDAT2_POSITION_PRECISION_DEG = 0.1;

/**
 * The counties a rounded landfall position may lie in: the tagged county, then every other whose
 * polygon meets the box the rounding leaves (Milton's 27.4° N 82.6° W is in Manatee; the box also
 * reaches Sarasota, where the NHC report places the landfall).
 */
function countiesWithinPrecision(l: HurdatLandfall): string[] {
  const half = HURDAT2_POSITION_PRECISION_DEG / 2;
  const box: BBox = [l.lon - half, l.lat - half, l.lon + half, l.lat + half];
  const others = floridaCountyBoundaries()
    .filter((c) => c.name !== l.county && bboxesIntersect(c.bbox, box) && polygonIntersectsBBox(c.geometry, box))
    .map((c) => c.name)
    .sort();
  return [l.county, ...others];
}

let bundled: FloodEvent[] | undefined;

/** The events shipped with the product (HURDAT2 landfalls, NCEI 2019 Q1, FEMA declarations, NOAA HTF days). */
export function bundledFloodEvents(): readonly FloodEvent[] {
  if (bundled) return bundled;
  // Read on first use, not with the module: only the event routes need these records.
  const landfalls = require('../../data/hazards/hurdat2-florida-landfalls.json') as RecordTable;
  const bundledStormEvents = require('../../data/hazards/ncei-storm-events-2019q1.json') as RecordTable;
  const declarations = require('../../data/hazards/fema-declarations.json') as RecordTable;
  const htfDays = require('../../data/hazards/htf-days-historical.json') as { noaa_id: string; years: [number, number][] }[];
  // One event per HURDAT2 landfall record (`L`) in Florida: exact time, position and wind.
  const hurricanes: FloodEvent[] = recordsOf<HurdatLandfall>(landfalls).map((l) => ({
    event_id: `hurdat2:${l.storm_id}:${l.landfall_time.slice(0, 16).replace(/[-:T]/g, '')}`,
    source: 'hurdat2',
    date: l.landfall_time.slice(0, 10),
    end_date: null,
    type: l.wind_kt >= 64 ? 'hurricane' : 'tropical_storm',
    name: `${l.name === 'UNNAMED' ? 'Unnamed storm' : titleCase(l.name)} (${l.storm_id}) Florida landfall ${l.landfall_time.slice(11, 16)} UTC, ${l.county} County`,
    location: { lat: l.lat, lon: l.lon, county: l.county, county_fips: l.county_fips, scope: 'point', counties_within_precision: countiesWithinPrecision(l) },
    magnitude: { wind_kt: l.wind_kt, ...(l.pressure_mb === null ? {} : { pressure_mb: l.pressure_mb }) },
    time_utc: l.landfall_time,
  }));
  const storms = recordsOf<Record<string, string>>(bundledStormEvents).flatMap((row) => eventFromStormEventsRow(row) ?? []);
  const fema: FloodEvent[] = recordsOf<FemaDeclaration>(declarations).filter((d) => FEMA_FLOOD_INCIDENTS.has(d.incident_type)).map((d) => ({
    event_id: `fema:${d.declaration_type === 'Emergency' ? 'EM' : 'DR'}-${d.disaster_number}`,
    source: 'fema_declarations',
    date: d.incident_begin,
    end_date: d.incident_end,
    type: 'disaster_declaration',
    name: `${titleCase(d.name)} (${d.declaration_type} ${d.disaster_number}, declared ${d.declaration_date})`,
    location: { lat: null, lon: null, county: null, county_fips: null, scope: 'state' },
    magnitude: { incident_type: d.incident_type, declaration_type: d.declaration_type },
  }));
  const gauges = new Map(GAUGES.map((g) => [g.noaa_id, g]));
  // TR 086 files fill missing years with 0, so only years with flood days are events.
  const htf: FloodEvent[] = htfDays.flatMap(({ noaa_id, years }) => {
    const gauge = gauges.get(noaa_id)!;
    // A gauge on a pier can stand just outside its county's shoreline-clipped outline (Naples, Panama City Beach).
    const county = countyAtPoint(gauge)?.county;
    return years.filter(([, days]) => days! > 0).map(([year, days]) => ({
      event_id: `htf:${noaa_id}:${year}`,
      source: 'noaa_htf' as const,
      date: `${year}-01-01`,
      end_date: `${year}-12-31`,
      type: 'high_tide_flooding' as const,
      name: `${days} high tide flood day${days === 1 ? '' : 's'} at ${gauge.name} in ${year}`,
      location: { lat: gauge.lat, lon: gauge.lon, county: county?.name ?? null, county_fips: county?.fips ?? null, scope: 'gauge' as const },
      magnitude: { flood_days: days! },
    }));
  });
  bundled = [...hurricanes, ...storms, ...fema, ...htf];
  return bundled;
}

export interface FloodEventQuery {
  centre: LatLon;
  /** A county's polygon: the radius is measured from it (0 inside), not from its centre. */
  area?: { geometry: Polygon | MultiPolygon; bbox: BBox };
  radiusKm: number;
  from?: string;
  to?: string;
  types?: FloodEventType[];
}

/** Counties whose extent comes within the radius of the point or area: the partitions the event store is queried by. */
export function countiesWithinRadius(centre: LatLon, radiusKm: number, area?: { bbox: BBox }): string[] {
  if (!area) return floridaCountyBoundaries().filter((c) => distanceToBBoxKm(centre, c.bbox) <= radiusKm).map((c) => c.fips);
  const reach = grownBBox(area.bbox, radiusKm);
  return floridaCountyBoundaries().filter((c) => bboxesIntersect(c.bbox, reach)).map((c) => c.fips);
}

/** Km from the query's point, or from its area's polygon (0 inside); Infinity where the box already says beyond the radius. */
function distanceFrom(query: FloodEventQuery, point: LatLon): number {
  const { area } = query;
  if (!area) return haversineKm(query.centre, point);
  if (distanceToBBoxKm(point, area.bbox) > query.radiusKm) return Infinity;
  return booleanPointInPolygon([point.lon, point.lat], area.geometry) ? 0 : distanceToBoundaryKm(point, area.geometry);
}

export type FloodEventWithDistance = FloodEvent & { distance_km: number | null };

/**
 * Filters and orders events (newest first, then by id). Events overlap the date range when they
 * start before its end and end after its start; statewide records match any Florida location.
 */
export function selectFloodEvents(events: Iterable<FloodEvent>, query: FloodEventQuery): FloodEventWithDistance[] {
  const seen = new Set<string>();
  const selected: FloodEventWithDistance[] = [];
  for (const event of events) {
    if (seen.has(event.event_id)) continue;
    seen.add(event.event_id);
    if (query.types && !query.types.includes(event.type)) continue;
    if (query.from && (event.end_date ?? event.date) < query.from) continue;
    if (query.to && event.date > query.to) continue;
    const { lat, lon } = event.location;
    const distance = lat === null || lon === null ? null : distanceFrom(query, { lat, lon });
    if (distance !== null && distance > query.radiusKm) continue;
    selected.push({ ...event, distance_km: distance === null ? null : Math.round(distance * 10) / 10 });
  }
  return selected.sort((a, b) => (a.date === b.date ? a.event_id.localeCompare(b.event_id) : a.date < b.date ? 1 : -1));
}

/** An opaque cursor: the sort key of the last event of the page. */
export function encodeEventCursor(event: FloodEvent): string {
  return encodeListCursor({ d: event.date, i: event.event_id });
}

export function decodeEventCursor(cursor: string): { d: string; i: string } {
  return decodeListCursor(cursor, ({ d, i }) => (typeof d === 'string' && typeof i === 'string' ? { d, i } : undefined));
}

export function pageAfter<T extends FloodEvent>(sorted: readonly T[], cursor: { d: string; i: string } | undefined, limit: number): { data: T[]; next_cursor: string | null } {
  const start = cursor ? sorted.findIndex((e) => e.date < cursor.d || (e.date === cursor.d && e.event_id > cursor.i)) : 0;
  const data = start < 0 ? [] : sorted.slice(start, start + limit);
  const more = start >= 0 && start + limit < sorted.length;
  return { data, next_cursor: more ? encodeEventCursor(data[data.length - 1]!) : null };
}

/** Secondary port: historical events loaded by operators (NCEI Storm Events files). */
export interface FloodEventStore {
  /** Events of the given counties starting in [from, to] (inclusive, YYYY-MM-DD; open when absent). */
  eventsInCounties(countyFips: readonly string[], from?: string, to?: string): Promise<FloodEvent[]>;
  /** Idempotent: an event id is one item. Returns the number written. */
  putEvents(events: readonly FloodEvent[]): Promise<number>;
}
