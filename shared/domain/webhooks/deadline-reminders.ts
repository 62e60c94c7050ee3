import { createHash } from 'node:crypto';
import { upcomingDeadlines } from '../grants/deadlines';
import type { EventQueue, QueuedEvent } from '../../ports';

/** Reminders go out this many days before each program deadline (DESIGN §3 "Events"). */
export const REMINDER_OFFSETS_DAYS = [30, 7, 1] as const;

export interface DueReminder {
  deadline_id: string;
  deadline_name: string;
  deadline_date: string;
  days_before: number;
}

/** The reminders due on `today`, a Florida date (YYYY-MM-DD, see florida-time.ts). */
export function remindersDueOn(today: string): DueReminder[] {
  return upcomingDeadlines(today)
    .filter((deadline) => (REMINDER_OFFSETS_DAYS as readonly number[]).includes(deadline.days_remaining))
    .map((deadline) => ({ deadline_id: deadline.id, deadline_name: deadline.name, deadline_date: deadline.next_date, days_before: deadline.days_remaining }));
}

/** Deterministic id: the same reminder fired twice is the same event. */
export function reminderEvent(accountId: string, reminder: DueReminder, firedAt: Date): QueuedEvent {
  const key = [accountId, reminder.deadline_id, reminder.deadline_date, reminder.days_before].join('|');
  return {
    event_id: `evt_rem_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`,
    account_id: accountId,
    type: 'deadline_reminder',
    timestamp: firedAt.toISOString(),
    data: { ...reminder },
  };
}

/**
 * One record per (account, deadline, date, offset), written with a conditional put that carries
 * the event (outbox): the first firing claims it, sends, and marks it sent; a later firing finds
 * it sent and emits nothing, or finds it unsent (a crash between put and send) and relays it.
 */
export interface ReminderLedger {
  claim(event: QueuedEvent, reminder: DueReminder): Promise<'claimed' | 'unsent' | 'sent'>;
  markSent(event: QueuedEvent, reminder: DueReminder): Promise<void>;
}

export interface ReminderDeps {
  ledger: ReminderLedger;
  events: EventQueue;
  now: () => Date;
}

export interface AccountReminders {
  emitted: number;
  already_sent: number;
}

/**
 * The reminders `due` to one account: each is emitted once per account, deadline and offset
 * however often this runs (a repeated message, a retried batch), through the ledger.
 */
export async function remindAccount(accountId: string, due: readonly DueReminder[], deps: ReminderDeps): Promise<AccountReminders> {
  const run: AccountReminders = { emitted: 0, already_sent: 0 };
  for (const reminder of due) {
    const event = reminderEvent(accountId, reminder, deps.now());
    if ((await deps.ledger.claim(event, reminder)) === 'sent') {
      run.already_sent++;
      continue;
    }
    await deps.events.send(event);
    await deps.ledger.markSent(event, reminder);
    run.emitted++;
  }
  return run;
}
