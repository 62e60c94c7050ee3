import { z } from '../schemas/zod';
import { UsageSchema } from '../schemas/account';
import { KEYED_ERRORS, NOT_FOUND, ok } from './responses';
import { defineRoute } from './types';

const WebhookParams = z.object({ id: z.string().min(1).max(64) });
const Passthrough = z.object({}).passthrough();

export const getUsageRoute = defineRoute({
  id: 'getUsage',
  method: 'GET',
  path: '/account/usage',
  group: 'account',
  auth: 'api_key',
  minTier: 'free',
  contractRow: '21',
  tags: ['Account'],
  summary: 'Requests used in the current hourly window',
  description: 'Read from the same counter the rate limiter uses; this request is included in `requests_used`.',
  responses: { 200: ok('Usage of the calling key.', UsageSchema), ...KEYED_ERRORS },
});

export const accountRoutes = [
  getUsageRoute,
  defineRoute({
    id: 'createWebhook', method: 'POST', path: '/account/webhooks', group: 'account', auth: 'api_key', minTier: 'pro',
    contractRow: '22', tags: ['Webhooks'], summary: 'Subscribe an endpoint to events',
    request: { body: Passthrough, maxBodyBytes: 16 * 1024 },
    responses: { 201: ok('The webhook, with its signing secret (shown once).', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'listWebhooks', method: 'GET', path: '/account/webhooks', group: 'account', auth: 'api_key', minTier: 'pro',
    contractRow: '22', tags: ['Webhooks'], summary: 'List webhooks of the account',
    responses: { 200: ok('The webhooks.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'deleteWebhook', method: 'DELETE', path: '/account/webhooks/{id}', group: 'account', auth: 'api_key', minTier: 'pro',
    contractRow: '22', tags: ['Webhooks'], summary: 'Delete a webhook',
    request: { params: WebhookParams },
    responses: { 204: { description: 'Deleted.' }, ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'listWebhookDeliveries', method: 'GET', path: '/account/webhooks/{id}/deliveries', group: 'account', auth: 'api_key', minTier: 'pro',
    contractRow: '22', tags: ['Webhooks'], summary: 'Delivery attempts of a webhook',
    request: { params: WebhookParams },
    responses: { 200: ok('Attempts, newest first.', Passthrough), ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'testWebhook', method: 'POST', path: '/account/webhooks/{id}/test', group: 'account', auth: 'api_key', minTier: 'pro',
    contractRow: '22', tags: ['Webhooks'], summary: 'Send a test event to a webhook',
    request: { params: WebhookParams },
    responses: { 202: ok('Queued.', Passthrough), ...NOT_FOUND, ...KEYED_ERRORS },
  }),
];
