import { OutboxRelay } from '../shared/adapters/outbox';
import { SqsEventQueue } from '../shared/adapters/sqs-event-queue';
import { logger } from '../shared/http/logger';

export interface OutboxSweeperOptions {
  intervalMs?: number;
  /** Events younger than this are left to the writer's inline relay. */
  graceMs?: number;
}

export interface OutboxSweeper {
  /** One pass now (tests); resolves to the number of events relayed. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The local stand-in for the DynamoDB Streams relay (dynalite has no streams): every few seconds it
 * queries the `OUTBOX` partition of gsi2 and relays events still pending there, e.g. after the
 * queue was unreachable when the state changed.
 */
export function startOutboxSweeper(options: OutboxSweeperOptions = {}): OutboxSweeper {
  const intervalMs = options.intervalMs ?? 2000;
  const graceMs = options.graceMs ?? 5000;
  const relay = new OutboxRelay(new SqsEventQueue());
  let running: Promise<number> | undefined;

  const sweep = () => {
    running ??= relay.relayPending(new Date(Date.now() - graceMs)).finally(() => {
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
