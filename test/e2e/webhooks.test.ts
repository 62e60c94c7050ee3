import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../../shared/adapters/aws-clients';
import { SqsEventQueue } from '../../shared/adapters/sqs-event-queue';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { hashApiKey } from '../../shared/domain/api-keys';
import { startTestApp } from '../helpers/local-app';
import { waitFor } from '../helpers/wait-for';

/** Receiver-side verification written from the Standard Webhooks spec, independent of the product. */
function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64'));
  return String(headers['webhook-signature']).split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    return version === 'v1' && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), expected);
  });
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A local endpoint answering with `statuses` in turn (the last one repeats). */
async function startReceiver(statuses: number[]): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      const answered = statuses[Math.min(received.length, statuses.length - 1)]!;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/va`, received, server };
}

describe('webhooks over HTTP with the local queue poller and dispatcher', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const servers: Server[] = [];
  let proAccountId: string;

  beforeAll(async () => {
    // Four attempts, a fraction of a second apart (the queue rounds delays up to whole seconds).
    process.env.WEBHOOK_RETRY_SCHEDULE = '200ms,500ms,200ms';
    app = await startTestApp();
    proAccountId = (await new DynamoAccountStore().findByKeyHash(hashApiKey(app.keys.pro)))!.accountId;
  });
  afterAll(async () => {
    await app.stop();
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  const receiver = async (statuses: number[]) => {
    const r = await startReceiver(statuses);
    servers.push(r.server);
    return r;
  };
  const create = (json: unknown, key = app.keys.pro) => app.request('POST', '/account/webhooks', { key, json });
  const deliveries = async (id: string, query = '') => (await app.request('GET', `/account/webhooks/${id}/deliveries${query}`, { key: app.keys.pro })).json;

  it('creates a webhook showing its secret once, and lists it without', async () => {
    const created = await create({ webhook_url: 'https://hooks.example.com/va', events: ['deadline_reminder'], description: 'Planning office' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ webhook_id: expect.stringMatching(/^wh_/), webhook_url: 'https://hooks.example.com/va', events: ['deadline_reminder'], description: 'Planning office', created_at: expect.any(String) });
    expect(created.json.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = await app.request('GET', '/account/webhooks', { key: app.keys.pro });
    expect(listed.status).toBe(200);
    const mine = listed.json.data.find((w: { webhook_id: string }) => w.webhook_id === created.json.webhook_id);
    expect(mine).toBeDefined();
    expect(mine.secret).toBeUndefined();
    expect(listed.text).not.toContain(created.json.secret);
  });

  it('honours Idempotency-Key on creation: a retry returns the first webhook, another body is 422', async () => {
    const json = { webhook_url: 'https://hooks.example.com/idem', events: ['assessment_complete'] };
    const headers = { 'Idempotency-Key': 'create-webhook-0001' };
    const first = await app.request('POST', '/account/webhooks', { key: app.keys.pro, json, headers });
    const again = await app.request('POST', '/account/webhooks', { key: app.keys.pro, json, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.webhook_id).toBe(first.json.webhook_id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await app.request('POST', '/account/webhooks', { key: app.keys.pro, json: { ...json, events: ['deadline_reminder'] }, headers });
    expect(other.status).toBe(422);
    expect(other.json.code).toBe('idempotency_key_reused');
    const listed = await app.request('GET', '/account/webhooks?limit=100', { key: app.keys.pro });
    expect(listed.json.data.filter((w: { webhook_url: string }) => w.webhook_url === json.webhook_url)).toHaveLength(1);
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data/', 'webhook_url'],
    ['https://10.0.0.8/hook', 'webhook_url'],
    ['https://[fd00:ec2::254]/', 'webhook_url'],
    ['https://[::ffff:192.168.0.1]/', 'webhook_url'],
    ['https://metadata.google.internal/', 'webhook_url'],
    ['http://hooks.example.com/', 'webhook_url'],
    ['ftp://hooks.example.com/', 'webhook_url'],
  ])('refuses %s at creation with 400 naming %s', async (webhookUrl, field) => {
    const res = await create({ webhook_url: webhookUrl, events: ['assessment_complete'] });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_request');
    expect(res.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it('refuses unknown or repeated events, unknown fields and a free key', async () => {
    expect((await create({ webhook_url: 'https://hooks.example.com/', events: ['assessment_deleted'] })).json.errors[0].field).toBe('events.0');
    expect((await create({ webhook_url: 'https://hooks.example.com/', events: ['deadline_reminder', 'deadline_reminder'] })).json.errors[0].field).toBe('events');
    expect((await create({ webhook_url: 'https://hooks.example.com/', events: [] })).status).toBe(400);
    expect((await create({ webhook_url: 'https://hooks.example.com/', events: ['deadline_reminder'], secret: 'mine' })).json.errors[0].field).toBe('secret');
    const free = await create({ webhook_url: 'https://hooks.example.com/', events: ['deadline_reminder'] }, app.keys.free);
    expect(free.status).toBe(403);
    expect(free.json.code).toBe('subscription_required');
  });

  let recoveredId: string;

  it('delivers an event to a receiver that fails twice: one success, the same webhook-id on every attempt, valid signatures', async () => {
    const flaky = await receiver([500, 500, 200]);
    const created = await create({ webhook_url: flaky.url, events: ['assessment_complete'] });
    expect(created.status).toBe(201);
    recoveredId = created.json.webhook_id;
    const other = await create({ webhook_url: flaky.url.replace('/hooks/va', '/other'), events: ['deadline_reminder'] });

    const event = { event_id: 'evt_e2e_complete_1', account_id: proAccountId, type: 'assessment_complete' as const, timestamp: '2026-05-01T12:00:00.000Z', data: { assessment_id: 'as_e2e', jurisdiction: 'Liberty County', completed_at: '2026-05-01T12:00:00.000Z' } };
    await new SqsEventQueue(app.resources.queueUrl).send(event);

    const attempts = await waitFor(async () => {
      const page = await deliveries(recoveredId);
      return page.data.some((a: { status: string }) => a.status === 'succeeded') ? page.data : undefined;
    }, 'the successful delivery');

    expect(flaky.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    for (const request of flaky.received) {
      expect(request.headers['webhook-id']).toBe('evt_e2e_complete_1');
      expect(verifySignature(created.json.secret, request.headers, request.body)).toBe(true);
      expect(JSON.parse(request.body)).toEqual({ type: 'assessment_complete', timestamp: event.timestamp, data: event.data });
      expect(Number(request.headers['webhook-timestamp'])).toBeGreaterThan(1_700_000_000);
    }
    // Newest first: the success, then the two failures, each with its own next retry time.
    expect(attempts.map((a: { attempt: number; status: string; response_status: number }) => [a.attempt, a.status, a.response_status])).toEqual([[3, 'succeeded', 200], [2, 'failed', 500], [1, 'failed', 500]]);
    expect(attempts[0]).toMatchObject({ next_retry_at: null, dead_lettered: false, error: null, event_type: 'assessment_complete' });
    expect(attempts[1]).toMatchObject({ next_retry_at: expect.any(String), error: 'http_status', response_status: 500 });
    for (const attempt of attempts) expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    // The endpoint subscribed to other events saw nothing.
    expect((await deliveries(other.json.webhook_id)).data).toEqual([]);
  });

  it('pages the attempts with an opaque cursor, and refuses a cursor of another list', async () => {
    const first = await deliveries(recoveredId, '?limit=2');
    expect(first.data.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await deliveries(recoveredId, `?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second.data.map((a: { attempt: number }) => a.attempt)).toEqual([1]);

    const foreign = Buffer.from(JSON.stringify({ pk: 'WEBHOOK#wh_someone_else', sk: 'ATTEMPT#x' })).toString('base64url');
    for (const cursor of [foreign, 'garbage', 'e30']) {
      const res = await app.request('GET', `/account/webhooks/${recoveredId}/deliveries?cursor=${cursor}`, { key: app.keys.pro });
      expect(res.status).toBe(400);
      expect(res.json.errors[0]).toMatchObject({ field: 'cursor', in: 'query' });
    }
  });

  it('sends a test event to an endpoint that always fails until the delivery ends in the dead-letter queue, every attempt listed', async () => {
    const broken = await receiver([503]);
    const created = await create({ webhook_url: broken.url, events: ['deadline_reminder'] });
    const id = created.json.webhook_id;
    const queued = await app.request('POST', `/account/webhooks/${id}/test`, { key: app.keys.pro });
    expect(queued.status).toBe(202);
    expect(queued.json).toMatchObject({ webhook_id: id, event_type: 'webhook_test', status: 'queued', event_id: expect.any(String) });

    const dead = await waitFor(async () => {
      const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: app.resources.deadLetterQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 0 }));
      return Messages.map((m) => JSON.parse(m.Body!)).find((body) => body.webhook_id === id);
    }, 'the dead-lettered delivery');
    expect(dead).toMatchObject({ kind: 'webhook_delivery', attempt: 4, last_error: 'HTTP 503', event: { event_id: queued.json.event_id, type: 'webhook_test' } });

    const attempts = (await deliveries(id)).data;
    expect(attempts.map((a: { attempt: number; status: string; dead_lettered: boolean }) => [a.attempt, a.status, a.dead_lettered])).toEqual([[4, 'failed', true], [3, 'failed', false], [2, 'failed', false], [1, 'failed', false]]);
    expect(attempts[0].next_retry_at).toBeNull();
    expect(broken.received).toHaveLength(4);
    expect(new Set(broken.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([queued.json.event_id]));
    expect(JSON.parse(broken.received[0]!.body).type).toBe('webhook_test');
    expect(verifySignature(created.json.secret, broken.received[3]!.headers, broken.received[3]!.body)).toBe(true);
  });

  it('hides another account\'s webhooks (404) and deletes the owner\'s', async () => {
    const created = await create({ webhook_url: 'https://hooks.example.com/x', events: ['assessment_complete'] });
    const id = created.json.webhook_id;
    const other = { key: app.keys.enterprise };
    expect((await app.request('GET', `/account/webhooks/${id}/deliveries`, other)).status).toBe(404);
    expect((await app.request('POST', `/account/webhooks/${id}/test`, other)).status).toBe(404);
    expect((await app.request('DELETE', `/account/webhooks/${id}`, other)).status).toBe(404);
    expect((await app.request('GET', '/account/webhooks', other)).json.data.map((w: { webhook_id: string }) => w.webhook_id)).not.toContain(id);

    expect((await app.request('DELETE', `/account/webhooks/${id}`, { key: app.keys.pro })).status).toBe(204);
    expect((await app.request('DELETE', `/account/webhooks/${id}`, { key: app.keys.pro })).status).toBe(404);
    const gone = await app.request('GET', `/account/webhooks/${id}/deliveries`, { key: app.keys.pro });
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('not_found');
    expect((await app.request('DELETE', '/account/webhooks/not%20an%20id', { key: app.keys.pro })).status).toBe(400);
  });

  it('caps webhooks per account with 409 conflict', async () => {
    const key = app.keys.enterprise;
    for (let i = 0; i < 10; i++) expect((await create({ webhook_url: `https://hooks.example.com/${i}`, events: ['deadline_reminder'] }, key)).status).toBe(201);
    const over = await create({ webhook_url: 'https://hooks.example.com/11', events: ['deadline_reminder'] }, key);
    expect(over.status).toBe(409);
    expect(over.json.code).toBe('conflict');
    const page = await app.request('GET', '/account/webhooks?limit=4', { key });
    expect(page.json.data).toHaveLength(4);
    const rest = await app.request('GET', `/account/webhooks?limit=20&cursor=${encodeURIComponent(page.json.next_cursor)}`, { key });
    expect(rest.json.data).toHaveLength(6);
  });
});
