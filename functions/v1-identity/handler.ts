import { createGroupHandler } from '../../shared/http/pipeline';
import { v1IdentityRoutes } from '../../shared/routes/v1-identity';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { HttpError } from '../../shared/http/problem';
import { currentETag } from '../../shared/http/domain-problems';
import { perUserIdempotency } from '../../shared/http/bearer';
import { withIdempotency } from '../../shared/http/idempotency';
import type { RouteImplementation, RouteRequest } from '../../shared/http/types';
import type { registerUserRoute } from '../../shared/routes/v1-identity';
import {
  confirmRegistration, issueAccountKey, KeyLimitReachedError, profileOf, ProfileNotFoundError, registerUser, requestPasswordReset, resendConfirmationCode,
  resetPassword, revokeAccountKey, signIn, signOut, StaleVersionError, updateProfile, type ClientInfo,
} from '../../shared/application/identity/use-cases';
import {
  AttemptCounterBusyError, EmailTakenError, EmailUndeliverableError, InvalidConfirmationCodeError, InvalidCredentialsError, TooManyAttemptsError,
  WeakPasswordError,
} from '../../shared/domain/identity/ports';
import { sha256Hex } from '../../shared/domain/content-hash';
import { identityRouteDeps, type IdentityRouteDeps } from './deps';

export function clientOf(request: RouteRequest): ClientInfo {
  return { ip: request.clientIp, userAgent: request.headers['user-agent']?.slice(0, 512) ?? null };
}

/** Domain outcomes → the problem codes of the contract. Messages never carry a password or token. */
export async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyAttemptsError) {
      throw new HttpError('too_many_attempts', `${error.message} Try again in ${error.retryAfterSeconds} seconds.`, { headers: { 'Retry-After': String(error.retryAfterSeconds) } });
    }
    if (error instanceof AttemptCounterBusyError) {
      throw new HttpError('too_many_attempts', 'Too many attempts at once from this client. Try again in 1 second.', { headers: { 'Retry-After': '1' } });
    }
    if (error instanceof InvalidCredentialsError) throw new HttpError('invalid_credentials', 'The email or password is not correct, or the refresh token is no longer valid.');
    if (error instanceof WeakPasswordError) throw new HttpError('weak_password', error.message || 'The password does not meet the policy.');
    if (error instanceof EmailTakenError) throw new HttpError('email_taken', 'A user with this email is already registered; log in instead.');
    if (error instanceof EmailUndeliverableError) {
      throw new HttpError('email_undeliverable', error.message, { errors: [{ field: 'email', in: 'body', message: 'The confirmation code could not be delivered' }] });
    }
    if (error instanceof InvalidConfirmationCodeError) {
      throw new HttpError('invalid_request', 'The code is wrong or expired.', { errors: [{ field: 'code', in: 'body', message: 'Wrong or expired code' }] });
    }
    if (error instanceof StaleVersionError) {
      // With the current ETag: docs/decisions/0005-stale-if-match-409.md.
      throw new HttpError('conflict', 'The profile changed since you read it: read it again and re-apply your change with the new ETag.', { headers: { ETag: currentETag(error.currentVersion) } });
    }
    if (error instanceof KeyLimitReachedError) throw new HttpError('conflict', 'The account has the maximum number of active keys; revoke one first.');
    if (error instanceof ProfileNotFoundError) throw new HttpError('not_found', 'No profile for this user.');
    throw error;
  }
}

/** The `/v1` users and keys API over the identity use cases; tests pass their own deps. */
export function createIdentityHandler(deps: () => IdentityRouteDeps) {
  const identity = () => deps().identity;

  /**
   * Idempotent per email: a caller has no account yet, so its `Idempotency-Key`s are kept under the
   * email it registers. The password is left out of the request the key is checked against: no hash
   * of it may be stored (it never reaches DynamoDB), and the email alone decides who the user is.
   */
  const register: RouteImplementation<typeof registerUserRoute> = async (request) => answering(async () => {
    const { password: _password, ...withoutPassword } = request.body;
    const keyedByEmail = {
      ...request,
      body: withoutPassword as typeof request.body,
      account: { accountId: `registration/${sha256Hex(request.body.email.trim().toLowerCase())}`, tier: 'free' as const, keyHash: '' },
    };
    return withIdempotency(keyedByEmail, deps().idempotency, async () => {
      const user = await registerUser(identity(), request.body, clientOf(request));
      return {
        status: 201,
        body: { user_id: user.user_id, email: user.email, name: user.name, role: user.role, status: user.status, created_at: user.created_at },
      };
    });
  });

  return createGroupHandler(v1IdentityRoutes, {
    registerUser: register,

    confirmUser: async (request) => answering(async () => {
      await confirmRegistration(identity(), request.body.email, request.body.code);
      return { status: 204 };
    }),

    resendConfirmationCode: async (request) => answering(async () => {
      await resendConfirmationCode(identity(), request.body.email, clientOf(request));
      return { status: 204 };
    }),

    requestPasswordReset: async (request) => answering(async () => {
      await requestPasswordReset(identity(), request.body.email, clientOf(request));
      return { status: 204 };
    }),

    resetPassword: async (request) => answering(async () => {
      await resetPassword(identity(), request.body, clientOf(request));
      return { status: 204 };
    }),

    login: async (request) => answering(async () => {
      const body = request.body;
      const tokens = 'password' in body
        ? await signIn(identity(), body.email, body.password, clientOf(request))
        : await identity().provider.refresh(body.refresh_token);
      return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
    }),

    logout: async (request) => answering(async () => {
      await signOut(identity(), request.user!.user_id, request.user!.session, request.body.refresh_token, clientOf(request));
      return { status: 204 };
    }),

    getProfile: async (request) => answering(async () => {
      const { profile, etag } = await profileOf(identity(), request.user!.user_id);
      return { status: 200, body: profile, headers: { ETag: etag } };
    }),

    updateProfile: async (request) => answering(async () => {
      const { profile, etag } = await updateProfile(identity(), request.user!.user_id, request.ifMatch, request.body, clientOf(request));
      return { status: 200, body: profile, headers: { ETag: etag } };
    }),

    listActivity: async (request) => answering(async () => {
      const page = await identity().events.list(request.user!.user_id, request.query.limit, request.query.cursor);
      return { status: 200, body: { data: page.data.map(({ user_id: _user, ...event }) => event), next_cursor: page.next_cursor } };
    }),

    listAccountKeys: async (request) => answering(async () => {
      const keys = await identity().accounts.listKeys(request.user!.account_id);
      return { status: 200, body: { data: keys, next_cursor: null } };
    }),

    /**
     * Idempotent: what is stored for a replay is the answer without the key's value (it is shown once
     * and kept only as a hash); the first caller gets the value added back.
     */
    createAccountKey: async (request) => answering(async () => {
      const user = request.user!;
      let shownOnce: string | undefined;
      const result = await withIdempotency(perUserIdempotency(request), deps().idempotency, async () => {
        const { key, ...issued } = await issueAccountKey(identity(), user.user_id, user.account_id, request.body.name, deps().newKeyId(request.now), clientOf(request));
        shownOnce = key;
        return { status: 201, body: { ...issued, key: null }, headers: { 'Cache-Control': 'no-store' } };
      });
      return shownOnce === undefined ? result : { ...result, body: { ...(result.body as object), key: shownOnce } };
    }),

    revokeAccountKey: async (request) => answering(async () => {
      const user = request.user!;
      if (!(await revokeAccountKey(identity(), user.user_id, user.account_id, request.params.key_id, clientOf(request)))) {
        throw new HttpError('not_found', 'The account has no active key with this id.');
      }
      await deps().flushAuthorizerCache();
      return { status: 204 };
    }),
  }, defaultPipelineDeps);
}

export const handler = createIdentityHandler(identityRouteDeps);
