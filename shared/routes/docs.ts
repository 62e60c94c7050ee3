import { z } from '../schemas/zod';
import { PUBLIC_ERRORS, ok } from './responses';
import { defineRoute } from './types';

export const docsRoutes = [
  defineRoute({
    id: 'getHealth', method: 'GET', path: '/health', group: 'docs', auth: 'none', minTier: 'free',
    tags: ['Meta'], summary: 'Liveness check (no key needed)',
    responses: { 200: ok('The service answers.', z.object({ status: z.literal('ok'), version: z.string().max(40) }).openapi('Health')), ...PUBLIC_ERRORS },
  }),
  defineRoute({
    id: 'getOpenApi', method: 'GET', path: '/openapi.json', group: 'docs', auth: 'none', minTier: 'free',
    tags: ['Meta'], summary: 'This OpenAPI 3.1 document (no key needed)',
    responses: { 200: ok('The OpenAPI document.', z.object({}).passthrough()), ...PUBLIC_ERRORS },
  }),
  defineRoute({
    id: 'getDocs', method: 'GET', path: '/docs', group: 'docs', auth: 'none', minTier: 'free',
    tags: ['Meta'], summary: 'HTML API reference (no key needed, no external assets)',
    responses: { 200: { description: 'HTML reference.', contentType: 'text/html', schema: z.string().max(5_000_000) }, ...PUBLIC_ERRORS },
  }),
];
