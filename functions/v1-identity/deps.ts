import { randomUUID } from 'node:crypto';
import { CognitoIdentityProvider } from '../../shared/adapters/cognito-identity-provider';
import { DynamoAccountStore, newKeyId } from '../../shared/adapters/account-store';
import { DynamoAttemptStore } from '../../shared/adapters/login-attempt-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { DynamoSecurityEventStore } from '../../shared/adapters/security-event-store';
import { DynamoSessionRevocationStore, DynamoUserStore } from '../../shared/adapters/user-store';
import { authorizerCacheFlusher } from '../../shared/adapters/authorizer-cache';
import { accountUsageKeys } from '../../shared/adapters/usage-keys';
import type { IdentityDeps } from '../../shared/application/identity/use-cases';
import { wiring } from '../../shared/config';
import type { IdempotencyStore } from '../../shared/http/idempotency';

/** The identity use cases' adapters. */
export const identityDeps = wiring((): IdentityDeps => ({
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
}));

/** Built with the first revocation: in AWS it needs the API's id and stage, which no other route does. */
const authorizerCache = wiring(() => authorizerCacheFlusher());

/** What the identity routes run on. */
export interface IdentityRouteDeps {
  identity: IdentityDeps;
  idempotency: IdempotencyStore;
  /** Revoked keys must be refused from the next request: drops the gateway's cached authorizer answers. */
  flushAuthorizerCache: () => Promise<void>;
  /** A new account key's id, ordered by the time it was issued. */
  newKeyId: (now: Date) => string;
}

export const identityRouteDeps = wiring((): IdentityRouteDeps => ({
  identity: identityDeps(),
  idempotency: new DynamoIdempotencyStore(),
  flushAuthorizerCache: () => authorizerCache()(),
  newKeyId,
}));
