import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqs } from '../shared/adapters/aws-clients';
import { logger } from '../shared/observability/logger';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface QueuePollerOptions {
  queueUrl: string;
  /** The function the handler stands for (its context's name). */
  functionName: string;
  /** Loaded on first message, like a cold start. */
  loadHandler: () => Promise<SqsHandler>;
  batchSize?: number;
  /** Long-poll wait; also bounds how long stop() waits for the loop. */
  waitSeconds?: number;
}

export interface QueuePoller {
  stop(): Promise<void>;
}

/**
 * What the Lambda SQS event source does, on loopback: long-polls the queue, hands each batch to
 * the handler as an SQSEvent, and deletes only the records the handler did not report in
 * `batchItemFailures` — failed ones reappear after the visibility timeout and, past the redrive
 * policy's receive count, move to the dead-letter queue. Delayed messages stay invisible until due
 * (the emulator honours DelaySeconds).
 */
export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  let running = true;
  let handler: SqsHandler | undefined;
  const abort = new AbortController();
  const arn = `arn:aws:sqs:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:${options.queueUrl.split('/').pop()}`;

  const loop = (async () => {
    while (running) {
      let messages: Message[] = [];
      try {
        const received = await sqs().send(new ReceiveMessageCommand({
          QueueUrl: options.queueUrl,
          MaxNumberOfMessages: options.batchSize ?? 10,
          WaitTimeSeconds: options.waitSeconds ?? 1,
          MessageSystemAttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }), { abortSignal: abort.signal });
        messages = received.Messages ?? [];
      } catch (error) {
        if (!running) break;
        logger.warn('Queue poll failed', { error: error as Error });
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      if (messages.length > 0) await processBatch(messages);
    }
  })();

  async function processBatch(messages: Message[]): Promise<void> {
    const records = messages.map((message) => toRecord(message, arn));
    let failed: Set<string>;
    try {
      handler ??= await options.loadHandler();
      const response = await handler({ Records: records }, { functionName: options.functionName, awsRequestId: records[0]!.messageId } as Context);
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      // A thrown handler fails the whole batch, as in Lambda.
      logger.warn('Queue handler failed the batch', { error: error as Error });
      return;
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length === 0) return;
    try {
      await sqs().send(new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((message, i) => ({ Id: String(i), ReceiptHandle: message.ReceiptHandle! })),
      }));
    } catch (error) {
      logger.warn('Deleting processed messages failed; they will be redelivered', { error: error as Error });
    }
  }

  return {
    async stop() {
      running = false;
      abort.abort();
      await loop;
    },
  };
}

function toRecord(message: Message, eventSourceARN: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
      name,
      { stringValue: value.StringValue, dataType: value.DataType ?? 'String', stringListValues: [], binaryListValues: [] },
    ])),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: process.env.AWS_REGION ?? 'us-east-1',
  };
}
