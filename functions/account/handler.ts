import { createGroupHandler } from '../../shared/http/pipeline';
import { accountRoutes } from '../../shared/routes/account';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { withIdempotency, type IdempotencyStore } from '../../shared/http/idempotency';
import { createWebhook, deleteWebhook, listWebhookDeliveries, sendTestEvent, type WebhookDeps } from '../../shared/application/account/webhooks';
import type { DeliveryAttempt } from '../../shared/domain/webhooks/delivery';
import type { Webhook } from '../../shared/domain/webhooks/ports';
import { hourWindow } from '../../shared/domain/tiers';
import type { getUsageRoute } from '../../shared/routes/account';
import type { RouteImplementation } from '../../shared/http/types';
import { idempotencyStore, webhookDeps } from './deps';

/** Reports the limiter's own count for this key; the route is unmetered, so this read is not in it. */
const getUsage: RouteImplementation<typeof getUsageRoute> = async ({ account, rate, now }) => {
  const window = hourWindow(now);
  return {
    status: 200,
    body: {
      requests_used: rate!.used,
      limit: rate!.limit,
      remaining: rate!.remaining,
      reset_time: rate!.resetAt.toISOString(),
      window_start: new Date(window.resetAt.getTime() - 3600_000).toISOString(),
      subscription_tier: account!.tier,
    },
  };
};

const publicWebhook = ({ webhook_id, webhook_url, events, description, created_at }: Webhook) => ({
  webhook_id, webhook_url, events, ...(description !== undefined ? { description } : {}), created_at,
});

const publicAttempt = ({ account_id: _account, ...attempt }: DeliveryAttempt) => attempt;

/** The account API with its dependencies; tests pass their own. */
export function createAccountHandler(deps: () => WebhookDeps, idempotency: () => IdempotencyStore) {
  return createGroupHandler(accountRoutes, {
    getUsage,
    createWebhook: (request) => withIdempotency(request, idempotency(), async () => {
      const webhook = await createWebhook(deps(), request.account!.accountId, request.body, request.now);
      // The secret is shown once, in this answer.
      return { status: 201, body: { ...publicWebhook(webhook), secret: webhook.secret } };
    }),
    listWebhooks: async ({ query, account }) => {
      const page = await deps().webhooks.list(account!.accountId, query.limit, query.cursor);
      return { status: 200, body: { data: page.items.map(publicWebhook), next_cursor: page.nextCursor ?? null } };
    },
    deleteWebhook: async ({ params, account }) => {
      await deleteWebhook(deps(), account!.accountId, params.id);
      return { status: 204 };
    },
    listWebhookDeliveries: async ({ params, query, account }) => {
      const page = await listWebhookDeliveries(deps(), account!.accountId, params.id, query.limit, query.cursor);
      return { status: 200, body: { data: page.items.map(publicAttempt), next_cursor: page.nextCursor ?? null } };
    },
    testWebhook: async ({ params, account, now }) => {
      const event = await sendTestEvent(deps(), account!.accountId, params.id, now);
      return { status: 202, body: { event_id: event.event_id, webhook_id: params.id, event_type: 'webhook_test' as const, status: 'queued' as const } };
    },
  }, defaultPipelineDeps);
}

export const handler = createAccountHandler(webhookDeps, idempotencyStore);
