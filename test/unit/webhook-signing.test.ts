import { createHmac, timingSafeEqual } from 'node:crypto';
import { newSigningSecret, signedHeaders, signPayload } from '../../shared/domain/webhooks/signing';
import { DEFAULT_RETRY_SCHEDULE, maxAttempts, parseRetrySchedule, retryDelayMs } from '../../shared/domain/webhooks/backoff';

/** A receiver's verification, written from the Standard Webhooks spec, independent of the product. */
function verify(secret: string, headers: Record<string, string>, body: string): boolean {
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const content = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const expected = Buffer.from(createHmac('sha256', key).update(content, 'utf8').digest('base64'));
  return headers['webhook-signature']!.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('Standard Webhooks signing', () => {
  it('matches the example of the Standard Webhooks specification', () => {
    // From the spec's reference test vectors (standard-webhooks, libraries/javascript tests).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signPayload(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is verified by an independent implementation, and fails on any change', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: 'deadline_reminder', timestamp: '2026-08-02T00:01:00.000Z', data: { days_before: 30 } });
    const headers = signedHeaders(secret, 'evt_1', new Date('2026-08-02T00:01:02.900Z'), body);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe('1785628862');
    expect(verify(secret, headers, body)).toBe(true);
    expect(verify(secret, headers, body.replace('30', '31'))).toBe(false);
    expect(verify(newSigningSecret(), headers, body)).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-timestamp': '1785628863' }, body)).toBe(false);
  });
});

describe('retry schedule', () => {
  it('defaults to 7 delays (8 attempts) totalling 27 h 5 min 5 s, at least 24 h', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    // 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h = 5 + 300 + 1800 + 7200 + 18000 + 36000 + 36000 s = 99 305 s.
    expect(schedule.reduce((a, b) => a + b, 0)).toBe(99_305_000);
    expect(maxAttempts(schedule)).toBe(8);
  });

  it('adds up to 20 % jitter, never less than the step, and stops after the last step', () => {
    const schedule = parseRetrySchedule('5s,5m');
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(5000);
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(5500);
    expect(retryDelayMs(schedule, 2, () => 0.999)).toBe(Math.round(300_000 * 1.1998));
    expect(retryDelayMs(schedule, 3)).toBeUndefined();
  });

  it('reads milliseconds for tests and refuses nonsense', () => {
    expect(parseRetrySchedule('200ms, 1.5s,2h')).toEqual([200, 1500, 7_200_000]);
    expect(() => parseRetrySchedule('5 minutes')).toThrow(/Invalid retry delay/);
    expect(() => parseRetrySchedule('')).toThrow();
  });
});
