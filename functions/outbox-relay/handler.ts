import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { OutboxRelay } from '../../shared/adapters/outbox';
import { SqsEventQueue } from '../../shared/adapters/sqs-event-queue';
import { observedHandler } from '../../shared/observability/metrics';

/**
 * The safety net of the outbox in AWS: a DynamoDB Streams consumer. For each changed item that
 * still carries a pending event it re-reads the item (most were already relayed inline by the
 * writer), sends what is still pending and clears it. Failed records are reported one by one
 * (partial batch response), so only they are retried.
 */
const processor = new BatchProcessor(EventType.DynamoDBStreams);
let relay: OutboxRelay | undefined;
const outbox = () => (relay ??= new OutboxRelay(new SqsEventQueue()));

async function relayRecord(record: DynamoDBRecord): Promise<void> {
  const image = record.dynamodb?.NewImage;
  if (!image) return;
  // The image read with the SDK's own `unmarshall`, not by hand.
  const { pk, sk, outbox: pendingEvent } = unmarshall(image as Record<string, AttributeValue>);
  if (!pendingEvent || typeof pk !== 'string' || typeof sk !== 'string') return;
  const pending = await outbox().pendingOf({ pk, sk });
  if (pending) await outbox().relay(pending);
}

export const handler = observedHandler((event: DynamoDBStreamEvent, context: Context) => processPartialResponse(event, relayRecord, processor, { context }));
