import type { z } from 'zod';
import { bundledFloodEvents, countiesWithinRadius, decodeEventCursor, pageAfter, selectFloodEvents } from '../../domain/hazards/flood-events';
import { provenance, sourcesOf } from '../../domain/hazards/provenance';
import { countyBoundaryByFips } from '../../domain/hazards/florida-counties';
import type { FloodEventsQuery } from '../../schemas/hazards';
import { locationParam } from './location-param';
import type { HazardDeps } from './ports';

/** `GET /hazards/flood-events`: loaded and bundled events near a location, one page. */
export async function listFloodEvents(deps: Pick<HazardDeps, 'events'>, query: z.output<ReturnType<typeof FloodEventsQuery>>) {
  const { location, radius_km, date_range, event_type, limit, cursor } = query;
  const resolved = locationParam(location);
  const after = cursor ? decodeEventCursor(cursor) : undefined;
  const [from, to] = date_range ?? [undefined, undefined];
  // A county is searched by its polygon plus the radius, not by a circle around its centre.
  const county = resolved.jurisdiction?.type === 'county' ? countyBoundaryByFips(resolved.jurisdiction.county_fips) : undefined;
  const stored = await deps.events().eventsInCounties(countiesWithinRadius(resolved.point, radius_km, county), from || undefined, to || undefined);
  // Loaded rows come first so they win over the bundled copy of the same event.
  const events = selectFloodEvents([...stored, ...bundledFloodEvents()], {
    centre: resolved.point, ...(county ? { area: county } : {}), radiusKm: radius_km, from: from || undefined, to: to || undefined, types: event_type,
  });
  return {
    ...pageAfter(events, after, limit),
    location: { query: resolved.label, lat: resolved.point.lat, lon: resolved.point.lon, distance_from: county ? 'county_boundary' : 'point' },
    radius_km,
    sources: sourcesOf(['hurdat2', 'ncei_storm_events', 'fema_declarations', 'noaa_htf']),
    provenance: provenance(['hurdat2', 'ncei_storm_events', 'fema_declarations', 'noaa_htf', 'us_atlas'], null),
  };
}
