import type { RouteImplementation } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import type { createKeyRoute, listKeysRoute, revokeKeyRoute } from '../../shared/routes/v1-identity';
import { issueAccountKey, revokeAccountKey as revoke } from '../../shared/domain/identity/use-cases';
import { newKeyId } from '../../shared/adapters/account-store';
import { perUserIdempotency } from '../../shared/http/bearer';
import { withIdempotency } from '../../shared/http/idempotency';
import { flushAuthorizerCache, idempotencyStore, identityDeps } from './deps';
import { answering, clientOf } from './request';

export const listAccountKeys: RouteImplementation<typeof listKeysRoute> = async (request) => answering(async () => {
  const keys = await identityDeps().accounts.listKeys(request.user!.account_id);
  return { status: 200, body: { data: keys, next_cursor: null } };
});

/**
 * Idempotent: what is stored for a replay is the answer without the key's value (it is shown once
 * and kept only as a hash); the first caller gets the value added back.
 */
export const createAccountKey: RouteImplementation<typeof createKeyRoute> = async (request) => answering(async () => {
  const user = request.user!;
  let shownOnce: string | undefined;
  const result = await withIdempotency(perUserIdempotency(request), idempotencyStore(), async () => {
    const { key, ...issued } = await issueAccountKey(identityDeps(), user.user_id, user.account_id, request.body.name, newKeyId(request.now), clientOf(request));
    shownOnce = key;
    return { status: 201, body: { ...issued, key: null }, headers: { 'Cache-Control': 'no-store' } };
  });
  return shownOnce === undefined ? result : { ...result, body: { ...(result.body as object), key: shownOnce } };
});

export const revokeAccountKey: RouteImplementation<typeof revokeKeyRoute> = async (request) => answering(async () => {
  const user = request.user!;
  if (!(await revoke(identityDeps(), user.user_id, user.account_id, request.params.key_id, clientOf(request)))) {
    throw new HttpError('not_found', 'The account has no active key with this id.');
  }
  await flushAuthorizerCache();
  return { status: 204 };
});
