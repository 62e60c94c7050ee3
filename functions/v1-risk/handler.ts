import { defaultPipelineDeps } from '../../shared/http/deps';
import { createGroupHandler } from '../../shared/http/pipeline';
import { v1RiskRoutes } from '../../shared/routes/v1-risk';
import { HttpError } from '../../shared/http/problem';
import { hazardsAt, riskAt, UnresolvedPlaceError } from '../../shared/application/risk/risk-answers';
import { supplyKit } from '../../shared/application/preparedness/supply-kit';
import type { PlaceQuery } from '../../shared/domain/risk/place';
import { riskRouteDeps, type RiskRouteDeps } from './deps';

/** A place that cannot be resolved → its problem. */
async function placed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnresolvedPlaceError) throw new HttpError(error.reason === 'outside_florida' ? 'location_outside_florida' : 'not_found', error.message);
    throw error;
  }
}

/** The `/v1` risk API over its use cases; tests pass their own deps. */
export function createRiskHandler(deps: () => RiskRouteDeps) {
  return createGroupHandler(v1RiskRoutes, {
    calculateRisk: async (request) => {
      const { county_fips, county, lat, lon, hazards } = request.query;
      const query: PlaceQuery = county_fips !== undefined ? { county_fips } : county !== undefined ? { county } : { lat: lat!, lon: lon! };
      return { status: 200, body: await placed(() => riskAt(deps().risk, query, hazards, request.now)) };
    },

    hazardsAtLocation: async (request) => ({
      status: 200,
      body: await placed(() => hazardsAt(deps().risk, { lat: request.query.lat, lon: request.query.lon }, request.now)),
    }),

    generateSupplies: async (request) => {
      const { format, ...household } = request.query;
      const kit = await supplyKit(deps().kits, household, format, request.now);
      if (kit.format === 'json') return { status: 200, body: kit.kit };
      return { status: 200, rawBody: kit.file.content, contentType: kit.file.contentType, headers: { 'Content-Disposition': `attachment; filename="${kit.file.name}"` } };
    },
  }, defaultPipelineDeps);
}

export const handler = createRiskHandler(riskRouteDeps);
