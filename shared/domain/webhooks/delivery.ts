import type { QueuedEvent } from '../../ports';

/**
 * What went wrong with an attempt, coarsely: delivery logs never carry raw socket errors, which
 * would make webhooks a probe of other hosts' ports and networks. `http_status`: the endpoint
 * answered outside 2xx (the status is beside it); `refused`: refused, reset or unreachable;
 * `blocked`: the URL or an address it resolved to is not allowed for webhooks.
 */
export const DELIVERY_ERROR_CLASSES = ['timeout', 'refused', 'tls', 'dns', 'http_status', 'blocked'] as const;
export type DeliveryErrorClass = (typeof DELIVERY_ERROR_CLASSES)[number];

/**
 * One delivery of one event to one endpoint, as it travels on the queue between attempts. The
 * event is fanned out into these so each endpoint retries on its own schedule.
 */
export interface DeliveryMessage {
  kind: 'webhook_delivery';
  event: QueuedEvent;
  webhook_id: string;
  /** 1-based number of the attempt this message is for. */
  attempt: number;
  /** When the attempt is due (ISO): SQS delays stop at 15 min, longer waits are re-queued. */
  due_at: string;
  /**
   * A retry: the attempt record that scheduled it (`attemptRef`). That record keeps this message
   * until the retry is made, so a retry lost with the queue is sent again from the table.
   */
  retry_of?: string;
}

export interface DeliveryAttempt {
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_status: number | null;
  duration_ms: number;
  error: DeliveryErrorClass | null;
  attempted_at: string;
  /** When the next attempt is due; null after a success or the last attempt. */
  next_retry_at: string | null;
  /** The last attempt failed: the delivery went to the dead-letter queue. */
  dead_lettered: boolean;
}

export function isDeliveryMessage(value: unknown): value is DeliveryMessage {
  const message = value as DeliveryMessage | null;
  return typeof message === 'object' && message !== null && message.kind === 'webhook_delivery'
    && typeof message.webhook_id === 'string' && Number.isInteger(message.attempt) && message.attempt >= 1
    && typeof message.due_at === 'string' && (message.retry_of === undefined || typeof message.retry_of === 'string')
    && isQueuedEvent(message.event);
}

export function isQueuedEvent(value: unknown): value is QueuedEvent {
  const event = value as QueuedEvent | null;
  return typeof event === 'object' && event !== null && typeof event.event_id === 'string' && event.event_id.length > 0
    && typeof event.account_id === 'string' && typeof event.type === 'string' && typeof event.timestamp === 'string'
    && typeof event.data === 'object' && event.data !== null;
}

/** Names an attempt record within its webhook's partition. */
export function attemptRef(attempt: Pick<DeliveryAttempt, 'attempted_at' | 'delivery_id'>): string {
  return `${attempt.attempted_at}#${attempt.delivery_id}`;
}

export function firstDelivery(event: QueuedEvent, webhookId: string, now: Date): DeliveryMessage {
  return { kind: 'webhook_delivery', event, webhook_id: webhookId, attempt: 1, due_at: now.toISOString() };
}

/** The signed body, `{type, timestamp, data}` (Standard Webhooks). */
export function webhookBody(event: QueuedEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
}

/**
 * `webhook-id`: the same on every attempt to one endpoint, so receivers can drop duplicates.
 * The event id is unique per event; endpoints each see it once.
 */
export function webhookMessageId(message: DeliveryMessage): string {
  return message.event.event_id;
}

/** SQS delays stop at 900 s; a message due later is re-queued until its time comes. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export function queueDelaySeconds(dueAt: Date, now: Date): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((dueAt.getTime() - now.getTime()) / 1000)));
}
