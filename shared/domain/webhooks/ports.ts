import { DELIVERY_ERROR_CLASSES, type DeliveryAttempt, type DeliveryErrorClass, type DeliveryMessage } from './delivery';

/** Ports of the webhook use cases; DynamoDB, SQS and HTTP adapters implement them. */
export interface Webhook {
  webhook_id: string;
  account_id: string;
  webhook_url: string;
  events: string[];
  description?: string;
  /** The `whsec_` signing secret; shown to the client once, kept to sign deliveries. */
  secret: string;
  created_at: string;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export class WebhookLimitError extends Error {
  constructor(readonly limit: number) {
    super(`An account can have at most ${limit} webhooks.`);
    this.name = 'WebhookLimitError';
  }
}

export interface WebhookStore {
  /** Throws WebhookLimitError when the account already has `limit` webhooks. */
  create(webhook: Webhook, limit: number): Promise<void>;
  get(accountId: string, webhookId: string): Promise<Webhook | undefined>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<Webhook>>;
  subscribedTo(accountId: string, eventType: string): Promise<Webhook[]>;
  /** false when there was nothing to delete. */
  delete(accountId: string, webhookId: string): Promise<boolean>;
}

export interface DeliveryStore {
  /**
   * Marks an event as fanned out to an endpoint (conditional write); false when it already was:
   * the queue and the outbox relays deliver at least once, endpoints should see an event once.
   */
  claimFanOut(webhookId: string, eventId: string, now: Date): Promise<boolean>;
  /** Undoes a claim whose delivery could not be queued, so the redelivered event fans out again. */
  releaseFanOut(webhookId: string, eventId: string): Promise<void>;
  /**
   * Records an attempt. With `retry`, the record also keeps the next attempt's message, listed
   * as pending until `completeRetry`: the durable copy of a retry whose queue message can be lost.
   */
  record(attempt: DeliveryAttempt, retry?: DeliveryMessage): Promise<void>;
  /**
   * Takes the retry scheduled by attempt `ref` for `leaseMs` (conditional write); false when it was
   * already made or another copy of the message is being sent.
   */
  claimRetry(webhookId: string, ref: string, now: Date, leaseMs: number): Promise<boolean>;
  /** The retry scheduled by attempt `ref` was made (or dropped): it is no longer pending. */
  completeRetry(webhookId: string, ref: string): Promise<void>;
  /** Retries still pending that were due before `dueBefore`, oldest first. */
  overdueRetries(dueBefore: Date): Promise<DeliveryMessage[]>;
  /** Newest first. */
  list(webhookId: string, limit: number, cursor?: string): Promise<Page<DeliveryAttempt>>;
}

export { DELIVERY_ERROR_CLASSES, type DeliveryErrorClass };

export interface SendResult {
  ok: boolean;
  /** HTTP status, null when no response arrived. */
  status: number | null;
  durationMs: number;
  error: DeliveryErrorClass | null;
}

export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

export interface DeliveryQueue {
  /** Queues a delivery attempt, delayed (the queue caps delays; the message carries its due time). */
  schedule(message: DeliveryMessage, delaySeconds: number): Promise<void>;
  /** Gives up on a delivery: the message goes to the dead-letter queue with the last error. */
  deadLetter(message: DeliveryMessage, lastError: string): Promise<void>;
}
