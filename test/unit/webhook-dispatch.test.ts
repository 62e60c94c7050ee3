import { dispatchMessage, MalformedMessageError, rearmOverdueRetries, type DispatchDeps } from '../../shared/domain/webhooks/dispatch';
import { attemptRef, firstDelivery, type DeliveryAttempt, type DeliveryMessage } from '../../shared/domain/webhooks/delivery';
import type { SendResult, Webhook } from '../../shared/domain/webhooks/ports';
import type { QueuedEvent } from '../../shared/ports';

const event: QueuedEvent = {
  event_id: 'evt_a1',
  account_id: 'acct-1',
  type: 'assessment_complete',
  timestamp: '2026-05-01T12:00:00.000Z',
  data: { assessment_id: 'as_1' },
};

const hook = (id: string, events: string[]): Webhook => ({
  webhook_id: id, account_id: 'acct-1', webhook_url: `https://hooks.example.com/${id}`, events, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', created_at: '2026-01-01T00:00:00.000Z',
});

function harness(results: SendResult[], webhooks: Webhook[] = [hook('wh_1', ['assessment_complete'])]) {
  let clock = new Date('2026-05-01T12:00:00.000Z');
  const scheduled: { message: DeliveryMessage; delaySeconds: number }[] = [];
  const deadLettered: { message: DeliveryMessage; lastError: string }[] = [];
  const recorded: DeliveryAttempt[] = [];
  // Pending retries as the table keeps them: attempt ref → the retry's message and its claim.
  const pending = new Map<string, { message: DeliveryMessage; claimedUntil: number }>();
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  let ids = 0;
  const fannedOut = new Set<string>();
  let queueDown = false;
  const deps: DispatchDeps = {
    webhooks: {
      create: async () => undefined,
      get: async (accountId, id) => webhooks.find((w) => w.account_id === accountId && w.webhook_id === id),
      list: async () => ({ items: webhooks }),
      subscribedTo: async (accountId, type) => webhooks.filter((w) => w.account_id === accountId && w.events.includes(type)),
      delete: async () => true,
    },
    deliveries: {
      claimFanOut: async (webhookId, eventId) => !fannedOut.has(`${webhookId}|${eventId}`) && Boolean(fannedOut.add(`${webhookId}|${eventId}`)),
      releaseFanOut: async (webhookId, eventId) => void fannedOut.delete(`${webhookId}|${eventId}`),
      record: async (attempt, retry) => {
        recorded.push(attempt);
        if (retry) pending.set(attemptRef(attempt), { message: retry, claimedUntil: 0 });
      },
      list: async () => ({ items: recorded }),
      claimRetry: async (_webhookId, ref, now, leaseMs) => {
        const entry = pending.get(ref);
        if (!entry || entry.claimedUntil > now.getTime()) return false;
        entry.claimedUntil = now.getTime() + leaseMs;
        return true;
      },
      completeRetry: async (_webhookId, ref) => void pending.delete(ref),
      overdueRetries: async (dueBefore) => [...pending.values()].filter((p) => Date.parse(p.message.due_at) < dueBefore.getTime()).map((p) => p.message),
    },
    sender: {
      send: async (url, headers, body) => {
        sent.push({ url, headers, body });
        return results.shift() ?? { ok: true, status: 200, durationMs: 3, error: null };
      },
    },
    queue: {
      schedule: async (message, delaySeconds) => {
        if (queueDown) throw new Error('queue unavailable');
        scheduled.push({ message, delaySeconds });
      },
      deadLetter: async (message, lastError) => void deadLettered.push({ message, lastError }),
    },
    // 2 s then 20 min (longer than the 15 min SQS cap) between attempts; 3 attempts in all.
    schedule: [2000, 1_200_000],
    now: () => clock,
    random: () => 0,
    newId: () => `d${++ids}`,
  };
  return {
    deps, scheduled, deadLettered, recorded, sent, pending,
    advance: (ms: number) => { clock = new Date(clock.getTime() + ms); },
    setQueueDown: (down: boolean) => { queueDown = down; },
  };
}

const failure: SendResult = { ok: false, status: 503, durationMs: 12, error: 'http_status' };

describe('dispatchMessage', () => {
  it('fans an event out to each subscribed endpoint of its account only', async () => {
    const h = harness([], [hook('wh_1', ['assessment_complete']), hook('wh_2', ['deadline_reminder']), hook('wh_3', ['assessment_complete', 'deadline_reminder'])]);
    expect(await dispatchMessage(event, h.deps)).toEqual({ kind: 'fanned_out', deliveries: 2 });
    expect(h.scheduled.map((s) => [s.message.webhook_id, s.message.attempt, s.delaySeconds])).toEqual([['wh_1', 1, 0], ['wh_3', 1, 0]]);
    expect(h.sent).toHaveLength(0);
  });

  it('fans a repeated event (at-least-once relays) out only once, but again after a failed fan-out', async () => {
    const h = harness([]);
    h.setQueueDown(true);
    await expect(dispatchMessage(event, h.deps)).rejects.toThrow('queue unavailable');
    h.setQueueDown(false);
    expect(await dispatchMessage(event, h.deps)).toEqual({ kind: 'fanned_out', deliveries: 1 });
    expect(await dispatchMessage(event, h.deps)).toEqual({ kind: 'fanned_out', deliveries: 0 });
    expect(h.scheduled).toHaveLength(1);
  });

  it('delivers with the signed body and records a success', async () => {
    const h = harness([]);
    expect(await dispatchMessage(firstDelivery(event, 'wh_1', h.deps.now()), h.deps)).toEqual({ kind: 'delivered', attempt: 1 });
    expect(JSON.parse(h.sent[0]!.body)).toEqual({ type: 'assessment_complete', timestamp: event.timestamp, data: event.data });
    expect(h.sent[0]!.headers['webhook-id']).toBe('evt_a1');
    expect(h.recorded).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded', response_status: 200, next_retry_at: null, dead_lettered: false })]);
  });

  it('retries on the schedule, waits out delays longer than the queue allows, then dead-letters', async () => {
    const h = harness([failure, failure, { ok: false, status: null, durationMs: 10_000, error: 'timeout' }]);
    await dispatchMessage(firstDelivery(event, 'wh_1', h.deps.now()), h.deps);
    // Attempt 1 failed: attempt 2 due in 2 s (jitter 0).
    expect(h.recorded[0]).toMatchObject({ attempt: 1, status: 'failed', response_status: 503, next_retry_at: '2026-05-01T12:00:02.000Z' });
    expect(h.scheduled[0]).toMatchObject({ delaySeconds: 2, message: { attempt: 2, due_at: '2026-05-01T12:00:02.000Z' } });

    h.advance(2000);
    await dispatchMessage(h.scheduled[0]!.message, h.deps);
    // Attempt 2 failed: attempt 3 due in 20 min, queued with the 900 s maximum.
    expect(h.scheduled[1]).toMatchObject({ delaySeconds: 900, message: { attempt: 3, due_at: '2026-05-01T12:20:02.000Z' } });

    h.advance(900_000);
    expect(await dispatchMessage(h.scheduled[1]!.message, h.deps)).toEqual({ kind: 'not_due' });
    // Re-queued for the remaining 300 s, nothing sent.
    expect(h.scheduled[2]).toMatchObject({ delaySeconds: 300, message: { attempt: 3 } });
    expect(h.sent).toHaveLength(2);

    h.advance(300_000);
    expect(await dispatchMessage(h.scheduled[2]!.message, h.deps)).toEqual({ kind: 'dead_lettered', attempt: 3 });
    expect(h.recorded.map((r) => [r.attempt, r.status, r.dead_lettered])).toEqual([[1, 'failed', false], [2, 'failed', false], [3, 'failed', true]]);
    expect(h.recorded[2]).toMatchObject({ response_status: null, error: 'timeout', next_retry_at: null });
    expect(h.deadLettered).toEqual([expect.objectContaining({ lastError: 'timeout' })]);
    // The same webhook-id on every attempt.
    expect(new Set(h.sent.map((s) => s.headers['webhook-id']))).toEqual(new Set(['evt_a1']));
  });

  it('sends a message up to one second early, and re-queues one due later than that', async () => {
    const h = harness([]);
    const dueIn = (ms: number): DeliveryMessage => ({ ...firstDelivery(event, 'wh_1', h.deps.now()), due_at: new Date(h.deps.now().getTime() + ms).toISOString() });
    expect(await dispatchMessage(dueIn(1001), h.deps)).toEqual({ kind: 'not_due' });
    expect(h.scheduled).toEqual([expect.objectContaining({ delaySeconds: 2 })]);
    expect(await dispatchMessage(dueIn(1000), h.deps)).toEqual({ kind: 'delivered', attempt: 1 });
    expect(h.sent).toHaveLength(1);
  });

  it('dead-letters the last attempt with the HTTP status it got, or the transport error', async () => {
    const h = harness([failure, { ok: false, status: null, durationMs: 3, error: 'refused' }]);
    const last: DeliveryMessage = { ...firstDelivery(event, 'wh_1', h.deps.now()), attempt: 3 };
    expect(await dispatchMessage(last, h.deps)).toEqual({ kind: 'dead_lettered', attempt: 3 });
    expect(await dispatchMessage(last, h.deps)).toEqual({ kind: 'dead_lettered', attempt: 3 });
    expect(h.deadLettered.map((d) => d.lastError)).toEqual(['HTTP 503', 'refused']);
  });

  it('drops deliveries to deleted or unsubscribed webhooks, and delivers a test event regardless of subscriptions', async () => {
    const h = harness([], [hook('wh_1', ['deadline_reminder'])]);
    expect(await dispatchMessage(firstDelivery(event, 'wh_gone', h.deps.now()), h.deps)).toEqual({ kind: 'dropped', reason: 'webhook deleted' });
    expect(await dispatchMessage(firstDelivery(event, 'wh_1', h.deps.now()), h.deps)).toEqual({ kind: 'dropped', reason: 'no longer subscribed' });
    const test: QueuedEvent = { ...event, event_id: 'evt_t', type: 'webhook_test', data: {} };
    expect(await dispatchMessage(firstDelivery(test, 'wh_1', h.deps.now()), h.deps)).toEqual({ kind: 'delivered', attempt: 1 });
  });

  it('keeps each scheduled retry pending in the store until it is made, and sends it once whatever the copies', async () => {
    const h = harness([failure]);
    await dispatchMessage(firstDelivery(event, 'wh_1', h.deps.now()), h.deps);
    const retry = h.scheduled[0]!.message;
    expect(retry).toMatchObject({ attempt: 2, retry_of: attemptRef(h.recorded[0]!) });
    expect([...h.pending.values()].map((p) => p.message)).toEqual([retry]);

    // The queue lost its copy (a restart): a pass over the store puts it back once it is overdue.
    h.scheduled.length = 0;
    expect(await rearmOverdueRetries(h.deps.deliveries, h.deps.queue, h.deps.now())).toBe(0);
    h.advance(10_000);
    expect(await rearmOverdueRetries(h.deps.deliveries, h.deps.queue, h.deps.now())).toBe(1);
    expect(h.scheduled).toEqual([{ message: retry, delaySeconds: 0 }]);

    expect(await dispatchMessage(retry, h.deps)).toEqual({ kind: 'delivered', attempt: 2 });
    expect(h.pending.size).toBe(0);
    // A second copy (the queue's own, arriving late) is dropped, not sent again.
    expect(await dispatchMessage(retry, h.deps)).toEqual({ kind: 'dropped', reason: 'retry already made or in progress' });
    expect(h.sent).toHaveLength(2);
  });

  it('refuses messages that are neither events nor deliveries', async () => {
    const h = harness([]);
    for (const junk of [null, 'x', { kind: 'webhook_delivery' }, { event_id: 'e' }]) {
      await expect(dispatchMessage(junk, h.deps)).rejects.toThrow(MalformedMessageError);
    }
  });
});
