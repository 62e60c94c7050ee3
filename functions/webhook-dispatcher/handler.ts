import { randomUUID } from 'node:crypto';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { appConfig, type AppConfig } from '../../shared/config';
import { DynamoWebhookStore } from '../../shared/adapters/webhook-store';
import { DynamoDeliveryStore } from '../../shared/adapters/delivery-store';
import { SqsDeliveryQueue } from '../../shared/adapters/delivery-queue';
import { HttpWebhookSender } from '../../shared/adapters/webhook-sender';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../../shared/domain/webhooks/backoff';
import { dispatchMessage, type DispatchDeps } from '../../shared/domain/webhooks/dispatch';
import { logger } from '../../shared/observability/logger';
import { countMetric, METRIC, observedHandler } from '../../shared/observability/metrics';

let wired: { config: AppConfig; deps: DispatchDeps } | undefined;

// Built on first use (config fails fast here), and again when the local runner swaps the configuration.
function dispatchDeps(): DispatchDeps {
  const config = appConfig();
  if (wired?.config !== config) {
    wired = {
      config,
      deps: {
        webhooks: new DynamoWebhookStore(),
        deliveries: new DynamoDeliveryStore(),
        sender: new HttpWebhookSender({ mode: config.APP_MODE }),
        queue: new SqsDeliveryQueue(config.EVENT_QUEUE_URL, config.EVENT_DLQ_URL),
        schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE),
        now: () => new Date(),
        newId: randomUUID,
      },
    };
  }
  return wired.deps;
}

/** Builds an SQS handler; tests inject the resolver or other dependencies. */
export function createDispatcher(override: (deps: DispatchDeps) => DispatchDeps = (deps) => deps) {
  const processor = new BatchProcessor(EventType.SQS);
  const processRecord = async (record: SQSRecord) => {
    try {
      const outcome = await dispatchMessage(JSON.parse(record.body), override(dispatchDeps()));
      logger.debug('Queue message processed', { messageId: record.messageId, outcome });
      if (outcome.kind === 'retry_scheduled' || outcome.kind === 'dead_lettered') countMetric(METRIC.webhookDeliveriesFailed);
      if (outcome.kind === 'dead_lettered') countMetric(METRIC.webhookDeliveriesDeadLettered);
    } catch (error) {
      logger.warn('Queue message failed; it will be redelivered', { messageId: record.messageId, error: error as Error });
      throw error;
    }
  };
  // Failed records are reported for redelivery (partial batch response); the rest are deleted.
  return observedHandler((event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, processRecord, processor, { context, throwOnFullBatchFailure: false }));
}

export const handler = createDispatcher();

