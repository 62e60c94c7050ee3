import { randomUUID } from 'node:crypto';
import { CognitoIdentityProvider } from '../../shared/adapters/cognito-identity-provider';
import { DynamoAccountStore } from '../../shared/adapters/account-store';
import { DynamoAttemptStore } from '../../shared/adapters/login-attempt-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { DynamoSecurityEventStore } from '../../shared/adapters/security-event-store';
import { DynamoSessionRevocationStore, DynamoUserStore } from '../../shared/adapters/user-store';
import { authorizerCacheFlusher } from '../../shared/adapters/authorizer-cache';
import { accountUsageKeys } from '../../shared/adapters/usage-keys';
import type { IdentityDeps } from '../../shared/domain/identity/use-cases';

let deps: IdentityDeps | undefined;

/** Adapters created on first use and kept for the life of the instance. */
export function identityDeps(): IdentityDeps {
  deps ??= {
    provider: new CognitoIdentityProvider(),
    users: new DynamoUserStore(),
    accounts: new DynamoAccountStore(),
    usageKeys: accountUsageKeys(),
    attempts: new DynamoAttemptStore(),
    sessions: new DynamoSessionRevocationStore(),
    events: new DynamoSecurityEventStore(),
    clock: () => new Date(),
    newId: () => randomUUID(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return deps;
}

let idempotency: DynamoIdempotencyStore | undefined;

export function idempotencyStore(): DynamoIdempotencyStore {
  idempotency ??= new DynamoIdempotencyStore();
  return idempotency;
}

let flush: (() => Promise<void>) | undefined;

/** Revoked keys must be refused from the next request: drop the gateway's cached authorizer answers. */
export function flushAuthorizerCache(): Promise<void> {
  flush ??= authorizerCacheFlusher();
  return flush();
}
