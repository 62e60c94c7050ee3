import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createBearerAuthorizer } from '../../functions/bearer-authorizer/handler';
import type { BearerOutcome } from '../../shared/http/bearer';

const KEYS = { free: 'value-of-free-key', pro: 'value-of-pro-key', enterprise: 'value-of-enterprise-key' };
const event = (authorization?: string) => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:us-east-1:123456789012:abc123/api/GET/v1/users/profile',
  headers: authorization ? { Authorization: authorization } : {},
}) as unknown as APIGatewayRequestAuthorizerEvent;

const signedIn = (tier: 'free' | 'pro' | 'enterprise'): BearerOutcome => ({
  ok: true, user: { user_id: 'u-1', email: 'a@example.org', name: 'A', role: 'staff', account_id: 'acct-1', tier },
});

/** The /v1 methods require a usage key: the bearer authorizer names the plan whose /v1 throttles apply. */
describe('bearer authorizer usage identifier', () => {
  it.each(['free', 'pro', 'enterprise'] as const)('names the %s plan for a user of a %s account', async (tier) => {
    const authorize = createBearerAuthorizer(async () => signedIn(tier), async () => KEYS);
    const result = await authorize(event('Bearer token'));
    expect(result.usageIdentifierKey).toBe(KEYS[tier]);
    expect(result.context).toMatchObject({ tier, user_id: 'u-1' });
  });

  it('names the Free plan for a request without a valid token, and still lets it reach the function (which answers 401)', async () => {
    const authorize = createBearerAuthorizer(async () => ({ ok: false, detail: 'The token has expired.' }), async () => KEYS);
    const result = await authorize(event());
    expect(result.usageIdentifierKey).toBe(KEYS.free);
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(result.context).toMatchObject({ bearer_error: 'The token has expired.' });
  });

  it('names the account\'s own key where the account has one, and keeps it out of the function\'s context', async () => {
    const outcome = signedIn('pro');
    if (outcome.ok) outcome.user.usage_key = 'vacu_own-key-of-acct-1-0000000000000000';
    const authorize = createBearerAuthorizer(async () => outcome, async () => KEYS);
    const result = await authorize(event('Bearer token'));
    expect(result.usageIdentifierKey).toBe('vacu_own-key-of-acct-1-0000000000000000');
    expect(JSON.stringify(result.context)).not.toContain('vacu_');
  });

  it('names no plan where no usage keys are configured (local mode)', async () => {
    const authorize = createBearerAuthorizer(async () => signedIn('pro'), async () => ({}));
    expect((await authorize(event('Bearer token'))).usageIdentifierKey).toBeUndefined();
  });
});
