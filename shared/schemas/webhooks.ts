import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, LimitParam } from './common';
import { WEBHOOK_EVENT_TYPES } from './events';
import { DELIVERY_ERROR_CLASSES } from '../domain/webhooks/ports';

export const WebhookParams = onFirstUse(() => z.object({
  id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'Not a webhook id').describe('The `webhook_id`.'),
}));

export const WebhookListQuery = onFirstUse(() => z.object({ limit: LimitParam(), cursor: CursorParam() }));

export const CreateWebhookRequestSchema = onFirstUse(() => z.object({
  webhook_url: z.string().trim().min(1).max(2048).describe('The endpoint: `https` (plain `http` to loopback in local mode only); private, loopback, link-local and metadata addresses are refused, here and again at every delivery after DNS resolution.'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length)
    .refine((events) => new Set(events).size === events.length, 'List each event once')
    .describe('Events to deliver.'),
  description: z.string().trim().max(200).optional(),
}).strict().openapi('CreateWebhookRequest'));

export const WebhookSchema = onFirstUse(() => z.object({
  webhook_id: z.string().max(64),
  webhook_url: z.string().max(2048),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).max(WEBHOOK_EVENT_TYPES.length),
  description: z.string().max(200).optional(),
  created_at: z.string().max(40),
}).openapi('Webhook'));

export const CreatedWebhookSchema = onFirstUse(() => WebhookSchema().extend({
  secret: z.string().max(100).describe('`whsec_…` signing secret. Shown only in this response: store it to verify `webhook-signature`.'),
}).openapi('CreatedWebhook'));

export const WebhookListSchema = onFirstUse(() => z.object({
  data: z.array(WebhookSchema()).max(100),
  next_cursor: z.string().max(2000).nullable(),
}).openapi('WebhookList'));

export const DeliveryAttemptSchema = onFirstUse(() => z.object({
  delivery_id: z.string().max(64),
  webhook_id: z.string().max(64),
  event_id: z.string().max(100).describe('Also the `webhook-id` header of the delivery: the same on every attempt.'),
  event_type: z.string().max(40),
  attempt: z.number().int().min(1),
  status: z.enum(['succeeded', 'failed']),
  response_status: z.number().int().nullable().describe('HTTP status the endpoint answered; null when none arrived (refused, DNS, timeout, connection error).'),
  duration_ms: z.number().int().min(0),
  error: z.enum(DELIVERY_ERROR_CLASSES).nullable().describe('Why the attempt failed, coarsely (never the raw network error): `timeout`, `refused` (refused, reset or unreachable), `tls`, `dns`, `http_status` (see `response_status`), `blocked` (the URL or an address it resolves to is not allowed for webhooks); null on success.'),
  attempted_at: z.string().max(40),
  next_retry_at: z.string().max(40).nullable().describe('When the next attempt is due; null after a success or the last attempt.'),
  dead_lettered: z.boolean().describe('The last attempt failed and the delivery went to the dead-letter queue.'),
}).openapi('WebhookDeliveryAttempt'));

export const DeliveryListSchema = onFirstUse(() => z.object({
  data: z.array(DeliveryAttemptSchema()).max(100),
  next_cursor: z.string().max(2000).nullable(),
}).openapi('WebhookDeliveryList'));

export const WebhookTestAcceptedSchema = onFirstUse(() => z.object({
  event_id: z.string().max(100),
  webhook_id: z.string().max(64),
  event_type: z.literal('webhook_test'),
  status: z.literal('queued'),
}).openapi('WebhookTestAccepted'));
