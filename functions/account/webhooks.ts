import { randomBytes } from 'node:crypto';
import type {
  createWebhookRoute, deleteWebhookRoute, listWebhookDeliveriesRoute, listWebhooksRoute, testWebhookRoute,
} from '../../shared/routes/account';
import type { RouteImplementation } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { withIdempotency } from '../../shared/http/idempotency';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { appConfig, type AppConfig } from '../../shared/config';
import { DynamoWebhookStore } from '../../shared/adapters/webhook-store';
import { DynamoDeliveryStore } from '../../shared/adapters/delivery-store';
import { SqsDeliveryQueue } from '../../shared/adapters/delivery-queue';
import { checkWebhookUrl } from '../../shared/domain/webhooks/url-rules';
import { newSigningSecret } from '../../shared/domain/webhooks/signing';
import { firstDelivery, type DeliveryAttempt } from '../../shared/domain/webhooks/delivery';
import { WebhookLimitError, type Webhook } from '../../shared/domain/webhooks/ports';
import type { QueuedEvent } from '../../shared/ports';

/** A soft cap per account: fan-out cost grows with it. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10;

interface WebhookDeps {
  config: AppConfig;
  webhooks: DynamoWebhookStore;
  deliveries: DynamoDeliveryStore;
  queue: SqsDeliveryQueue;
  idempotency: DynamoIdempotencyStore;
}

let deps: WebhookDeps | undefined;

// Built on first use, and again when the local runner swaps the configuration.
function webhookDeps(): WebhookDeps {
  const config = appConfig();
  if (deps?.config !== config) {
    deps = { config, webhooks: new DynamoWebhookStore(), deliveries: new DynamoDeliveryStore(), queue: new SqsDeliveryQueue(), idempotency: new DynamoIdempotencyStore() };
  }
  return deps;
}

const publicWebhook = ({ webhook_id, webhook_url, events, description, created_at }: Webhook) => ({
  webhook_id, webhook_url, events, ...(description !== undefined ? { description } : {}), created_at,
});

const publicAttempt = ({ account_id: _account, ...attempt }: DeliveryAttempt) => attempt;

async function ownedWebhook(accountId: string, webhookId: string): Promise<Webhook> {
  const webhook = await webhookDeps().webhooks.get(accountId, webhookId);
  if (!webhook) throw new HttpError('not_found', `No webhook ${webhookId}.`);
  return webhook;
}

export const createWebhook: RouteImplementation<typeof createWebhookRoute> = (request) => withIdempotency(request, webhookDeps().idempotency, async () => {
  const { body, account, now } = request;
  const { config, webhooks } = webhookDeps();
  const verdict = checkWebhookUrl(body.webhook_url, config.APP_MODE);
  if (!verdict.ok) {
    throw new HttpError('invalid_request', `webhook_url is not allowed: ${verdict.reason}`, { errors: [{ field: 'webhook_url', in: 'body', message: verdict.reason }] });
  }
  const webhook: Webhook = {
    webhook_id: `wh_${randomBytes(12).toString('hex')}`,
    account_id: account!.accountId,
    webhook_url: verdict.url.href,
    events: body.events,
    ...(body.description ? { description: body.description } : {}),
    secret: newSigningSecret(),
    created_at: now.toISOString(),
  };
  try {
    await webhooks.create(webhook, MAX_WEBHOOKS_PER_ACCOUNT);
  } catch (error) {
    if (error instanceof WebhookLimitError) throw new HttpError('conflict', `${error.message} Delete one first.`);
    throw error;
  }
  return { status: 201, body: { ...publicWebhook(webhook), secret: webhook.secret } };
});

export const listWebhooks: RouteImplementation<typeof listWebhooksRoute> = async ({ query, account }) => {
  const result = await webhookDeps().webhooks.list(account!.accountId, query.limit, query.cursor);
  return { status: 200, body: { data: result.items.map(publicWebhook), next_cursor: result.nextCursor ?? null } };
};

export const deleteWebhook: RouteImplementation<typeof deleteWebhookRoute> = async ({ params, account }) => {
  if (!(await webhookDeps().webhooks.delete(account!.accountId, params.id))) throw new HttpError('not_found', `No webhook ${params.id}.`);
  return { status: 204 };
};

export const listWebhookDeliveries: RouteImplementation<typeof listWebhookDeliveriesRoute> = async ({ params, query, account }) => {
  const webhook = await ownedWebhook(account!.accountId, params.id);
  const result = await webhookDeps().deliveries.list(webhook.webhook_id, query.limit, query.cursor);
  return { status: 200, body: { data: result.items.map(publicAttempt), next_cursor: result.nextCursor ?? null } };
};

export const testWebhook: RouteImplementation<typeof testWebhookRoute> = async ({ params, account, now }) => {
  const webhook = await ownedWebhook(account!.accountId, params.id);
  const event: QueuedEvent = {
    event_id: `evt_test_${randomBytes(12).toString('hex')}`,
    account_id: webhook.account_id,
    type: 'webhook_test',
    timestamp: now.toISOString(),
    data: { webhook_id: webhook.webhook_id, message: 'Test event: your endpoint receives and verifies deliveries.' },
  };
  // Straight to this endpoint's delivery: a test event is not fanned out to other subscribers.
  await webhookDeps().queue.schedule(firstDelivery(event, webhook.webhook_id, now), 0);
  return { status: 202, body: { event_id: event.event_id, webhook_id: webhook.webhook_id, event_type: 'webhook_test' as const, status: 'queued' as const } };
};
