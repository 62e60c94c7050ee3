import { createHash } from 'node:crypto';
import { isDeliveryMessage, isQueuedEvent } from '../../shared/domain/webhooks/delivery';
import { checkWebhookUrl } from '../../shared/domain/webhooks/url-rules';
import { parseRetrySchedule } from '../../shared/domain/webhooks/backoff';
import { reminderEvent } from '../../shared/domain/webhooks/deadline-reminders';

/**
 * Queue messages are read back from SQS as untyped JSON: each field of a delivery message and of
 * its event is required with its type, one at a time. And the URL rules' exact reasons by mode.
 */

const event = { event_id: 'evt_1', account_id: 'acct_1', type: 'assessment.submitted', timestamp: '2026-11-23T15:00:00Z', data: { assessment_id: 'va_1' } };
const message = { kind: 'webhook_delivery', webhook_id: 'wh_1', attempt: 1, due_at: '2026-11-23T15:00:00Z', event };

describe('queued events and delivery messages', () => {
  it('accept the complete shapes, a retry naming what it retries', () => {
    expect(isQueuedEvent(event)).toBe(true);
    expect(isDeliveryMessage(message)).toBe(true);
    expect(isDeliveryMessage({ ...message, attempt: 4, retry_of: 'dlv_1' })).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'evt_1'],
    ['an empty event id', { ...event, event_id: '' }],
    ['a numeric event id', { ...event, event_id: 1 }],
    ['no account', { ...event, account_id: undefined }],
    ['a numeric type', { ...event, type: 7 }],
    ['no timestamp', { ...event, timestamp: undefined }],
    ['null data', { ...event, data: null }],
    ['string data', { ...event, data: 'x' }],
  ])('refuse an event with %s', (_name, value) => {
    expect(isQueuedEvent(value)).toBe(false);
    expect(isDeliveryMessage({ ...message, event: value })).toBe(false);
  });

  it.each([
    ['null', null],
    ['another kind', { ...message, kind: 'webhook_test' }],
    ['no webhook id', { ...message, webhook_id: undefined }],
    ['a fractional attempt', { ...message, attempt: 1.5 }],
    ['attempt 0', { ...message, attempt: 0 }],
    ['a numeric due time', { ...message, due_at: 0 }],
    ['a numeric retry_of', { ...message, retry_of: 3 }],
  ])('refuse a message with %s', (_name, value) => {
    expect(isDeliveryMessage(value)).toBe(false);
  });
});

describe('webhook URL reasons by mode', () => {
  it.each([
    ['https://user@hooks.example.com/x', 'aws', 'Credentials in the URL are not allowed.'],
    ['https://:secret@hooks.example.com/x', 'aws', 'Credentials in the URL are not allowed.'],
    ['http://hooks.example.com/x', 'aws', 'Use https.'],
    ['http://hooks.example.com/x', 'local', 'Use https (plain http only to loopback in local mode).'],
    ['http://127.0.0.1:9000/x', 'aws', 'Use https.'],
    ['ftp://hooks.example.com/x', 'local', 'Use https.'],
    ['https://hooks.example.com:8443/x', 'local', 'Use the https port 443 (no other port is allowed).'],
    ['https://127.0.0.1:8443/x', 'aws', 'Use the https port 443 (no other port is allowed).'],
    ['https://printer.local/x', 'aws', 'Refused: printer.local is not a public DNS name.'],
    ['https://api.localhost/x', 'aws', 'Refused: api.localhost is not a public DNS name.'],
    ['https://intranet/x', 'local', 'Refused: intranet is not a public DNS name.'],
    ['http://8.8.8.8/x', 'local', 'Use https (plain http only to loopback in local mode).'],
    ['https://8.8.8.8:8443/x', 'local', 'Use the https port 443 (no other port is allowed).'],
  ] as const)('%s in %s mode: %s', (url, mode, reason) => {
    expect(checkWebhookUrl(url, mode)).toEqual({ ok: false, reason });
  });

  it.each([
    ['http://localhost:3000/hook', 'localhost'],
    ['http://api.localhost:3000/hook', 'api.localhost'],
    ['http://127.0.0.1:9000/hook', '127.0.0.1'],
    ['https://[::1]:8443/hook', '::1'],
    ['http://LOCALHOST.:3000/hook', 'localhost'],
  ])('allows loopback %s in local mode (host %s)', (url, host) => {
    expect(checkWebhookUrl(url, 'local')).toMatchObject({ ok: true, host });
  });

  it('does not take a name merely starting with localhost for loopback', () => {
    expect(checkWebhookUrl('http://localhost.example.com:3000/hook', 'local')).toEqual({ ok: false, reason: 'Use https (plain http only to loopback in local mode).' });
    expect(checkWebhookUrl('https://localhost.example.com/hook', 'aws')).toMatchObject({ ok: true, host: 'localhost.example.com' });
  });
});

describe('retry schedule', () => {
  it('reads whole and decimal delays in each unit, spaces around them, and nothing else', () => {
    expect(parseRetrySchedule('500ms, 1.5s,5m ,2h')).toEqual([500, 1500, 300_000, 7_200_000]);
    expect(parseRetrySchedule('0.25m')).toEqual([15_000]);
    for (const bad of ['5', 'x5s', '5sx', '5 s', '1.s', '-5s', '5d']) expect(() => parseRetrySchedule(bad)).toThrow(/Invalid retry delay/);
  });
});

describe('reminder event ids', () => {
  it('are the first 32 hex digits of SHA-256 over account, deadline, date and lead time', () => {
    const reminder = { deadline_id: 'rf_grant_submission', deadline_name: 'Resilient Florida grant submission', deadline_date: '2027-09-01', days_before: 30 };
    const event = reminderEvent('acct_1', reminder, new Date('2027-08-02T12:00:00Z'));
    const expected = createHash('sha256').update('acct_1|rf_grant_submission|2027-09-01|30').digest('hex').slice(0, 32);
    expect(event).toEqual({ event_id: `evt_rem_${expected}`, account_id: 'acct_1', type: 'deadline_reminder', timestamp: '2027-08-02T12:00:00.000Z', data: reminder });
  });
});
