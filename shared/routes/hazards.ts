import {
  DesignStormParams, DesignStormSchema, StoredDesignStormResponse, FloodAnalysisBody, FloodAnalysisResponse, FloodEventsQuery, FloodEventsResponse, HazardJobAccepted, HazardJobParams, HazardJobResponse,
  SlrImpactBody, SlrImpactResponse, SlrScenariosQuery, SlrScenariosResponse,
} from '../schemas/hazards';
import { IDEMPOTENCY_REUSED, KEYED_ERRORS, NOT_FOUND, ok } from './responses';
import { IdempotencyHeaders } from '../schemas/common';
import { defineRoute } from './types';

export const getSlrScenariosRoute = defineRoute({
  id: 'getSlrScenarios', method: 'GET', path: '/hazards/slr-scenarios', group: 'hazards', auth: 'api_key', minTier: 'free',
  contractRow: '13', tags: ['Hazards'], summary: 'NOAA 2022 sea level rise scenarios for a gauge or location',
  description: 'The five NOAA 2022 Technical Report scenarios (17th/50th/83rd percentiles) in metres and feet relative to 2000, for a Florida gauge (`gauge_id`) or a location. A location uses the two closest gauges without data warnings weighted by inverse distance (one gauge only on request, with `gauge_method=single`, when they are more than 100 miles apart), or, beyond 100 miles of every such gauge, the regional series of its own coast (Southeast Atlantic or Eastern Gulf, that of its closest gauge, data warnings or not) with that gauge\'s datums; the answer names the gauges and weights. Years between decades are interpolated linearly. The statute\'s required scenarios and horizons are flagged.',
  request: { query: SlrScenariosQuery },
  responses: { 200: ok('Scenario values per year.', SlrScenariosResponse), ...KEYED_ERRORS },
});

export const assessSlrImpactRoute = defineRoute({
  id: 'assessSlrImpact', method: 'POST', path: '/hazards/slr-impact', group: 'hazards', auth: 'api_key', minTier: 'pro',
  contractRow: '12', tags: ['Hazards'], summary: 'Sea level rise impact at a point',
  description: 'Projected MHHW (NAVD88) at the planning horizon from the nearest gauges; where elevation data covers the point, the ground elevation (datum correction stated), the water depth, the inundated area connected to open water within `radius_km`, and the caller\'s assets in it. Outside elevation coverage the answer has no area or depth and says why. `local_datum_check` compares the MHHW used (the gauges\') with that of the nearest NOAA reference station within 10 km and says when they differ by more than 0.1 m (up a river or in a lagoon). Screening level.',
  request: { body: SlrImpactBody, maxBodyBytes: 16 * 1024 },
  responses: { 200: ok('Impact at the point.', SlrImpactResponse), ...KEYED_ERRORS },
});

export const analyzeFloodingRoute = defineRoute({
  id: 'analyzeFlooding', method: 'POST', path: '/hazards/flood-analysis', group: 'hazards', auth: 'api_key', minTier: 'pro', idempotency: 'account',
  contractRow: '14', tags: ['Hazards'], summary: '4-component flood analysis over a boundary',
  description: 'Tidal, storm surge, rainfall and compound flooding over a Polygon/MultiPolygon boundary, per scenario and planning horizon (default: the 2024 rule set pair): design water level (NAVD88), exposed area and the caller\'s exposed assets with depths. A component without data answers `status: "no_data"` and names the data to load; the tidal component\'s `local_datum_check` compares its MHHW with the NOAA reference stations in the boundary\'s bounding box. Boundary errors (open ring, self-intersection, outside Florida, too large, wrong type) are 400 with the reason. Large analyses answer 202 with a job URL: a retry with the same `Idempotency-Key` answers the same job (`Idempotent-Replayed: true`) instead of starting another; another body with it is 422.',
  request: { body: FloodAnalysisBody, headers: IdempotencyHeaders, maxBodyBytes: 1024 * 1024 },
  responses: {
    200: ok('The analysis.', FloodAnalysisResponse),
    202: {
      description: 'Too large to answer within the API time limit: the analysis runs as a job; poll `job_url` (also in `Location`).',
      schema: HazardJobAccepted,
      headers: { Location: { description: 'The job URL.', schema: { type: 'string' } } },
    },
    ...IDEMPOTENCY_REUSED,
    ...KEYED_ERRORS,
  },
});

export const getHazardJobRoute = defineRoute({
  id: 'getHazardJob', method: 'GET', path: '/hazards/jobs/{job_id}', group: 'hazards', auth: 'api_key', minTier: 'pro',
  contractRow: '14', tags: ['Hazards'], summary: 'Status and result of a flood analysis job',
  description: 'Poll the `job_id` that `POST /hazards/flood-analysis` answered with 202. `status` goes `queued` → `running` → `succeeded` or `failed`, with `progress` from 0 to 1; `result` is the same body a synchronous analysis answers, once the job succeeded; `error` says why it failed. Jobs are the account\'s own: another account\'s id is 404.',
  request: { params: HazardJobParams },
  responses: { 200: ok('The job; `result` once it succeeded.', HazardJobResponse), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const listFloodEventsRoute = defineRoute({
  id: 'listFloodEvents', method: 'GET', path: '/hazards/flood-events', group: 'hazards', auth: 'api_key', minTier: 'free',
  contractRow: '15', tags: ['Hazards'], summary: 'Historical flood events near a location',
  description: 'Hurricane and tropical storm landfalls (HURDAT2), NCEI Storm Events flood-type records, FEMA disaster declarations (statewide) and NOAA high tide flood day counts per gauge, as one event model, newest first, within `radius_km` (default 100) of `location`.',
  request: { query: FloodEventsQuery },
  responses: { 200: ok('A page of events.', FloodEventsResponse), ...KEYED_ERRORS },
});

export const putDesignStormRoute = defineRoute({
  id: 'putDesignStorm', method: 'PUT', path: '/hazards/design-storms/{jurisdiction}', group: 'hazards', auth: 'api_key', minTier: 'pro',
  contractRow: '14', tags: ['Hazards'], summary: "Store the account's design storm for a jurisdiction",
  description: 'The design storm (rain depth, duration, return period, its source, and a runoff coefficient or curve number) that the account\'s later flood analyses of this jurisdiction (`jurisdiction` in the body) use when they send no `rainfall`; the analysis echoes it with its source. Replaces the one stored before. The service never fetches or invents a depth: read it from NOAA Atlas 14 (PFDS) or the water management district.',
  request: { params: DesignStormParams, body: DesignStormSchema, maxBodyBytes: 8 * 1024 },
  responses: { 200: ok('The stored storm.', StoredDesignStormResponse), ...KEYED_ERRORS },
});

export const getDesignStormRoute = defineRoute({
  id: 'getDesignStorm', method: 'GET', path: '/hazards/design-storms/{jurisdiction}', group: 'hazards', auth: 'api_key', minTier: 'pro',
  contractRow: '14', tags: ['Hazards'], summary: "The account's design storm for a jurisdiction",
  description: 'The design storm stored with PUT for this jurisdiction; 404 when the account has stored none.',
  request: { params: DesignStormParams },
  responses: { 200: ok('The stored storm.', StoredDesignStormResponse), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const hazardRoutes = [getSlrScenariosRoute, assessSlrImpactRoute, analyzeFloodingRoute, getHazardJobRoute, listFloodEventsRoute, putDesignStormRoute, getDesignStormRoute];
