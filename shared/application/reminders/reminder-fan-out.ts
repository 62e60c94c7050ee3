import { remindAccount, remindersDueOn, type AccountReminders, type DueReminder, type ReminderDeps } from '../../domain/webhooks/deadline-reminders';

/** Accounts per message: one message is one worker invocation's share of the day's reminders. */
export const ACCOUNTS_PER_MESSAGE = 100;

/** One message of the fan-out: the Florida date whose reminders go to these accounts. */
export interface AccountReminderBatch {
  date: string;
  account_ids: string[];
}

/** Where the fan-out puts its messages (the reminder queue, consumed by the reminder worker). */
export interface ReminderBatchQueue {
  send(batch: AccountReminderBatch): Promise<void>;
}

export interface ReminderFanOutDeps {
  /** Every account's id, page by page (a key-only read, never the whole list at once). */
  accountIdPages(pageSize: number): AsyncIterable<string[]>;
  queue: ReminderBatchQueue;
}

export interface ReminderFanOut {
  date: string;
  due: DueReminder[];
  accounts: number;
  messages: number;
}

/**
 * The daily step: on a day with reminders due, pages the accounts and puts one message per page
 * on the reminder queue, so the reminders of 100,000 accounts are sent by many worker
 * invocations side by side, not one loop in one invocation. Nothing is read on a day without any.
 * Fanning out twice is harmless: each account's reminders are sent once (the ledger).
 */
export async function fanOutReminders(today: string, deps: ReminderFanOutDeps): Promise<ReminderFanOut> {
  const due = remindersDueOn(today);
  const run: ReminderFanOut = { date: today, due, accounts: 0, messages: 0 };
  if (due.length === 0) return run;
  for await (const page of deps.accountIdPages(ACCOUNTS_PER_MESSAGE)) {
    if (page.length === 0) continue;
    await deps.queue.send({ date: today, account_ids: page });
    run.accounts += page.length;
    run.messages++;
  }
  return run;
}

/** The worker's share: the reminders due on the message's date, to each of its accounts. */
export async function remindAccounts(batch: AccountReminderBatch, deps: ReminderDeps): Promise<AccountReminders> {
  const due = remindersDueOn(batch.date);
  const total: AccountReminders = { emitted: 0, already_sent: 0 };
  for (const accountId of batch.account_ids) {
    const run = await remindAccount(accountId, due, deps);
    total.emitted += run.emitted;
    total.already_sent += run.already_sent;
  }
  return total;
}
