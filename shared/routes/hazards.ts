import { z } from '../schemas/zod';
import { KEYED_ERRORS, ok } from './responses';
import { defineRoute } from './types';

const Passthrough = z.object({}).passthrough();

export const hazardRoutes = [
  defineRoute({
    id: 'getSlrScenarios', method: 'GET', path: '/hazards/slr-scenarios', group: 'hazards', auth: 'api_key', minTier: 'free',
    contractRow: '13', tags: ['Hazards'], summary: 'NOAA 2022 sea level rise scenarios for a gauge or location',
    responses: { 200: ok('Scenario values.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'assessSlrImpact', method: 'POST', path: '/hazards/slr-impact', group: 'hazards', auth: 'api_key', minTier: 'pro',
    contractRow: '12', tags: ['Hazards'], summary: 'Sea level rise impact at a point',
    request: { body: Passthrough, maxBodyBytes: 16 * 1024 },
    responses: { 200: ok('Impact.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'analyzeFlooding', method: 'POST', path: '/hazards/flood-analysis', group: 'hazards', auth: 'api_key', minTier: 'pro',
    contractRow: '14', tags: ['Hazards'], summary: '4-component flood analysis over a boundary',
    request: { body: Passthrough, maxBodyBytes: 1024 * 1024 },
    responses: { 200: ok('Analysis.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'listFloodEvents', method: 'GET', path: '/hazards/flood-events', group: 'hazards', auth: 'api_key', minTier: 'free',
    contractRow: '15', tags: ['Hazards'], summary: 'Historical flood events near a location',
    responses: { 200: ok('A page of events.', Passthrough), ...KEYED_ERRORS },
  }),
];
