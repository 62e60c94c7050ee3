import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { authenticateApiKey, authorizerContext } from '../../shared/http/auth';
import { logger } from '../../shared/observability/logger';
import type { AccountStore } from '../../shared/ports';
import { usageKeyLookup, type UsageKeyLookup } from '../../shared/adapters/usage-keys';

export interface AuthorizerDeps {
  accounts: () => AccountStore;
  usageKeys: UsageKeyLookup;
}

/**
 * The API Gateway REQUEST authorizer for every keyed route. It runs the same authentication step
 * as the local gateway; API Gateway turns its answers into the gateway responses the stack
 * reshapes to problem+json: a thrown `Unauthorized` → 401 `missing_api_key`, a Deny policy →
 * 403 `invalid_api_key`. Storage errors propagate, so API Gateway answers 500 rather than letting
 * an unchecked caller through.
 */
export function createAuthorizer(deps: AuthorizerDeps) {
  return async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const outcome = await authenticateApiKey(deps.accounts(), headerValue(event, 'x-api-key'));
    const resource = wholeStage(event.methodArn);
    if (!outcome.ok) {
      // Reached only for blank values: API Gateway rejects a missing identity source itself.
      if (outcome.code === 'missing_api_key') throw new Error('Unauthorized');
      logger.info('API key rejected', { code: outcome.code });
      return policy('anonymous', 'Deny', resource);
    }
    // The account's own key; the tier's shared key only for keys issued before accounts had one.
    const usageKey = outcome.account.usageKey ?? (await deps.usageKeys())[outcome.account.tier];
    return {
      ...policy(outcome.account.accountId, 'Allow', resource),
      context: authorizerContext(outcome.account),
      ...(usageKey ? { usageIdentifierKey: usageKey } : {}),
    };
  };
}

/** Header names keep the client's case in REST API authorizer events. */
function headerValue(event: APIGatewayRequestAuthorizerEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value != null) return value;
  }
  return undefined;
}

/**
 * `arn:…:execute-api:region:account:apiId/stage/*`: results are cached per key, so the policy must
 * cover every route of the stage, not only the method that happened to be called first.
 */
export function wholeStage(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*`;
}

function policy(principalId: string, effect: 'Allow' | 'Deny', resource: string): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }],
    },
  };
}

let accounts: AccountStore | undefined;

export const handler = createAuthorizer({
  accounts: () => (accounts ??= new DynamoAccountStore()),
  usageKeys: usageKeyLookup(),
});
