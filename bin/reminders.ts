import path from 'node:path';
import { parseArgs } from 'node:util';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { startLocalApp } from '../local/app';
import { startQueuePoller, type SqsHandler } from '../local/queue-poller';
import { sqs } from '../shared/adapters/aws-clients';
import { IsoDate } from '../shared/schemas/common';

/**
 * `npm run reminders -- --date YYYY-MM-DD`: fires the daily deadline reminder for that day against
 * the local data directory ($DATA_DIR, default .data) — the fan-out to the reminder queue, the
 * reminder worker on each page of accounts — then delivers the resulting webhooks.
 * Idempotent: a day already fired emits nothing. Stop `npm start` first (it holds the data
 * directory, and fires the reminders itself every day).
 */
const DRAIN_TIMEOUT_MS = 60_000;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { date: { type: 'string' } } });
  const date = IsoDate().safeParse(values.date);
  if (!date.success) {
    process.stderr.write('Usage: npm run reminders -- --date YYYY-MM-DD\n');
    process.exit(2);
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  let app;
  try {
    app = await startLocalApp({ dataDir, port: 0, backgroundWorkers: false });
  } catch (error) {
    process.stderr.write(`Cannot open ${dataDir} (${(error as Error).message}). Is \`npm start\` running? Stop it first.\n`);
    process.exit(1);
  }
  try {
    const { handler } = await import('../functions/deadline-reminder/handler');
    const run = await handler({ time: `${date.data}T00:00:00Z` });
    process.stdout.write(`${date.data}: ${run.due.length} reminder(s) due (${run.due.map((r) => `${r.deadline_id} in ${r.days_before} d`).join(', ') || 'none'}) `
      + `for ${run.accounts} account(s); reminders already sent are not sent again.\n`);
    await drainQueue(app.resources.reminderQueueUrl, 'reminder-worker', async () => (await import('../functions/reminder-worker/handler')).handler);
    const pending = await drainQueue(app.resources.queueUrl, 'webhook-dispatcher', async () => (await import('../functions/webhook-dispatcher/handler')).handler);
    if (pending > 0) process.stdout.write(`${pending} delivery(ies) still waiting for a retry; they are dropped on exit (run \`npm start\` to keep delivering).\n`);
  } finally {
    await app.stop();
  }
}

/** Runs the queue's consumer until the queue is empty (or a minute has passed); answers what is left. */
async function drainQueue(queueUrl: string, functionName: string, loadHandler: () => Promise<SqsHandler>): Promise<number> {
  const poller = startQueuePoller({ queueUrl, functionName, loadHandler });
  const started = Date.now();
  let left = 0;
  try {
    do {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { Attributes = {} } = await sqs().send(new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }));
      left = Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
    } while (left > 0 && Date.now() - started < DRAIN_TIMEOUT_MS);
  } finally {
    await poller.stop();
  }
  return left;
}

main().catch((error: unknown) => {
  process.stderr.write(`Reminders failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
