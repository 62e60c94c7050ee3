import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

/**
 * The AWS entry of a job kind started by the insert of its item (a flood analysis, a deliverable
 * package): the table's stream delivers the insert, and the item is read with the SDK's own
 * `unmarshall`, not by hand. Each record is processed on its own and a record whose run throws is
 * reported back as failed (partial batch response), so only it is retried and, once the event
 * source's retries are spent, it goes to the stream's failure destination (a queue with an alarm).
 * A job that fails is not an error here: the run records `failed` on the job itself and returns.
 */
export function jobInsertConsumer(itemType: string, run: (item: Record<string, unknown>) => Promise<void>): (event: DynamoDBStreamEvent, context?: Context) => Promise<DynamoDBBatchResponse> {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const processRecord = async (record: DynamoDBRecord): Promise<void> => {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) return;
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.type !== itemType) return;
    await run(item);
  };
  return (event, context) => processPartialResponse(event, processRecord, processor, context ? { context } : undefined);
}
