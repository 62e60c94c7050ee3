import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { queryAll } from './query-all';
import { decodeCursor, encodeCursor } from './dynamo-cursor';
import { requiredSetting } from '../config';
import { WebhookLimitError, type Page, type Webhook, type WebhookStore } from '../domain/webhooks/ports';

/**
 * Webhooks live in the account's partition: pk `ACCOUNT#{account}`, sk `WEBHOOK#{id}`, so listing,
 * finding the subscribers of an event and ownership checks are all one-partition queries.
 */
const pkOf = (accountId: string) => `ACCOUNT#${accountId}`;
const skOf = (webhookId: string) => `WEBHOOK#${webhookId}`;

export class DynamoWebhookStore implements WebhookStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async create(webhook: Webhook, limit: number): Promise<void> {
    // A count then a put: two concurrent creations may pass the count, which a soft limit tolerates.
    const { Count } = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pkOf(webhook.account_id), ':prefix': 'WEBHOOK#' },
      Select: 'COUNT',
    }));
    if ((Count ?? 0) >= limit) throw new WebhookLimitError(limit);
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { pk: pkOf(webhook.account_id), sk: skOf(webhook.webhook_id), type: 'webhook', ...webhook },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, webhookId: string): Promise<Webhook | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: { pk: pkOf(accountId), sk: skOf(webhookId) } }));
    return Item ? toWebhook(Item) : undefined;
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<Webhook>> {
    const pk = pkOf(accountId);
    const page = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': 'WEBHOOK#' },
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, { pk }),
    }));
    return { items: (page.Items ?? []).map(toWebhook), nextCursor: encodeCursor(page.LastEvaluatedKey) };
  }

  async subscribedTo(accountId: string, eventType: string): Promise<Webhook[]> {
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'contains(events, :type)',
      ExpressionAttributeValues: { ':pk': pkOf(accountId), ':prefix': 'WEBHOOK#', ':type': eventType },
    });
    return items.map(toWebhook);
  }

  async delete(accountId: string, webhookId: string): Promise<boolean> {
    try {
      await dynamo().send(new DeleteCommand({
        TableName: this.tableName,
        Key: { pk: pkOf(accountId), sk: skOf(webhookId) },
        ConditionExpression: 'attribute_exists(pk)',
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}

function toWebhook(item: Record<string, unknown>): Webhook {
  return {
    webhook_id: item.webhook_id as string,
    account_id: item.account_id as string,
    webhook_url: item.webhook_url as string,
    events: item.events as string[],
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    secret: item.secret as string,
    created_at: item.created_at as string,
  };
}
