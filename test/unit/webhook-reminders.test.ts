import { reminderEvent, remindersDueOn, type ReminderLedger } from '../../shared/domain/webhooks/deadline-reminders';
import { ACCOUNTS_PER_MESSAGE, fanOutReminders, remindAccounts, type AccountReminderBatch } from '../../shared/application/reminders/reminder-fan-out';
import type { QueuedEvent } from '../../shared/ports';

describe('remindersDueOn', () => {
  it('is due 30, 7 and 1 days before September 1 and December 1, and on no other day', () => {
    // 2026-08-02 + 30 days = 2026-09-01 (August has 31 days).
    expect(remindersDueOn('2026-08-02')).toEqual([expect.objectContaining({ deadline_id: 'project_proposals', deadline_date: '2026-09-01', days_before: 30 })]);
    expect(remindersDueOn('2026-08-25')).toEqual([expect.objectContaining({ deadline_id: 'project_proposals', days_before: 7 })]);
    expect(remindersDueOn('2026-08-31')).toEqual([expect.objectContaining({ deadline_id: 'project_proposals', days_before: 1 })]);
    // 2026-11-01 + 30 days = 2026-12-01 (November has 30 days).
    expect(remindersDueOn('2026-11-01')).toEqual([expect.objectContaining({ deadline_id: 'statewide_plan', deadline_date: '2026-12-01', days_before: 30 })]);
    expect(remindersDueOn('2026-11-24')).toEqual([expect.objectContaining({ deadline_id: 'statewide_plan', days_before: 7 })]);
    expect(remindersDueOn('2026-11-30')).toEqual([expect.objectContaining({ deadline_id: 'statewide_plan', days_before: 1 })]);
    for (const day of ['2026-08-01', '2026-08-03', '2026-09-01', '2026-10-31', '2026-12-01', '2027-01-15']) expect(remindersDueOn(day)).toEqual([]);
  });

  it('gives the same event id to the same reminder, whenever it fires', () => {
    const [due] = remindersDueOn('2026-08-25');
    const first = reminderEvent('acct-1', due!, new Date('2026-08-25T00:01:00Z'));
    const again = reminderEvent('acct-1', due!, new Date('2026-08-25T17:00:00Z'));
    expect(again.event_id).toBe(first.event_id);
    expect(reminderEvent('acct-2', due!, new Date()).event_id).not.toBe(first.event_id);
    expect(first).toMatchObject({ type: 'deadline_reminder', account_id: 'acct-1', data: { deadline_id: 'project_proposals', deadline_date: '2026-09-01', days_before: 7 } });
  });
});

describe('deadline reminders fanned out per page of accounts', () => {
  function memoryLedger(): ReminderLedger & { records: Map<string, boolean> } {
    const records = new Map<string, boolean>();
    const key = (accountId: string, r: { deadline_id: string; deadline_date: string; days_before: number }) => `${accountId}|${r.deadline_id}|${r.deadline_date}|${r.days_before}`;
    return {
      records,
      claim: async (event, reminder) => {
        const k = key(event.account_id, reminder);
        if (!records.has(k)) {
          records.set(k, false);
          return 'claimed';
        }
        return records.get(k) ? 'sent' : 'unsent';
      },
      markSent: async (event, reminder) => void records.set(key(event.account_id, reminder), true),
    };
  }
  /** `n` account ids, served in pages as the store serves them. */
  const accountPages = (n: number) => async function* pages(pageSize: number): AsyncIterable<string[]> {
    const ids = Array.from({ length: n }, (_, i) => `acct-${i}`);
    for (let i = 0; i < ids.length; i += pageSize) yield ids.slice(i, i + pageSize);
  };

  it('puts one message per page of accounts on the queue, covering every account once', async () => {
    const queued: AccountReminderBatch[] = [];
    const run = await fanOutReminders('2026-11-30', { accountIdPages: accountPages(250), queue: { send: async (batch) => void queued.push(batch) } });
    expect(run).toMatchObject({ accounts: 250, messages: Math.ceil(250 / ACCOUNTS_PER_MESSAGE) });
    expect(queued.map((batch) => batch.account_ids.length)).toEqual([100, 100, 50]);
    expect(new Set(queued.flatMap((batch) => batch.account_ids)).size).toBe(250);
    expect(queued.every((batch) => batch.date === '2026-11-30')).toBe(true);
  });

  it('emits once per account, and nothing when a page is delivered again', async () => {
    const sent: QueuedEvent[] = [];
    const deps = { ledger: memoryLedger(), events: { send: async (e: QueuedEvent) => void sent.push(e) }, now: () => new Date('2026-11-30T00:01:00Z') };
    const batch = { date: '2026-11-30', account_ids: ['a', 'b'] };
    expect(await remindAccounts(batch, deps)).toEqual({ emitted: 2, already_sent: 0 });
    expect(await remindAccounts(batch, deps)).toEqual({ emitted: 0, already_sent: 2 });
    expect(sent.map((e) => [e.account_id, e.data.days_before])).toEqual([['a', 1], ['b', 1]]);
  });

  it('relays a reminder whose send failed last time, and does not mark it sent on failure', async () => {
    const ledger = memoryLedger();
    let fail = true;
    const sent: QueuedEvent[] = [];
    const deps = {
      ledger, now: () => new Date('2026-08-02T00:01:00Z'),
      events: { send: async (e: QueuedEvent) => { if (fail) throw new Error('queue down'); sent.push(e); } },
    };
    const batch = { date: '2026-08-02', account_ids: ['a', 'b'] };
    await expect(remindAccounts(batch, deps)).rejects.toThrow('queue down');
    fail = false;
    expect(await remindAccounts(batch, deps)).toEqual({ emitted: 2, already_sent: 0 });
    expect(sent).toHaveLength(2);
  });

  it('does not read the accounts on a day without reminders', async () => {
    const accountIdPages = jest.fn();
    const queue = { send: jest.fn() };
    expect(await fanOutReminders('2026-10-10', { accountIdPages, queue })).toMatchObject({ due: [], accounts: 0, messages: 0 });
    expect(accountIdPages).not.toHaveBeenCalled();
    expect(queue.send).not.toHaveBeenCalled();
  });
});
