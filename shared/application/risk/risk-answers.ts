import type { TidePredictor } from '../../domain/hazards/tide-flood-days';
import { calculateRisk, hazardsAtLocation } from '../../domain/risk/answers';
import { resolvePlace, type PlaceQuery, type PlaceResult, type RiskPlace } from '../../domain/risk/place';

export interface RiskDeps {
  tides: TidePredictor;
}

/** A place no risk question can be asked of: outside Florida, or no such county. */
export class UnresolvedPlaceError extends Error {
  constructor(readonly reason: Extract<PlaceResult, { ok: false }>['reason'], message: string) {
    super(message);
    this.name = 'UnresolvedPlaceError';
  }
}

function placeOf(query: PlaceQuery): RiskPlace {
  const result = resolvePlace(query);
  if (result.ok) return result.place;
  throw new UnresolvedPlaceError(result.reason, result.message);
}

/** The planning year of the statute's horizons: the current year. */
const assessmentYear = (now: Date) => now.getUTCFullYear();

/** `GET /v1/risks/calculate`: the county's risk figures, for the hazards asked (all by default). */
export function riskAt(deps: RiskDeps, query: PlaceQuery, hazards: readonly string[] | undefined, now: Date) {
  return calculateRisk(placeOf(query), { hazards, assessmentYear: assessmentYear(now), tides: deps.tides });
}

/** `GET /v1/hazards/location`: the hazards at a point. */
export function hazardsAt(deps: RiskDeps, point: { lat: number; lon: number }, now: Date) {
  return hazardsAtLocation(placeOf(point), { assessmentYear: assessmentYear(now), tides: deps.tides });
}
