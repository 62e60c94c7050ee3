import { SqsDeliveryQueue } from '../../shared/adapters/delivery-queue';
import { DynamoDeliveryStore } from '../../shared/adapters/delivery-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { DynamoWebhookStore } from '../../shared/adapters/webhook-store';
import type { WebhookDeps } from '../../shared/application/account/webhooks';
import { wiring } from '../../shared/config';

/** The webhook use cases' adapters. */
export const webhookDeps = wiring((config): WebhookDeps => ({
  webhooks: new DynamoWebhookStore(), deliveries: new DynamoDeliveryStore(), queue: new SqsDeliveryQueue(), mode: config.APP_MODE,
}));

export const idempotencyStore = wiring(() => new DynamoIdempotencyStore());
