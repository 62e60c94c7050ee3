import { DeleteCommand, GetCommand, UpdateCommand } from './dynamo-commands';
import { isConditionalCheckFailed } from './conditional-write';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import { attemptsInWindow, freeSlot, secondsUntilAllowed, type AttemptPolicy } from '../domain/identity/attempts';
import { AttemptCounterBusyError, type AttemptSlot, type AttemptStore, type SlotOutcome } from '../domain/identity/ports';

const TAKE_TRIES = 8;
const attemptKey = (subject: string) => ({ pk: `ATTEMPTS#${subject}`, sk: 'ATTEMPTS' });
/** Slot `i` of a subject is the attribute `s<i>`, holding the epoch ms of the attempt that took it. */
const slotAttribute = (index: number) => `s${index}`;

/**
 * A subject's slots as attributes of one small item. Taking a slot is one conditional update that
 * succeeds only while the slot is empty or its attempt has left the window, so concurrent attempts
 * can never hold more slots than the limit; a writer that loses a slot to another reads again and
 * picks another free one. The item expires once its last attempt leaves the window.
 */
export class DynamoAttemptStore implements AttemptStore {
  constructor(
    private readonly tableName = requiredSetting('TABLE_NAME'),
    private readonly random: () => number = Math.random,
  ) {}

  async take(subject: string, now: Date, policy: AttemptPolicy): Promise<SlotOutcome> {
    const at = now.getTime();
    for (let attempt = 0; attempt < TAKE_TRIES; attempt++) {
      // Jittered pause after a lost race, so concurrent takers stop colliding in lockstep.
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, this.random() * 20 * attempt));
      const slots = await this.read(subject, policy);
      const index = freeSlot(slots, at, policy, (count) => Math.floor(this.random() * count));
      const inWindow = attemptsInWindow(slots.filter((t): t is number => t !== undefined), at, policy);
      if (index === undefined) return { retryAfterSeconds: secondsUntilAllowed(inWindow, at, policy) };
      try {
        await dynamo().send(new UpdateCommand({
          TableName: this.tableName,
          Key: attemptKey(subject),
          UpdateExpression: 'SET #slot = :at, #type = :type, expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(#slot) OR #slot <= :cutoff',
          ExpressionAttributeNames: { '#slot': slotAttribute(index), '#type': 'type' },
          ExpressionAttributeValues: { ':at': at, ':type': 'attempts', ':cutoff': at - policy.windowMs, ':expires': Math.ceil((at + policy.windowMs) / 1000) },
        }));
        return { slot: { subject, index, at }, othersInWindow: inWindow.length };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    }
    throw new AttemptCounterBusyError('Attempt slots kept being taken by concurrent attempts');
  }

  async release(slot: AttemptSlot): Promise<void> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: attemptKey(slot.subject),
        UpdateExpression: 'REMOVE #slot',
        ConditionExpression: '#slot = :at',
        ExpressionAttributeNames: { '#slot': slotAttribute(slot.index) },
        ExpressionAttributeValues: { ':at': slot.at },
      }));
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async clear(subject: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: this.tableName, Key: attemptKey(subject) }));
  }

  private async read(subject: string, policy: AttemptPolicy): Promise<Array<number | undefined>> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: attemptKey(subject), ConsistentRead: true }));
    return Array.from({ length: policy.limit }, (_, index) => {
      const value = Item?.[slotAttribute(index)];
      return typeof value === 'number' ? value : undefined;
    });
  }
}
