import type { RouteImplementation } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import type { createKeyRoute, listKeysRoute, revokeKeyRoute } from '../../shared/routes/v1-identity';
import { issueAccountKey, revokeAccountKey as revoke } from '../../shared/domain/identity/use-cases';
import { newKeyId } from '../../shared/adapters/account-store';
import { flushAuthorizerCache, identityDeps } from './deps';
import { answering, clientOf } from './request';

export const listAccountKeys: RouteImplementation<typeof listKeysRoute> = async (request) => answering(async () => {
  const keys = await identityDeps().accounts.listKeys(request.user!.account_id);
  return { status: 200, body: { data: keys, next_cursor: null } };
});

export const createAccountKey: RouteImplementation<typeof createKeyRoute> = async (request) => answering(async () => {
  const user = request.user!;
  const issued = await issueAccountKey(identityDeps(), user.user_id, user.account_id, request.body.name, newKeyId(request.now), clientOf(request));
  return { status: 201, body: issued, headers: { 'Cache-Control': 'no-store' } };
});

export const revokeAccountKey: RouteImplementation<typeof revokeKeyRoute> = async (request) => answering(async () => {
  const user = request.user!;
  if (!(await revoke(identityDeps(), user.user_id, user.account_id, request.params.key_id, clientOf(request)))) {
    throw new HttpError('not_found', 'The account has no active key with this id.');
  }
  await flushAuthorizerCache();
  return { status: 204 };
});
