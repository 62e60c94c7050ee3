import { UsageSchema } from '../schemas/account';
import {
  CreateWebhookRequestSchema, CreatedWebhookSchema, DeliveryListSchema, WebhookListQuery, WebhookListSchema, WebhookParams,
  WebhookTestAcceptedSchema,
} from '../schemas/webhooks';
import { IdempotencyHeaders } from '../schemas/common';
import { CONFLICT, IDEMPOTENCY_REUSED, KEYED_ERRORS, NOT_FOUND, ok } from './responses';
import { defineRoute } from './types';

export const getUsageRoute = defineRoute({
  id: 'getUsage',
  method: 'GET',
  path: '/account/usage',
  group: 'account',
  auth: 'api_key',
  minTier: 'free',
  metered: false,
  contractRow: '21',
  tags: ['Account'],
  summary: 'Requests used in the current hourly window',
  description: 'Read from the same counter the rate limiter uses. This request is not counted and is answered even when the hourly limit is spent; refusals for the tier (403) are not counted either. Exact once the other instances\' quota leases settle (about a second).',
  responses: { 200: ok('Usage of the calling key.', UsageSchema), ...KEYED_ERRORS },
});

const WEBHOOK_URL_RULES = 'URLs must be `https` on port 443 (plain `http`, or another port, only to loopback, and only in local mode). Literal private, loopback, link-local, CGNAT and metadata addresses and names such as `localhost` are refused at creation, without DNS; at every delivery the name is resolved, every address checked again and the connection made to the checked address.';

export const createWebhookRoute = defineRoute({
  id: 'createWebhook', method: 'POST', path: '/account/webhooks', group: 'account', auth: 'api_key', minTier: 'pro',
  contractRow: '22', tags: ['Webhooks'], summary: 'Subscribe an endpoint to events',
  description: `Deliveries follow Standard Webhooks (headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`), signed with the \`whsec_\` secret returned once in this response. ${WEBHOOK_URL_RULES} At most 10 webhooks per account (409 \`conflict\` beyond). An \`Idempotency-Key\` makes a retried creation return the first response instead of a second webhook.`,
  request: { body: CreateWebhookRequestSchema, headers: IdempotencyHeaders, maxBodyBytes: 16 * 1024 },
  responses: { 201: ok('The webhook, with its signing secret (shown once).', CreatedWebhookSchema), ...CONFLICT, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
});

export const listWebhooksRoute = defineRoute({
  id: 'listWebhooks', method: 'GET', path: '/account/webhooks', group: 'account', auth: 'api_key', minTier: 'pro',
  contractRow: '22', tags: ['Webhooks'], summary: 'List webhooks of the account',
  description: 'Secrets are never listed.',
  request: { query: WebhookListQuery },
  responses: { 200: ok('The webhooks, one page.', WebhookListSchema), ...KEYED_ERRORS },
});

export const deleteWebhookRoute = defineRoute({
  id: 'deleteWebhook', method: 'DELETE', path: '/account/webhooks/{id}', group: 'account', auth: 'api_key', minTier: 'pro',
  contractRow: '22', tags: ['Webhooks'], summary: 'Delete a webhook',
  description: 'Pending retries to the endpoint are dropped.',
  request: { params: WebhookParams },
  responses: { 204: { description: 'Deleted.' }, ...NOT_FOUND, ...KEYED_ERRORS },
});

export const listWebhookDeliveriesRoute = defineRoute({
  id: 'listWebhookDeliveries', method: 'GET', path: '/account/webhooks/{id}/deliveries', group: 'account', auth: 'api_key', minTier: 'pro',
  contractRow: '22', tags: ['Webhooks'], summary: 'Delivery attempts of a webhook',
  description: 'Every attempt, newest first, kept 30 days: status, HTTP status, duration, a coarse error class (`timeout`, `refused`, `tls`, `dns`, `http_status`, `blocked`; never the raw network error), attempt number and when the next retry is due. A failed delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (each stretched by up to 20 % of random jitter; 8 attempts over more than 27 h), then goes to the dead-letter queue.',
  request: { params: WebhookParams, query: WebhookListQuery },
  responses: { 200: ok('Attempts, newest first.', DeliveryListSchema), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const testWebhookRoute = defineRoute({
  id: 'testWebhook', method: 'POST', path: '/account/webhooks/{id}/test', group: 'account', auth: 'api_key', minTier: 'pro', idempotency: 'account',
  contractRow: '22', tags: ['Webhooks'], summary: 'Send a test event to a webhook',
  description: 'Queues a `webhook_test` event to this endpoint only, delivered and retried like any other; watch it in the deliveries list. A retry with the same `Idempotency-Key` answers the first response (`Idempotent-Replayed: true`) and queues no second event.',
  request: { params: WebhookParams, headers: IdempotencyHeaders },
  responses: { 202: ok('Queued.', WebhookTestAcceptedSchema), ...NOT_FOUND, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
});

export const accountRoutes = [
  getUsageRoute,
  createWebhookRoute,
  listWebhooksRoute,
  deleteWebhookRoute,
  listWebhookDeliveriesRoute,
  testWebhookRoute,
];
