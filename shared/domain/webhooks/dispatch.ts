import type { QueuedEvent } from '../../ports';
import { retryDelayMs } from './backoff';
import {
  attemptRef, firstDelivery, isDeliveryMessage, isQueuedEvent, queueDelaySeconds, webhookBody, webhookMessageId,
  type DeliveryAttempt, type DeliveryMessage,
} from './delivery';
import type { DeliveryQueue, DeliveryStore, WebhookSender, WebhookStore } from './ports';
import { signedHeaders } from './signing';

export interface DispatchDeps {
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  sender: WebhookSender;
  queue: DeliveryQueue;
  /** Delays between attempts (ms), see backoff.ts. */
  schedule: number[];
  now: () => Date;
  random?: () => number;
  newId: () => string;
}

export type DispatchOutcome =
  | { kind: 'fanned_out'; deliveries: number }
  | { kind: 'not_due' }
  | { kind: 'dropped'; reason: string }
  | { kind: 'delivered' | 'retry_scheduled' | 'dead_lettered'; attempt: number };

/** A message that can never be processed: it fails, and the queue's redrive moves it to the DLQ. */
export class MalformedMessageError extends Error {}

/** How long one copy of a retry message holds it: longer than an attempt can take (10 s). */
export const RETRY_CLAIM_MS = 60_000;

/**
 * Handles one queue message. An event is fanned out into one delivery message per subscribed
 * endpoint; a delivery message makes one attempt, records it, and schedules the next attempt or
 * dead-letters the delivery. Any failure to record or queue is thrown, so the queue redelivers.
 */
export async function dispatchMessage(message: unknown, deps: DispatchDeps): Promise<DispatchOutcome> {
  if (isDeliveryMessage(message)) return deliver(message, deps);
  if (isQueuedEvent(message)) return fanOut(message, deps);
  throw new MalformedMessageError('Neither an event nor a webhook delivery');
}

async function fanOut(event: QueuedEvent, deps: DispatchDeps): Promise<DispatchOutcome> {
  const endpoints = await deps.webhooks.subscribedTo(event.account_id, event.type);
  const now = deps.now();
  const queued = await Promise.all(endpoints.map(async (webhook) => {
    if (!(await deps.deliveries.claimFanOut(webhook.webhook_id, event.event_id, now))) return 0;
    try {
      await deps.queue.schedule(firstDelivery(event, webhook.webhook_id, now), 0);
      return 1;
    } catch (error) {
      await deps.deliveries.releaseFanOut(webhook.webhook_id, event.event_id);
      throw error;
    }
  }));
  return { kind: 'fanned_out', deliveries: queued.reduce<number>((sum, n) => sum + n, 0) };
}

async function deliver(message: DeliveryMessage, deps: DispatchDeps): Promise<DispatchOutcome> {
  const now = deps.now();
  const due = new Date(message.due_at);
  // Up to a second early is fine (queue delays are whole seconds); later than that waits again.
  if (due.getTime() - now.getTime() > 1000) {
    await deps.queue.schedule(message, queueDelaySeconds(due, now));
    return { kind: 'not_due' };
  }
  // A retry is sent by one copy of its message only: the queue's, or one re-armed from the table.
  if (message.retry_of && !(await deps.deliveries.claimRetry(message.webhook_id, message.retry_of, now, RETRY_CLAIM_MS))) {
    return { kind: 'dropped', reason: 'retry already made or in progress' };
  }
  const outcome = await attemptDelivery(message, deps, now);
  if (message.retry_of) await deps.deliveries.completeRetry(message.webhook_id, message.retry_of);
  return outcome;
}

async function attemptDelivery(message: DeliveryMessage, deps: DispatchDeps, now: Date): Promise<DispatchOutcome> {
  const { event } = message;
  const webhook = await deps.webhooks.get(event.account_id, message.webhook_id);
  if (!webhook) return { kind: 'dropped', reason: 'webhook deleted' };
  if (event.type !== 'webhook_test' && !webhook.events.includes(event.type)) return { kind: 'dropped', reason: 'no longer subscribed' };

  const body = webhookBody(event);
  const result = await deps.sender.send(webhook.webhook_url, signedHeaders(webhook.secret, webhookMessageId(message), now, body), body);
  const record: DeliveryAttempt = {
    delivery_id: deps.newId(),
    webhook_id: webhook.webhook_id,
    account_id: webhook.account_id,
    event_id: event.event_id,
    event_type: event.type,
    attempt: message.attempt,
    status: result.ok ? 'succeeded' : 'failed',
    response_status: result.status,
    duration_ms: result.durationMs,
    error: result.error,
    attempted_at: now.toISOString(),
    next_retry_at: null,
    dead_lettered: false,
  };
  if (result.ok) {
    await deps.deliveries.record(record);
    return { kind: 'delivered', attempt: message.attempt };
  }

  const delay = retryDelayMs(deps.schedule, message.attempt, deps.random);
  if (delay === undefined) {
    await deps.deliveries.record({ ...record, dead_lettered: true });
    await deps.queue.deadLetter(message, result.error === 'http_status' ? `HTTP ${result.status}` : result.error ?? 'failed');
    return { kind: 'dead_lettered', attempt: message.attempt };
  }
  const nextDue = new Date(now.getTime() + delay);
  const retry: DeliveryMessage = { ...message, attempt: message.attempt + 1, due_at: nextDue.toISOString(), retry_of: attemptRef(record) };
  // Recorded with the retry first: if the queue loses the message, the table still has it.
  await deps.deliveries.record({ ...record, next_retry_at: retry.due_at }, retry);
  await deps.queue.schedule(retry, queueDelaySeconds(nextDue, now));
  return { kind: 'retry_scheduled', attempt: message.attempt };
}

/**
 * Puts back on the queue every retry still pending in the table well after it was due — lost with
 * a local queue's memory on restart, or never queued because the process stopped in between.
 * A copy that is still queued somewhere is harmless: only one copy claims the retry.
 */
export async function rearmOverdueRetries(deliveries: DeliveryStore, queue: DeliveryQueue, dueBefore: Date): Promise<number> {
  const overdue = await deliveries.overdueRetries(dueBefore);
  for (const message of overdue) await queue.schedule(message, 0);
  return overdue.length;
}
