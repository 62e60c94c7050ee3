import type { RouteImplementation } from '../../shared/http/types';
import type {
  confirmUserRoute, getProfileRoute, listActivityRoute, loginRoute, logoutRoute, registerUserRoute, requestPasswordResetRoute, resendConfirmationCodeRoute,
  resetPasswordRoute, updateProfileRoute,
} from '../../shared/routes/v1-identity';
import {
  confirmRegistration, profileOf, registerUser as register, requestPasswordReset as forgot, resendConfirmationCode as resend, resetPassword as reset, signIn,
  signOut, updateProfile as update,
} from '../../shared/domain/identity/use-cases';
import { withIdempotency } from '../../shared/http/idempotency';
import { sha256Hex } from '../../shared/domain/content-hash';
import { idempotencyStore, identityDeps } from './deps';
import { answering, clientOf } from './request';

/**
 * Idempotent per email: a caller has no account yet, so its `Idempotency-Key`s are kept under the
 * email it registers. The password is left out of the request the key is checked against: no hash
 * of it may be stored (it never reaches DynamoDB), and the email alone decides who the user is.
 */
export const registerUser: RouteImplementation<typeof registerUserRoute> = async (request) => answering(async () => {
  const { password: _password, ...withoutPassword } = request.body;
  const keyedByEmail = {
    ...request,
    body: withoutPassword as typeof request.body,
    account: { accountId: `registration/${sha256Hex(request.body.email.trim().toLowerCase())}`, tier: 'free' as const, keyHash: '' },
  };
  return withIdempotency(keyedByEmail, idempotencyStore(), async () => {
    const user = await register(identityDeps(), request.body, clientOf(request));
    return {
      status: 201,
      body: { user_id: user.user_id, email: user.email, name: user.name, role: user.role, status: user.status, created_at: user.created_at },
    };
  });
});

export const confirmUser: RouteImplementation<typeof confirmUserRoute> = async (request) => answering(async () => {
  await confirmRegistration(identityDeps(), request.body.email, request.body.code);
  return { status: 204 };
});

export const resendConfirmationCode: RouteImplementation<typeof resendConfirmationCodeRoute> = async (request) => answering(async () => {
  await resend(identityDeps(), request.body.email, clientOf(request));
  return { status: 204 };
});

export const requestPasswordReset: RouteImplementation<typeof requestPasswordResetRoute> = async (request) => answering(async () => {
  await forgot(identityDeps(), request.body.email, clientOf(request));
  return { status: 204 };
});

export const resetPassword: RouteImplementation<typeof resetPasswordRoute> = async (request) => answering(async () => {
  await reset(identityDeps(), request.body, clientOf(request));
  return { status: 204 };
});

export const login: RouteImplementation<typeof loginRoute> = async (request) => answering(async () => {
  const body = request.body;
  const tokens = 'password' in body
    ? await signIn(identityDeps(), body.email, body.password, clientOf(request))
    : await identityDeps().provider.refresh(body.refresh_token);
  return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
});

export const logout: RouteImplementation<typeof logoutRoute> = async (request) => answering(async () => {
  await signOut(identityDeps(), request.user!.user_id, request.user!.session, request.body.refresh_token, clientOf(request));
  return { status: 204 };
});

export const getProfile: RouteImplementation<typeof getProfileRoute> = async (request) => answering(async () => {
  const { profile, etag } = await profileOf(identityDeps(), request.user!.user_id);
  return { status: 200, body: profile, headers: { ETag: etag } };
});

export const updateProfile: RouteImplementation<typeof updateProfileRoute> = async (request) => answering(async () => {
  const { profile, etag } = await update(identityDeps(), request.user!.user_id, request.ifMatch, request.body, clientOf(request));
  return { status: 200, body: profile, headers: { ETag: etag } };
});

export const listActivity: RouteImplementation<typeof listActivityRoute> = async (request) => answering(async () => {
  const page = await identityDeps().events.list(request.user!.user_id, request.query.limit, request.query.cursor);
  return { status: 200, body: { data: page.data.map(({ user_id: _user, ...event }) => event), next_cursor: page.next_cursor } };
});
