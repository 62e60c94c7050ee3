import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures: `v1,` + base64(HMAC-SHA256(secret bytes, `${id}.${timestamp}.${body}`)),
 * where the secret bytes are the base64 after `whsec_`.
 */
export const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function signPayload(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export function signedHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload(secret, messageId, timestamp, body),
  };
}
