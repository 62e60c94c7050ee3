import type { assessSlrImpactRoute } from '../../shared/routes/hazards';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { isNearFlorida } from '../../shared/domain/hazards/location';
import { assessSlrImpact as assess } from '../../shared/domain/hazards/slr-impact';
import type { Percentile } from '../../shared/domain/hazards/scenarios';
import type { HazardDeps } from './deps';
import { gaugeChoiceParam } from './gauge-choice';
import { floridaDate } from '../../shared/domain/florida-time';

/** This year on Florida's calendar: the "today" of existing water. */
export const floridaYear = (now: Date) => Number(floridaDate(now).slice(0, 4));

export function slrImpactRoute(deps: HazardDeps) {
  return async (request: RouteRequest<typeof assessSlrImpactRoute>): Promise<RouteResult> => {
    const body = request.body;
    const point = { lat: body.lat, lon: body.lon };
    if (!isNearFlorida(point)) {
      const message = `${body.lat}, ${body.lon} is not in or near Florida (lat and lon in WGS 84 degrees, longitude negative).`;
      throw new HttpError('invalid_request', message, { errors: [{ field: 'lat', in: 'body', message }] });
    }
    const selection = gaugeChoiceParam(point, body, 'body');
    const assets = await deps.assets().assetsNear(request.account!.accountId, point, body.radius_km);
    const result = await assess({
      point,
      scenario: body.scenario,
      planningHorizon: body.planning_horizon,
      percentile: String(body.percentile) as Percentile,
      radiusKm: body.radius_km,
      includeGeoJson: body.include_geojson,
      selection,
      currentYear: floridaYear(request.now),
      allowSurfaceModel: body.allow_surface_model,
    }, { elevation: deps.elevation(), assets });
    return { status: 200, body: result };
  };
}
