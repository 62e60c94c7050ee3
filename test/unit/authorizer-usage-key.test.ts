import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createAuthorizer } from '../../functions/authorizer/handler';
import { hashApiKey } from '../../shared/domain/api-keys';
import type { AccountContext, AccountStore } from '../../shared/ports';

const TIER_KEYS = { free: 'value-of-free-key', pro: 'value-of-pro-key', enterprise: 'value-of-enterprise-key' };
const RAW = { own: `vac_${'a'.repeat(32)}`, older: `vac_${'b'.repeat(32)}`, other: `vac_${'c'.repeat(32)}` };
const KEYS: Record<string, AccountContext> = {
  [hashApiKey(RAW.own)]: { accountId: 'acct-1', tier: 'free', keyHash: hashApiKey(RAW.own), usageKey: 'vacu_key-of-acct-1-000000000000000000' },
  [hashApiKey(RAW.other)]: { accountId: 'acct-2', tier: 'free', keyHash: hashApiKey(RAW.other), usageKey: 'vacu_key-of-acct-2-000000000000000000' },
  [hashApiKey(RAW.older)]: { accountId: 'acct-3', tier: 'pro', keyHash: hashApiKey(RAW.older) },
};
const accounts = { findByKeyHash: async (hash: string) => KEYS[hash] } as unknown as AccountStore;
const event = (key: string) => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:us-east-1:123456789012:abc123/api/GET/grants/deadlines',
  headers: { 'X-API-Key': key },
}) as unknown as APIGatewayRequestAuthorizerEvent;

/** Usage-plan throttles apply per usage identifier: each account names its own key. */
describe('API key authorizer usage identifier', () => {
  const authorize = createAuthorizer({ accounts: () => accounts, usageKeys: async () => TIER_KEYS });

  it('names each account\'s own key, so two accounts of one tier are throttled apart', async () => {
    const [one, two] = await Promise.all([authorize(event(RAW.own)), authorize(event(RAW.other))]);
    expect(one.usageIdentifierKey).toBe('vacu_key-of-acct-1-000000000000000000');
    expect(two.usageIdentifierKey).toBe('vacu_key-of-acct-2-000000000000000000');
    expect(JSON.stringify(one.context)).not.toContain('vacu_');
  });

  it('names the tier\'s shared key for a key of an account without its own', async () => {
    expect((await authorize(event(RAW.older))).usageIdentifierKey).toBe(TIER_KEYS.pro);
  });
});
