import { z } from '../schemas/zod';
import { KEYED_ERRORS, ok } from './responses';
import { defineRoute } from './types';

const Passthrough = z.object({}).passthrough();

export const complianceRoutes = [
  defineRoute({
    id: 'validateCompliance', method: 'POST', path: '/compliance/validate', group: 'compliance', auth: 'api_key', minTier: 'pro',
    contractRow: '18', tags: ['Compliance'], summary: 'Validate an assessment against s. 380.093',
    request: { body: Passthrough, maxBodyBytes: 256 * 1024 },
    responses: { 200: ok('The validation.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'getComplianceChecklist', method: 'GET', path: '/compliance/checklist', group: 'compliance', auth: 'api_key', minTier: 'free',
    contractRow: '19', tags: ['Compliance'], summary: 'Checklist items A–N for an assessment year',
    responses: { 200: ok('The checklist.', Passthrough), ...KEYED_ERRORS },
  }),
];
