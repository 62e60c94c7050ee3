import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { GetApiKeyCommand, type APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { createAuthorizer, handler, wholeStage } from '../../functions/authorizer/handler';
import { USAGE_KEY_ID_VARIABLES, usageKeyLookup } from '../../shared/adapters/usage-keys';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { hashApiKey, newApiKey } from '../../shared/domain/api-keys';
import type { Tier } from '../../shared/domain/tiers';
import { startTestApp } from '../helpers/local-app';

const METHOD_ARN = 'arn:aws:execute-api:us-east-1:123456789012:abcdef1234/api/GET/assessments/asm_1';
const STAGE_WILDCARD = 'arn:aws:execute-api:us-east-1:123456789012:abcdef1234/api/*';

function authorizerEvent(headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    resource: '/assessments/{assessment_id}',
    path: '/assessments/asm_1',
    httpMethod: 'GET',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    pathParameters: { assessment_id: 'asm_1' },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {} as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

let app: Awaited<ReturnType<typeof startTestApp>>;

/** A key of an account opened before accounts had their own usage key. */
async function keyOfAccountWithoutUsageKey(tier: Tier): Promise<string> {
  const key = newApiKey();
  await new DynamoAccountStore().createAccount({ account_id: `acct_old_${tier}_${key.slice(4, 12)}`, name: 'Older account', tier, created_at: '2025-06-01T00:00:00Z' }, hashApiKey(key));
  return key;
}

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.stop();
});

describe('API key authorizer against the local table', () => {
  test('a demo key is allowed on the whole stage, with the account in the context', async () => {
    const expected = await new DynamoAccountStore().findByKeyHash(hashApiKey(app.keys.pro));
    const result = await handler(authorizerEvent({ 'X-API-Key': app.keys.pro }));
    expect(result.principalId).toBe(expected!.accountId);
    expect(result.policyDocument.Statement).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: STAGE_WILDCARD }]);
    expect(result.context).toEqual({ accountId: expected!.accountId, tier: 'pro', keyHash: hashApiKey(app.keys.pro) });
    // The account's own usage key, never in the context.
    const { usage_key: usageKey } = (await new DynamoAccountStore().getAccount(expected!.accountId))!;
    expect(usageKey).toMatch(/^vacu_/);
    expect(result.usageIdentifierKey).toBe(usageKey);
  });

  test('without tier key IDs in the environment (local mode), an account without its own usage key names no plan', async () => {
    const result = await handler(authorizerEvent({ 'X-API-Key': await keyOfAccountWithoutUsageKey('pro') }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(result.usageIdentifierKey).toBeUndefined();
  });

  test('the header name is matched in any case', async () => {
    const result = await handler(authorizerEvent({ 'x-api-key': app.keys.free }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(result.context).toMatchObject({ tier: 'free' });
  });

  test.each([
    ['an unknown key of the right shape', `vac_${'A'.repeat(32)}`],
    ['a malformed key', 'not-a-key'],
  ])('%s is denied', async (_label, key) => {
    const result = await handler(authorizerEvent({ 'X-API-Key': key }));
    expect(result.policyDocument.Statement).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: STAGE_WILDCARD }]);
    expect(result.context).toBeUndefined();
  });

  test('a blank key is Unauthorized (401), as API Gateway answers for a missing one', async () => {
    await expect(handler(authorizerEvent({ 'X-API-Key': '   ' }))).rejects.toThrow(/^Unauthorized$/);
    await expect(handler(authorizerEvent({}))).rejects.toThrow(/^Unauthorized$/);
  });

  test('with tier key IDs configured, the tier key value is the usage identifier of an account without its own', async () => {
    const env = {
      [USAGE_KEY_ID_VARIABLES.free]: 'id-free',
      [USAGE_KEY_ID_VARIABLES.pro]: 'id-pro',
      [USAGE_KEY_ID_VARIABLES.enterprise]: 'id-enterprise',
    };
    const requested: string[] = [];
    const fakeClient = {
      send: async (command: GetApiKeyCommand) => {
        expect(command.input.includeValue).toBe(true);
        requested.push(command.input.apiKey!);
        return { value: `value-of-${command.input.apiKey}` };
      },
    } as unknown as APIGatewayClient;
    const authorize = createAuthorizer({ accounts: () => new DynamoAccountStore(), usageKeys: usageKeyLookup(env, () => fakeClient) });

    const enterprise = await authorize(authorizerEvent({ 'X-API-Key': await keyOfAccountWithoutUsageKey('enterprise') }));
    const free = await authorize(authorizerEvent({ 'X-API-Key': await keyOfAccountWithoutUsageKey('free') }));
    const own = await authorize(authorizerEvent({ 'X-API-Key': app.keys.free }));
    expect(enterprise.usageIdentifierKey).toBe('value-of-id-enterprise');
    expect(free.usageIdentifierKey).toBe('value-of-id-free');
    expect(own.usageIdentifierKey).toMatch(/^vacu_/);
    // Read once per cold start, not per request.
    expect(requested.sort()).toEqual(['id-enterprise', 'id-free', 'id-pro']);
  });

  test('a failed key lookup fails the request and is retried on the next one', async () => {
    let calls = 0;
    const flakyClient = {
      send: async (command: GetApiKeyCommand) => {
        calls += 1;
        if (calls === 1) throw new Error('throttled');
        return { value: `value-of-${command.input.apiKey}` };
      },
    } as unknown as APIGatewayClient;
    const authorize = createAuthorizer({
      accounts: () => new DynamoAccountStore(),
      usageKeys: usageKeyLookup({ [USAGE_KEY_ID_VARIABLES.pro]: 'id-pro' }, () => flakyClient),
    });
    const key = await keyOfAccountWithoutUsageKey('pro');
    await expect(authorize(authorizerEvent({ 'X-API-Key': key }))).rejects.toThrow('throttled');
    const result = await authorize(authorizerEvent({ 'X-API-Key': key }));
    expect(result.usageIdentifierKey).toBe('value-of-id-pro');
  });
});

test('the policy resource covers every method of the stage', () => {
  expect(wholeStage('arn:aws:execute-api:eu-west-1:1:api9/api/POST/assets/import')).toBe('arn:aws:execute-api:eu-west-1:1:api9/api/*');
});
