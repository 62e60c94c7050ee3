import { randomBytes } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors';
import type { AppMode } from '../../domain/webhooks/addresses';
import { firstDelivery, type DeliveryAttempt } from '../../domain/webhooks/delivery';
import { WebhookLimitError, type DeliveryQueue, type DeliveryStore, type Page, type Webhook, type WebhookStore } from '../../domain/webhooks/ports';
import { newSigningSecret } from '../../domain/webhooks/signing';
import { checkWebhookUrl } from '../../domain/webhooks/url-rules';
import type { QueuedEvent } from '../../ports';

/** A soft cap per account: fan-out cost grows with it. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10;

/** The ports the webhook use cases reach. */
export interface WebhookDeps {
  webhooks: WebhookStore;
  deliveries: Pick<DeliveryStore, 'list'>;
  queue: Pick<DeliveryQueue, 'schedule'>;
  /** Which webhook URLs are allowed: loopback over http only in local mode. */
  mode: AppMode;
}

export interface NewWebhook {
  webhook_url: string;
  events: string[];
  description?: string;
}

/** Subscribes an endpoint, with a new signing secret (the caller shows it once). */
export async function createWebhook(deps: WebhookDeps, accountId: string, input: NewWebhook, now: Date): Promise<Webhook> {
  const verdict = checkWebhookUrl(input.webhook_url, deps.mode);
  if (!verdict.ok) {
    throw new InvalidInputError(`webhook_url is not allowed: ${verdict.reason}`, [{ field: 'webhook_url', in: 'body', message: verdict.reason }]);
  }
  const webhook: Webhook = {
    webhook_id: `wh_${randomBytes(12).toString('hex')}`,
    account_id: accountId,
    webhook_url: verdict.url.href,
    events: input.events,
    ...(input.description ? { description: input.description } : {}),
    secret: newSigningSecret(),
    created_at: now.toISOString(),
  };
  try {
    await deps.webhooks.create(webhook, MAX_WEBHOOKS_PER_ACCOUNT);
  } catch (error) {
    if (error instanceof WebhookLimitError) throw new ConflictError(`${error.message} Delete one first.`);
    throw error;
  }
  return webhook;
}

export async function deleteWebhook(deps: Pick<WebhookDeps, 'webhooks'>, accountId: string, webhookId: string): Promise<void> {
  if (!(await deps.webhooks.delete(accountId, webhookId))) throw new NotFoundError(`No webhook ${webhookId}.`);
}

async function ownedWebhook(deps: Pick<WebhookDeps, 'webhooks'>, accountId: string, webhookId: string): Promise<Webhook> {
  const webhook = await deps.webhooks.get(accountId, webhookId);
  if (!webhook) throw new NotFoundError(`No webhook ${webhookId}.`);
  return webhook;
}

/** One page of an account's endpoint's delivery attempts, newest first. */
export async function listWebhookDeliveries(deps: WebhookDeps, accountId: string, webhookId: string, limit: number, cursor?: string): Promise<Page<DeliveryAttempt>> {
  const webhook = await ownedWebhook(deps, accountId, webhookId);
  return deps.deliveries.list(webhook.webhook_id, limit, cursor);
}

/** Queues a test event straight to this endpoint's delivery: a test event is not fanned out to other subscribers. */
export async function sendTestEvent(deps: WebhookDeps, accountId: string, webhookId: string, now: Date): Promise<QueuedEvent> {
  const webhook = await ownedWebhook(deps, accountId, webhookId);
  const event: QueuedEvent = {
    event_id: `evt_test_${randomBytes(12).toString('hex')}`,
    account_id: webhook.account_id,
    type: 'webhook_test',
    timestamp: now.toISOString(),
    data: { webhook_id: webhook.webhook_id, message: 'Test event: your endpoint receives and verifies deliveries.' },
  };
  await deps.queue.schedule(firstDelivery(event, webhook.webhook_id, now), 0);
  return event;
}
