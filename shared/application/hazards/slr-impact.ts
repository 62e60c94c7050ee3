import type { z } from 'zod';
import { invalidField } from '../../domain/errors';
import { isNearFlorida } from '../../domain/hazards/location';
import { assessSlrImpact as assess } from '../../domain/hazards/slr-impact';
import type { Percentile } from '../../domain/hazards/scenarios';
import type { SlrImpactBody } from '../../schemas/hazards';
import type { HazardDeps } from './ports';
import { gaugeChoiceParam } from './gauge-choice';
import { floridaDate } from '../../domain/florida-time';

/** This year on Florida's calendar: the "today" of existing water. */
export const floridaYear = (now: Date) => Number(floridaDate(now).slice(0, 4));

/** `POST /hazards/slr-impact` for one account (deps from `forAccount`). */
export async function slrImpact(deps: Pick<HazardDeps, 'assets' | 'elevation'>, accountId: string, body: z.output<ReturnType<typeof SlrImpactBody>>, now: Date) {
  const point = { lat: body.lat, lon: body.lon };
  if (!isNearFlorida(point)) {
    const message = `${body.lat}, ${body.lon} is not in or near Florida (lat and lon in WGS 84 degrees, longitude negative).`;
    throw invalidField('lat', 'body', message);
  }
  const selection = gaugeChoiceParam(point, body, 'body');
  const assets = await deps.assets().assetsNear(accountId, point, body.radius_km);
  return assess({
    point,
    scenario: body.scenario,
    planningHorizon: body.planning_horizon,
    percentile: String(body.percentile) as Percentile,
    radiusKm: body.radius_km,
    includeGeoJson: body.include_geojson,
    selection,
    currentYear: floridaYear(now),
    allowSurfaceModel: body.allow_surface_model,
  }, { elevation: deps.elevation(), assets });
}
