import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import type { UsageCounter, UsageCount } from '../ports';

/**
 * One item per key per clock hour. The increment and the limit check are one conditional
 * UpdateItem, so concurrent requests can never overshoot the limit.
 */
export class DynamoUsageCounter implements UsageCounter {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async consume(keyHash: string, windowId: string, limit: number | null, expiresAt: Date): Promise<UsageCount> {
    try {
      const { Attributes } = await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: `USAGE#${keyHash}`, sk: `HOUR#${windowId}` },
        UpdateExpression: 'ADD #count :one SET expires_at = :exp',
        ConditionExpression: limit === null ? undefined : 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'request_count' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':exp': Math.floor(expiresAt.getTime() / 1000),
          ...(limit === null ? {} : { ':limit': limit }),
        },
        ReturnValues: 'UPDATED_NEW',
      }));
      return { used: Number(Attributes?.request_count ?? 1), allowed: true };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || (error as { name?: string }).name === 'ConditionalCheckFailedException') {
        return { used: limit ?? 0, allowed: false };
      }
      throw error;
    }
  }
}
