import { GetCommand, PutCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import { attemptsInWindow, type AttemptPolicy } from '../domain/identity/attempts';
import { AttemptCounterBusyError, type AttemptStore } from '../domain/identity/ports';

const RECORD_TRIES = 8;
const attemptKey = (subject: string) => ({ pk: `ATTEMPTS#${subject}`, sk: 'ATTEMPTS' });

/**
 * Recent attempt times per subject in one small item, rewritten under a version condition so
 * concurrent failures are all counted; the item expires with its window.
 */
export class DynamoAttemptStore implements AttemptStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async recent(subject: string, now: Date, policy: AttemptPolicy): Promise<number[]> {
    const { times } = await this.read(subject);
    return attemptsInWindow(times, now.getTime(), policy);
  }

  async record(subject: string, now: Date, policy: AttemptPolicy): Promise<void> {
    for (let attempt = 0; attempt < RECORD_TRIES; attempt++) {
      // Jittered pause after a lost race, so concurrent writers stop colliding in lockstep.
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      const { times, version } = await this.read(subject);
      // Keep what can still count, bounded: more than the limit never changes the answer.
      const kept = [...attemptsInWindow(times, now.getTime(), policy), now.getTime()].slice(-(policy.limit + 1));
      try {
        await dynamo().send(new PutCommand({
          TableName: this.tableName,
          Item: { ...attemptKey(subject), type: 'attempts', times: kept, version: version + 1, expires_at: Math.ceil((now.getTime() + policy.windowMs) / 1000) },
          ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': version } }),
        }));
        return;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    throw new AttemptCounterBusyError('Attempt counter kept changing under concurrent writes');
  }

  async clear(subject: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.tableName, Key: attemptKey(subject) }));
  }

  private async read(subject: string): Promise<{ times: number[]; version: number }> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: attemptKey(subject), ConsistentRead: true }));
    return { times: (Item?.times as number[] | undefined) ?? [], version: Number(Item?.version ?? 0) };
  }
}
