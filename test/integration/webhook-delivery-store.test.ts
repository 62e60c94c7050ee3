import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/adapters/aws-clients';
import { DynamoDeliveryStore } from '../../shared/adapters/delivery-store';
import { startTestApp } from '../helpers/local-app';

/** Delivery attempts in the table: what the deliveries list answers, old records included. */
describe('delivery store (DynamoDB)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers attempts recorded with a raw network error by its coarse class only', async () => {
    const webhookId = 'wh_legacy_errors';
    const legacy: Array<[string, string]> = [
      ['ECONNREFUSED: connect ECONNREFUSED 203.0.113.9:6379', 'refused'],
      ['ECONNRESET: socket hang up', 'refused'],
      ['timed out after 10 s', 'timeout'],
      ['DNS lookup of hooks.example.com failed (ENOTFOUND)', 'dns'],
      ['ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate\'s altnames', 'tls'],
      ['HTTP 502', 'http_status'],
      ['refused: hooks.example.com resolves to 10.0.0.5 is a private network (10.0.0.0/8)', 'blocked'],
    ];
    const now = Date.now();
    await Promise.all(legacy.map(([error], i) => {
      const attemptedAt = new Date(now - i * 1000).toISOString();
      return dynamo().send(new PutCommand({
        TableName: app.resources.tableName,
        Item: {
          pk: `WEBHOOK#${webhookId}`, sk: `ATTEMPT#${attemptedAt}#d${i}`, type: 'webhook_delivery', expires_at: Math.floor(now / 1000) + 86_400,
          delivery_id: `d${i}`, webhook_id: webhookId, account_id: 'acct_legacy', event_id: 'evt_1', event_type: 'webhook_test', attempt: 1,
          status: 'failed', response_status: error.startsWith('HTTP') ? 502 : null, duration_ms: 5, error, attempted_at: attemptedAt,
          next_retry_at: null, dead_lettered: false,
        },
      }));
    }));
    const page = await new DynamoDeliveryStore().list(webhookId, 20);
    expect(page.items.map((attempt) => attempt.error)).toEqual(legacy.map(([, expected]) => expected));
    expect(JSON.stringify(page.items)).not.toMatch(/ECONN|203\.0\.113|6379|10\.0\.0\.5/);
  });
});
