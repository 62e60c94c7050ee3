import { BatchWriteCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** BatchWriteItem's limit. */
const BATCH_SIZE = 25;
/** Calls in flight: writing is latency-bound (one round trip per call), not throughput-bound. */
const CONCURRENCY = 8;
const RETRIES = 10;
const BASE_DELAY_MS = 25;
const MAX_DELAY_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `attempt` until it reports done, waiting between calls with exponential backoff and full
 * jitter (so writers throttled together do not retry in step); gives up with `failure`.
 */
export async function withBackoff(attempt: () => Promise<boolean>, failure: string): Promise<void> {
  for (let tries = 1; ; tries++) {
    if (await attempt()) return;
    if (tries >= RETRIES) throw new Error(failure);
    await sleep(Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** tries));
  }
}

/**
 * Puts and deletes through BatchWriteItem, 25 per call with several calls in flight; unprocessed
 * items are sent again with backoff. `add` waits while the calls in flight are at the limit, so
 * memory stays bounded however many requests go through. The first failure is thrown by the next
 * `add` or by `drain`.
 */
export class BatchWriter {
  private buffer: WriteRequest[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private requestsInFlight = 0;
  private failure: { error: unknown } | undefined;

  constructor(private readonly table: string, private readonly onWritten?: (requests: WriteRequest[]) => void) {}

  /** Requests taken whose writes have not completed. */
  get pending(): number {
    return this.buffer.length + this.requestsInFlight;
  }

  async add(request: WriteRequest): Promise<void> {
    this.buffer.push(request);
    if (this.buffer.length >= BATCH_SIZE) await this.flush();
  }

  /** Sends what is buffered and waits for every call. */
  async drain(): Promise<void> {
    while (this.buffer.length > 0) await this.flush();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.throwFailure();
  }

  private async flush(): Promise<void> {
    while (this.inFlight.size >= CONCURRENCY) await Promise.race(this.inFlight);
    this.throwFailure();
    const batch = this.buffer.splice(0, BATCH_SIZE);
    if (batch.length === 0) return;
    this.requestsInFlight += batch.length;
    const call: Promise<void> = this.send(batch)
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.requestsInFlight -= batch.length;
        this.inFlight.delete(call);
      });
    this.inFlight.add(call);
  }

  private async send(batch: WriteRequest[]): Promise<void> {
    let requests = batch;
    await withBackoff(async () => {
      const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
      requests = (result.UnprocessedItems?.[this.table] ?? []) as WriteRequest[];
      return requests.length === 0;
    }, 'DynamoDB kept returning unprocessed items');
    this.onWritten?.(batch);
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }
}
