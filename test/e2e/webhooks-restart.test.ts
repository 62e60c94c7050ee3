import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalApp, type LocalApp } from '../../local/app';
import { waitFor } from '../helpers/wait-for';

/**
 * A retry promised in the delivery log survives a restart: the local queue keeps messages in
 * memory only, so the server is stopped while a retry is pending and started again on the same
 * data directory; the retry must still reach the receiver, once.
 */
describe('webhook retries across a restart', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-webhook-restart-'));
  const received: { headers: IncomingHttpHeaders; answered: number }[] = [];
  let receiver: Server;
  let receiverUrl: string;

  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '3s';
    // Fails the first attempt, accepts the retry.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const answered = received.length === 0 ? 503 : 200;
        received.push({ headers: req.headers, answered });
        res.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });

  afterAll(() => {
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    receiver.closeAllConnections();
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (app: LocalApp, method: string, route: string, json?: unknown) => {
    const res = await fetch(`${app.baseUrl}${route}`, {
      method,
      headers: { 'X-API-Key': app.keys.pro, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    return { status: res.status, json: (await res.json()) as any };
  };

  it('delivers a pending retry after the server restarts on the same data directory', async () => {
    const first = await startLocalApp({ dataDir, port: 0 });
    let webhookId: string;
    let promisedAt: string;
    try {
      const created = await call(first, 'POST', '/account/webhooks', { webhook_url: receiverUrl, events: ['assessment_complete'] });
      expect(created.status).toBe(201);
      webhookId = created.json.webhook_id;
      expect((await call(first, 'POST', `/account/webhooks/${webhookId}/test`)).status).toBe(202);
      const failed = await waitFor(async () => (await call(first, 'GET', `/account/webhooks/${webhookId}/deliveries`)).json.data[0], 'the first attempt');
      expect(failed).toMatchObject({ attempt: 1, status: 'failed', response_status: 503, dead_lettered: false });
      promisedAt = failed.next_retry_at;
      expect(Date.parse(promisedAt)).toBeGreaterThan(Date.now());
    } finally {
      // Stopped before the retry is due: the queue's copy of it dies with the process.
      await first.stop();
    }
    expect(received).toHaveLength(1);

    const second = await startLocalApp({ dataDir, port: 0 });
    try {
      await waitFor(() => (received.length >= 2 ? true : undefined), 'the retry after the restart');
      expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
      const log = await waitFor(async () => {
        const data = (await call(second, 'GET', `/account/webhooks/${webhookId}/deliveries`)).json.data;
        return data.length === 2 ? data : undefined;
      }, 'the retry in the delivery log');
      expect(log[0]).toMatchObject({ attempt: 2, status: 'succeeded', response_status: 200 });
      expect(Date.parse(log[0].attempted_at)).toBeGreaterThanOrEqual(Date.parse(promisedAt!) - 1000);
      // No second copy follows: the retry was claimed once.
      await new Promise((resolve) => setTimeout(resolve, 7000));
      expect(received).toHaveLength(2);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
