import { HazardsAtLocationResponse, LocationQuery, RiskQuery, RiskResponse, SuppliesQuery, SuppliesResponse } from '../schemas/v1-risk';
import { BEARER_ERRORS, NOT_FOUND, ok, problem } from './responses';
import { defineRoute, type ResponseDef } from './types';

const OUTSIDE_FLORIDA: Record<number, ResponseDef> = {
  422: problem('The point is not in a Florida county, or the FIPS code is another state\'s (`location_outside_florida`).'),
};

export const calculateRiskRoute = defineRoute({
  id: 'calculateRisk', method: 'GET', path: '/v1/risks/calculate', group: 'v1-risk', auth: 'bearer', minTier: 'free',
  tags: ['Risk and preparedness'], summary: 'FEMA National Risk Index for a Florida county, by FIPS, name or point',
  description: 'FEMA\'s published composite and per-hazard values, scores and ratings (NRI v1.19.0, March 2023, county level) for the county given by `county_fips`, `county` or the point `lat`/`lon` (placed in a county by the Census boundaries; a waterfront point within 5 km of a county\'s shoreline goes to the nearest county, and says so). Values are served as published, never recomputed; ratings without a score (`No Rating`, `Not Applicable`, `Insufficient Data`, `No Expected Annual Losses`) come with `null` scores. FEMA\'s planning-only disclaimer is part of every answer. For Florida\'s 35 coastal counties `coastal` adds this API\'s own NOAA 2022 sea level rise (statute scenarios and horizons) and high tide flooding figures, with their provenance.',
  request: { query: RiskQuery },
  responses: { 200: ok('The risk profile.', RiskResponse), ...NOT_FOUND, ...OUTSIDE_FLORIDA, ...BEARER_ERRORS },
});

export const hazardsAtLocationRoute = defineRoute({
  id: 'hazardsAtLocation', method: 'GET', path: '/v1/hazards/location', group: 'v1-risk', auth: 'bearer', minTier: 'free',
  tags: ['Risk and preparedness'], summary: 'Hazards at a point in Florida',
  description: 'Which FEMA NRI hazards apply in the point\'s county and how strongly (rating and score, strongest first); coastal or inland; for coastal counties the NOAA 2022 sea level rise of the statute\'s scenario pair at its planning horizons from the two nearest gauges, and NOAA high tide flood thresholds with observed and projected flood days; HURDAT2 hurricane and tropical storm landfalls within 100 km; the flood zone stated as unknown, with how to obtain it. Points outside Florida: 422 `location_outside_florida`.',
  request: { query: LocationQuery },
  responses: { 200: ok('The hazards at the point.', HazardsAtLocationResponse), ...OUTSIDE_FLORIDA, ...BEARER_ERRORS },
});

export const generateSuppliesRoute = defineRoute({
  id: 'generateSupplies', method: 'GET', path: '/v1/supplies/generate', group: 'v1-risk', auth: 'bearer', minTier: 'free',
  tags: ['Risk and preparedness'], summary: 'A disaster supply kit for a household',
  description: 'Quantities from the catalogue\'s rules (Ready.gov "Build a Kit", FDEM\'s seven-day recommendation): water 1 gallon per person per day, food per person-day, one item per person or per household as the catalogue says, infant and pet supplies per day; hurricane items for `hazard=hurricane`. Every item carries its source ids and the verbatim source text. `format=csv` answers one line per item; `format=pdf` a printable checklist.',
  request: { query: SuppliesQuery },
  responses: {
    200: {
      description: 'The kit (JSON), or `text/csv`, or `application/pdf` with `format`.',
      schema: SuppliesResponse,
      headers: { 'Content-Disposition': { description: 'For csv and pdf: `attachment; filename=…`.', schema: { type: 'string' as const } } },
    },
    ...BEARER_ERRORS,
  },
});

export const v1RiskRoutes = [calculateRiskRoute, hazardsAtLocationRoute, generateSuppliesRoute];
