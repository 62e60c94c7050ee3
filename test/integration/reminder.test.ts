import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, sqs } from '../../shared/adapters/aws-clients';
import { DeadlineReminderData } from '../../shared/schemas/events';
import { startReminderTimer } from '../../local/reminder-timer';
import { startTestApp } from '../helpers/local-app';
import { deliver } from '../helpers/job-messages';

describe('deadline reminder fan-out and worker against the emulators', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  /** The daily schedule at `time`, then the reminder worker on every page it queued, as the event source would. */
  let fire: (time: string) => Promise<{ accounts: number; messages: number }>;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    const { handler: fanOut } = await import('../../functions/deadline-reminder/handler');
    const { handler: worker } = await import('../../functions/reminder-worker/handler');
    fire = async (time) => {
      const run = await fanOut({ time });
      const pages = await drainQueue(app.resources.reminderQueueUrl);
      expect(pages).toHaveLength(run.messages);
      expect((await deliver(worker, ...pages)).batchItemFailures).toEqual([]);
      return run;
    };
  });
  afterAll(async () => {
    await app.stop();
  });

  async function drainQueue(queueUrl = app.resources.queueUrl): Promise<Record<string, any>[]> {
    const bodies: Record<string, any>[] = [];
    for (;;) {
      const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      if (Messages.length === 0) return bodies;
      for (const message of Messages) {
        bodies.push(JSON.parse(message.Body!));
        await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
  }

  it('emits one deadline_reminder per account 30 days before September 1, and nothing when fired again', async () => {
    // The AWS schedule fires at 13:00 UTC, 9:00 EDT: 2 August in Florida.
    const first = await fire('2026-08-02T13:00:00Z');
    // The three demo accounts (free, pro, enterprise), on one page.
    expect(first).toMatchObject({ accounts: 3, messages: 1 });
    const events = await drainQueue();
    expect(events).toHaveLength(3);
    expect(new Set(events.map((e) => e.account_id)).size).toBe(3);
    for (const event of events) {
      expect(event.type).toBe('deadline_reminder');
      expect(DeadlineReminderData().parse(event.data)).toEqual({ deadline_id: 'project_proposals', deadline_name: expect.any(String), deadline_date: '2026-09-01', days_before: 30 });
    }

    // 23:30 EDT, still 2 August: the same pages again, and nothing sent twice.
    expect(await fire('2026-08-03T03:30:00Z')).toMatchObject({ accounts: 3, messages: 1 });
    expect(await drainQueue()).toEqual([]);

    const { Item } = await dynamo().send(new GetCommand({ TableName: app.resources.tableName, Key: { pk: `REMINDER#${events[0]!.account_id}`, sk: 'project_proposals#2026-09-01#30' } }));
    expect(Item).toMatchObject({ type: 'deadline_reminder', days_before: 30 });
    // Sent: no event left pending in the item's outbox.
    expect(Item!.outbox).toBeUndefined();
    expect(Item!.gsi2pk).toBeUndefined();
  });

  it('emits the 7-day and 1-day reminders of December 1 on their own days only', async () => {
    // 00:01 UTC is still the evening before in Florida (EST, UTC-5): 23 November there, no reminder due.
    // A day without reminders reads no account and queues nothing.
    expect(await fire('2026-11-24T00:01:00Z')).toMatchObject({ accounts: 0, messages: 0 });
    expect(await fire('2026-11-24T13:00:00Z')).toMatchObject({ accounts: 3, messages: 1 });
    expect(await fire('2026-11-25T13:00:00Z')).toMatchObject({ accounts: 0, messages: 0 });
    expect(await fire('2026-11-30T13:00:00Z')).toMatchObject({ accounts: 3, messages: 1 });
    const events = await drainQueue();
    expect(events.map((e) => `${e.data.deadline_id}:${e.data.days_before}`).sort()).toEqual([...Array(3).fill('statewide_plan:1'), ...Array(3).fill('statewide_plan:7')]);
  });
});

describe('local reminder timer', () => {
  afterEach(() => jest.useRealTimers());

  it('fires at start, then once within the first hour of each Florida (Eastern) date', async () => {
    // 18:00 EDT on 1 August.
    jest.useFakeTimers({ now: new Date('2026-08-01T22:00:00Z') });
    const fired: string[] = [];
    const timer = startReminderTimer(async (time) => void fired.push(time.toISOString()));
    expect(fired).toEqual(['2026-08-01T22:00:00.000Z']);
    // Past UTC midnight nothing fires: it is still 1 August in Florida until 04:00 UTC.
    await jest.advanceTimersByTimeAsync(3 * 3600_000);
    expect(fired).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(3 * 3600_000);
    expect(fired).toEqual(['2026-08-01T22:00:00.000Z', '2026-08-02T04:00:00.000Z']);
    await jest.advanceTimersByTimeAsync(24 * 3600_000);
    expect(fired.at(-1)).toBe('2026-08-03T04:00:00.000Z');
    await timer.stop();
    await jest.advanceTimersByTimeAsync(48 * 3600_000);
    expect(fired).toHaveLength(3);
  });
});
