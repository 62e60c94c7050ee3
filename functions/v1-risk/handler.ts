import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { createGroupHandler } from '../../shared/http/pipeline';
import { v1RiskRoutes } from '../../shared/routes/v1-risk';
import { HttpError } from '../../shared/http/problem';
import type { RouteImplementation } from '../../shared/http/types';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { generateKit, kitCsv } from '../../shared/domain/preparedness/kit';
import { calculateRisk, hazardsAtLocation } from '../../shared/domain/risk/answers';
import { resolvePlace, type PlaceQuery, type RiskPlace } from '../../shared/domain/risk/place';
import type { calculateRiskRoute, generateSuppliesRoute, hazardsAtLocationRoute } from '../../shared/routes/v1-risk';
import { floridaDate } from '../../shared/domain/florida-time';

export interface RiskDeps {
  tides: TidePredictor;
}

function placeOrProblem(query: PlaceQuery): RiskPlace {
  const result = resolvePlace(query);
  if (result.ok) return result.place;
  throw new HttpError(result.reason === 'outside_florida' ? 'location_outside_florida' : 'not_found', result.message);
}

/** The planning year of the statute's horizons: the current year. */
const assessmentYear = (now: Date) => now.getUTCFullYear();

export function createRiskHandler(deps: RiskDeps) {
  const calculate: RouteImplementation<typeof calculateRiskRoute> = async (request) => {
    const { county_fips, county, lat, lon, hazards } = request.query;
    const query: PlaceQuery = county_fips !== undefined ? { county_fips } : county !== undefined ? { county } : { lat: lat!, lon: lon! };
    return { status: 200, body: await calculateRisk(placeOrProblem(query), { hazards, assessmentYear: assessmentYear(request.now), tides: deps.tides }) };
  };

  const atLocation: RouteImplementation<typeof hazardsAtLocationRoute> = async (request) => ({
    status: 200,
    body: await hazardsAtLocation(placeOrProblem({ lat: request.query.lat, lon: request.query.lon }), { assessmentYear: assessmentYear(request.now), tides: deps.tides }),
  });

  const supplies: RouteImplementation<typeof generateSuppliesRoute> = async (request) => {
    const { format, ...household } = request.query;
    const kit = generateKit(household);
    const name = `supply-kit-${household.adults + household.children + household.infants}-people-${household.days}-days`;
    if (format === 'csv') {
      return { status: 200, rawBody: kitCsv(kit), contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': `attachment; filename="${name}.csv"` } };
    }
    if (format === 'pdf') {
      // Loaded on the first PDF only: requiring pdfkit takes 220–370 ms, which JSON and CSV answers need not pay at cold start.
      const { kitPdf } = await import('./kit-pdf');
      return { status: 200, rawBody: await kitPdf(kit, floridaDate(request.now)), contentType: 'application/pdf', headers: { 'Content-Disposition': `attachment; filename="${name}.pdf"` } };
    }
    return { status: 200, body: kit };
  };

  return createGroupHandler(v1RiskRoutes, { calculateRisk: calculate, hazardsAtLocation: atLocation, generateSupplies: supplies }, defaultPipelineDeps);
}

export const handler = createRiskHandler({ tides: harmonicTides });
