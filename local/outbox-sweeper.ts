import { OutboxRelay } from '../shared/adapters/outbox';
import { SqsEventQueue } from '../shared/adapters/sqs-event-queue';
import { SqsDeliveryQueue } from '../shared/adapters/delivery-queue';
import { DynamoDeliveryStore } from '../shared/adapters/delivery-store';
import { rearmOverdueRetries } from '../shared/domain/webhooks/dispatch';
import { logger } from '../shared/observability/logger';

export interface OutboxSweeperOptions {
  intervalMs?: number;
  /** Events younger than this, and retries due less than this ago, are left to their queue message. */
  graceMs?: number;
}

export interface OutboxSweeper {
  /** One pass now (tests); resolves to the number of events relayed and retries re-armed. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The local stand-in for the DynamoDB Streams relay (dynalite has no streams): every few seconds it
 * queries the `OUTBOX` partition of gsi2 and relays events still pending there, e.g. after the
 * queue was unreachable when the state changed. It also re-arms webhook retries that the table
 * still lists as pending well after they were due: the local queue keeps messages in memory only,
 * so after a restart this is how a retry promised in the delivery log is made.
 */
export function startOutboxSweeper(options: OutboxSweeperOptions = {}): OutboxSweeper {
  const intervalMs = options.intervalMs ?? 2000;
  const graceMs = options.graceMs ?? 5000;
  const relay = new OutboxRelay(new SqsEventQueue());
  const deliveries = new DynamoDeliveryStore();
  const deliveryQueue = new SqsDeliveryQueue();
  let running: Promise<number> | undefined;

  const pass = async () => {
    const cutoff = new Date(Date.now() - graceMs);
    return (await relay.relayPending(cutoff)) + (await rearmOverdueRetries(deliveries, deliveryQueue, cutoff));
  };
  const sweep = () => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => logger.warn('Outbox sweep failed; next pass retries', { error: error as Error }));
  }, intervalMs);
  timer.unref();

  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
