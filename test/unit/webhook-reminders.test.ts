import { fireDeadlineReminders, reminderEvent, remindersDueOn, type ReminderLedger } from '../../shared/domain/webhooks/deadline-reminders';
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

describe('fireDeadlineReminders', () => {
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
  const accounts = { listAccounts: async () => [{ account_id: 'a', name: 'A', tier: 'pro' as const, created_at: '' }, { account_id: 'b', name: 'B', tier: 'free' as const, created_at: '' }] };

  it('emits once per account, and nothing when fired again the same day', async () => {
    const sent: QueuedEvent[] = [];
    const deps = { accounts, ledger: memoryLedger(), events: { send: async (e: QueuedEvent) => void sent.push(e) }, now: () => new Date('2026-11-30T00:01:00Z') };
    expect(await fireDeadlineReminders('2026-11-30', deps)).toMatchObject({ accounts: 2, emitted: 2, already_sent: 0 });
    expect(await fireDeadlineReminders('2026-11-30', deps)).toMatchObject({ accounts: 2, emitted: 0, already_sent: 2 });
    expect(sent.map((e) => [e.account_id, e.data.days_before])).toEqual([['a', 1], ['b', 1]]);
  });

  it('relays a reminder whose send failed last time, and does not mark it sent on failure', async () => {
    const ledger = memoryLedger();
    let fail = true;
    const sent: QueuedEvent[] = [];
    const deps = {
      accounts, ledger, now: () => new Date('2026-08-02T00:01:00Z'),
      events: { send: async (e: QueuedEvent) => { if (fail) throw new Error('queue down'); sent.push(e); } },
    };
    await expect(fireDeadlineReminders('2026-08-02', deps)).rejects.toThrow('queue down');
    fail = false;
    expect(await fireDeadlineReminders('2026-08-02', deps)).toMatchObject({ emitted: 2, already_sent: 0 });
    expect(sent).toHaveLength(2);
  });

  it('does not read the accounts on a day without reminders', async () => {
    const deps = { accounts: { listAccounts: jest.fn() }, ledger: memoryLedger(), events: { send: jest.fn() }, now: () => new Date() };
    expect(await fireDeadlineReminders('2026-10-10', deps)).toMatchObject({ due: [], emitted: 0 });
    expect(deps.accounts.listAccounts).not.toHaveBeenCalled();
  });
});
