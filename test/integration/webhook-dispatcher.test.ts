import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { sqs } from '../../shared/adapters/aws-clients';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { HttpWebhookSender } from '../../shared/adapters/webhook-sender';
import { hashApiKey } from '../../shared/domain/api-keys';
import { resetConfigForTests } from '../../shared/config';
import { createDispatcher } from '../../functions/webhook-dispatcher/handler';
import { startTestApp } from '../helpers/local-app';

const record = (messageId: string, body: string) => ({ messageId, body, receiptHandle: messageId, attributes: {}, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:events', awsRegion: 'us-east-1' });
const sqsEvent = (...records: ReturnType<typeof record>[]) => ({ Records: records }) as unknown as SQSEvent;

/** The dispatcher in AWS mode, with a resolver that answers a private address for a public-looking name. */
describe('webhook dispatcher in AWS mode (emulated table and queue)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let accountId: string;
  let webhookId: string;
  const resolve = jest.fn(async () => [{ address: '10.0.0.5', family: 4 }]);

  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '1s';
    app = await startTestApp({ backgroundWorkers: false });
    accountId = (await new DynamoAccountStore().findByKeyHash(hashApiKey(app.keys.pro)))!.accountId;
    // Created in local mode: the literal URL is fine at creation (no DNS); the send is judged in AWS mode.
    const created = await app.request('POST', '/account/webhooks', { key: app.keys.pro, json: { webhook_url: 'https://hooks.example.com/va', events: ['assessment_complete'] } });
    expect(created.status).toBe(201);
    webhookId = created.json.webhook_id;
    process.env.APP_MODE = 'aws';
    resetConfigForTests();
  });
  afterAll(async () => {
    process.env.APP_MODE = 'local';
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    await app.stop();
  });

  it('fans out once, refuses the private address at send, records the attempt and schedules a retry; a bad record alone fails', async () => {
    const dispatcher = createDispatcher((deps) => ({ ...deps, sender: new HttpWebhookSender({ mode: 'aws', resolve }) }));
    const event = { event_id: 'evt_ac_1', account_id: accountId, type: 'assessment_complete', timestamp: new Date().toISOString(), data: { assessment_id: 'as_1' } };

    const fanOut = await dispatcher(sqsEvent(record('m1', JSON.stringify(event)), record('m2', 'not json')), {} as Context);
    expect(fanOut.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
    // The same event relayed again (at-least-once) is not fanned out a second time.
    expect((await dispatcher(sqsEvent(record('m1-again', JSON.stringify(event))), {} as Context)).batchItemFailures).toEqual([]);

    const { Messages = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: app.resources.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect(Messages).toHaveLength(1);
    const delivery = JSON.parse(Messages[0]!.Body!);
    expect(delivery).toMatchObject({ kind: 'webhook_delivery', webhook_id: webhookId, attempt: 1, event: { event_id: 'evt_ac_1' } });

    const attempt = await dispatcher(sqsEvent(record('m3', Messages[0]!.Body!)), {} as Context);
    expect(attempt.batchItemFailures).toEqual([]);
    expect(resolve).toHaveBeenCalledWith('hooks.example.com');

    const listed = await app.request('GET', `/account/webhooks/${webhookId}/deliveries`, { key: app.keys.pro });
    expect(listed.status).toBe(200);
    expect(listed.json.data).toHaveLength(1);
    expect(listed.json.data[0]).toMatchObject({ attempt: 1, status: 'failed', response_status: null, event_id: 'evt_ac_1', dead_lettered: false, next_retry_at: expect.any(String) });
    expect(listed.json.data[0].error).toBe('blocked');

    // The retry (attempt 2) waits on the queue, delayed.
    const { Messages: retry = [] } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: app.resources.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 3 }));
    expect(retry.map((m) => JSON.parse(m.Body!))).toEqual([expect.objectContaining({ attempt: 2, webhook_id: webhookId })]);
  });
});
