import * as z from './zod';
import { onFirstUse } from '../on-first-use';

/**
 * Events delivered to webhook endpoints (Standard Webhooks). The dispatcher signs the serialised
 * body; subscribers pick the events they want by `type`.
 */
export const WEBHOOK_EVENT_TYPES = ['assessment_complete', 'deadline_reminder'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const Timestamp = onFirstUse(() => z.iso.datetime().max(40).describe('When the event occurred (ISO 8601, UTC).'));

export const AssessmentCompleteData = onFirstUse(() => z.object({
  assessment_id: z.string().min(1).max(64).describe('The assessment that reached status `complete`.'),
  jurisdiction: z.string().min(1).max(120).describe('Florida county or municipality the assessment covers.'),
  completed_at: z.iso.datetime().max(40).describe('When the assessment became complete (ISO 8601, UTC).'),
}).openapi('AssessmentCompleteData'));

export const DeadlineReminderData = onFirstUse(() => z.object({
  deadline_id: z.string().min(1).max(60).describe('Id of the deadline, as listed by `GET /grants/deadlines`.'),
  deadline_name: z.string().min(1).max(200),
  deadline_date: z.iso.date().max(10).describe('Date of the deadline (YYYY-MM-DD).'),
  days_before: z.number().int().min(0).max(366).describe('Days left until the deadline: reminders go out 30, 7 and 1 days before.'),
}).openapi('DeadlineReminderData'));

export const AssessmentCompleteEvent = onFirstUse(() => z.object({
  type: z.literal('assessment_complete'),
  timestamp: Timestamp(),
  data: AssessmentCompleteData(),
}).openapi('AssessmentCompleteEvent', { description: 'Sent once when an assessment reaches status `complete`.' }));

export const DeadlineReminderEvent = onFirstUse(() => z.object({
  type: z.literal('deadline_reminder'),
  timestamp: Timestamp(),
  data: DeadlineReminderData(),
}).openapi('DeadlineReminderEvent', { description: 'Sent by the daily schedule 30, 7 and 1 days before each program deadline, once per account and deadline.' }));

export const WebhookTestEvent = onFirstUse(() => z.object({
  type: z.literal('webhook_test'),
  timestamp: Timestamp(),
  data: z.object({
    webhook_id: z.string().min(1).max(64),
    message: z.string().max(200),
  }).openapi('WebhookTestData'),
}).openapi('WebhookTestEvent', { description: 'Sent to one endpoint by `POST /account/webhooks/{id}/test`; not subscribable.' }));

export const WebhookEventSchema = onFirstUse(() => z.discriminatedUnion('type', [AssessmentCompleteEvent(), DeadlineReminderEvent()]));
export type WebhookEvent = z.infer<ReturnType<typeof WebhookEventSchema>>;

/** Headers of every delivery, as Standard Webhooks defines them. */
export const WebhookDeliveryHeaders = onFirstUse(() => z.object({
  'webhook-id': z.string().min(1).max(100).describe('Unique id of the event; the same on every retry, so receivers can drop duplicates.'),
  'webhook-timestamp': z.string().regex(/^\d{1,12}$/).max(12).describe('Unix time in seconds of this attempt; reject deliveries more than a few minutes old.'),
  'webhook-signature': z.string().min(1).max(1000).describe('Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint\'s `whsec_` secret (base64 after the prefix).'),
}));
