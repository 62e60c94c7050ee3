import { GetCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { requiredSetting } from '../config';
import type { EventQueue, QueuedEvent } from '../ports';

/**
 * Transactional outbox inside an item: the write that changes state also sets `outbox` (the event)
 * and puts the item on the `OUTBOX` partition of gsi2 while the event is pending. After the event
 * is on the queue, a conditional REMOVE clears it. The writer relays inline; the stream consumer
 * (AWS) and the sweeper (local) relay whatever is left. Event ids are deterministic, so a relay
 * that repeats a send repeats the same event, which the dispatcher drops.
 */
export const OUTBOX_PARTITION = 'OUTBOX';

export interface ItemKey {
  pk: string;
  sk: string;
}

export interface PendingEvent {
  key: ItemKey;
  event: QueuedEvent;
}

/** Attributes to SET in the state-changing write so the event travels with it. */
export function outboxAttributes(event: QueuedEvent): { outbox: QueuedEvent; gsi2pk: string; gsi2sk: string } {
  return { outbox: event, gsi2pk: OUTBOX_PARTITION, gsi2sk: `${event.timestamp}#${event.event_id}` };
}

/** Clears the item's pending event unless another event replaced it meanwhile. */
export async function clearOutbox(tableName: string, key: ItemKey, eventId: string): Promise<void> {
  try {
    await dynamo().send(new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'REMOVE outbox, gsi2pk, gsi2sk',
      ConditionExpression: 'outbox.event_id = :id',
      ExpressionAttributeValues: { ':id': eventId },
    }));
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export class OutboxRelay {
  constructor(private readonly queue: EventQueue, private readonly tableName = requiredSetting('TABLE_NAME')) {}

  /** Sends the event, then clears it from the item. */
  async relay({ key, event }: PendingEvent): Promise<void> {
    await this.queue.send(event);
    await clearOutbox(this.tableName, key, event.event_id);
  }

  /** The item's pending event as stored now (consistent read), if any. */
  async pendingOf(key: ItemKey): Promise<PendingEvent | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'pk, sk, outbox' }));
    return Item?.outbox ? { key, event: Item.outbox as QueuedEvent } : undefined;
  }

  /** Relays every event pending since before `olderThan` (the grace leaves fresh ones to the writer). */
  async relayPending(olderThan: Date): Promise<number> {
    let relayed = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :outbox AND gsi2sk < :cutoff',
        ExpressionAttributeValues: { ':outbox': OUTBOX_PARTITION, ':cutoff': olderThan.toISOString() },
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) {
        if (!item.outbox) continue;
        await this.relay({ key: { pk: item.pk as string, sk: item.sk as string }, event: item.outbox as QueuedEvent });
        relayed += 1;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return relayed;
  }
}
