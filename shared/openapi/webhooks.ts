import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AssessmentCompleteEvent, DeadlineReminderEvent, WebhookDeliveryHeaders, WebhookTestEvent } from '../schemas/events';
import type { WebhookEventType } from '../schemas/events';
import type * as z from 'zod';

const DELIVERY_RULES = 'Delivered as `POST` with a JSON body `{type, timestamp, data}` and the Standard Webhooks headers. '
  + 'Verify `webhook-signature` (HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint secret) before trusting the body. '
  + 'Answer any 2xx within 10 seconds; other answers and timeouts are retried with exponential backoff and jitter, and every attempt is listed by `GET /account/webhooks/{id}/deliveries`.';

const EVENTS: Record<WebhookEventType | 'webhook_test', { summary: string; schema: () => z.ZodType }> = {
  assessment_complete: { summary: 'An assessment reached status `complete`', schema: AssessmentCompleteEvent },
  deadline_reminder: { summary: 'A program deadline is 30, 7 or 1 days away', schema: DeadlineReminderEvent },
  webhook_test: { summary: 'A test delivery requested with POST /account/webhooks/{id}/test', schema: WebhookTestEvent },
};

/** The events the API sends to subscribed endpoints, documented in the `webhooks` section. */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const [type, event] of Object.entries(EVENTS)) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `${type}Webhook`,
      summary: event.summary,
      description: DELIVERY_RULES,
      tags: ['Webhooks'],
      request: {
        headers: WebhookDeliveryHeaders(),
        body: { required: true, content: { 'application/json': { schema: event.schema() } } },
      },
      responses: {
        '2XX': { description: 'Received; the delivery is recorded as successful.' },
        default: { description: 'Any other answer (or none within 10 seconds) is retried later.' },
      },
    });
  }
}
