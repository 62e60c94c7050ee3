import { IdempotencyHeaders, IfMatchHeaders } from '../schemas/common';
import {
  ActivityListSchema, ActivityQuery, CodeRequestSchema, ConfirmRequestSchema, CreateKeyRequestSchema, CreatedKeySchema, KeyListSchema, KeyParams,
  LoginRequestSchema, LogoutRequestSchema, ProfileSchema, RegisterRequestSchema, RegisteredUserSchema, ResetPasswordRequestSchema, TokenResponseSchema,
  UpdateProfileRequestSchema,
} from '../schemas/v1-identity';
import {
  BEARER_ERRORS, CONFLICT, IDEMPOTENCY_REUSED, NOT_FOUND, PRECONDITION_REQUIRED, PUBLIC_V1_ERRORS, RETRY_AFTER, STALE_VERSION_CONFLICT, ok, problem,
} from './responses';
import { defineRoute, type ResponseDef } from './types';

const ETAG = { ETag: { description: 'Version of the profile (`"<version>"`); send it as `If-Match` to update.', schema: { type: 'string' as const } } };
const NO_STORE = { 'Cache-Control': { description: '`no-store`: tokens must not be cached.', schema: { type: 'string' as const } } };

export const registerUserRoute = defineRoute({
  id: 'registerUser', method: 'POST', path: '/v1/users/register', group: 'v1-identity', auth: 'none', minTier: 'free',
  tags: ['Users'], summary: 'Register a user',
  description: 'Creates the user in the Cognito user pool (email is the user name) in the group of their role, and a Free account of their own for API keys. In AWS Cognito emails a code to confirm with `POST /v1/users/confirm`; in local mode the user is confirmed at once. At most 20 registrations per client address per hour (429 `too_many_attempts`). Send `Idempotency-Key` to retry safely: the same key and body (the password aside, which is never kept in any form) answer the first response again (`Idempotent-Replayed: true`) instead of 409 `email_taken`; another body with the same key and email is 422 `idempotency_key_reused`.',
  request: { body: RegisterRequestSchema, headers: IdempotencyHeaders, maxBodyBytes: 8 * 1024 },
  responses: {
    201: ok('Registered.', RegisteredUserSchema),
    ...PUBLIC_V1_ERRORS,
    400: problem('Invalid request (`invalid_request`), or the password does not meet the policy (`weak_password`).'),
    409: problem('A user with this email exists (`email_taken`).'),
    422: problem('`Idempotency-Key` reused with another body (`idempotency_key_reused`); or, AWS only, Cognito could not email the confirmation code to the address (`email_undeliverable`): nothing stays registered, so the address can be corrected and registered again.'),
    429: { ...problem('Too many registrations from this address, or the identity provider is throttling or refusing more for now, as when the user pool\'s daily emails are spent (`too_many_attempts`).'), headers: RETRY_AFTER },
  },
});

export const confirmUserRoute = defineRoute({
  id: 'confirmUser', method: 'POST', path: '/v1/users/confirm', group: 'v1-identity', auth: 'none', minTier: 'free',
  tags: ['Users'], summary: 'Confirm a registration with the emailed code',
  description: 'AWS only in practice: local registrations are already confirmed. A wrong, expired or unknown code is 400 `invalid_request` (the same answer for an unknown email). After repeated wrong codes Cognito refuses further attempts for a while without saying how long: 429 `too_many_attempts` with `Retry-After: 60`.',
  request: { body: ConfirmRequestSchema, maxBodyBytes: 4 * 1024 },
  responses: {
    204: { description: 'Confirmed; the user can log in.' },
    ...PUBLIC_V1_ERRORS,
    429: { ...problem('Too many wrong codes for this user, or the identity provider is throttling or refusing more for now (`too_many_attempts`).'), headers: RETRY_AFTER },
  },
});

/** Errors of the routes that have Cognito email a code. */
const EMAILED_CODE_ERRORS: Record<number, ResponseDef> = {
  422: problem('AWS only: Cognito could not email the code to the address (`email_undeliverable`).'),
  429: { ...problem('Too many codes asked for this email or from this address, or the identity provider is throttling or refusing more for now (`too_many_attempts`).'), headers: RETRY_AFTER },
};

/** A route that has Cognito email a code: keyless, `{email}` in, the same 204 for any email. */
const emailedCodeRoute = <const Id extends string, const Path extends string>(id: Id, path: Path, summary: string, description: string, accepted: string) => defineRoute({
  id, method: 'POST', path, group: 'v1-identity', auth: 'none', minTier: 'free',
  tags: ['Users'], summary, description,
  request: { body: CodeRequestSchema, maxBodyBytes: 4 * 1024 },
  responses: {
    204: { description: accepted },
    ...PUBLIC_V1_ERRORS,
    ...EMAILED_CODE_ERRORS,
  },
});

export const resendConfirmationCodeRoute = emailedCodeRoute('resendConfirmationCode', '/v1/users/confirm/resend', 'Email a new confirmation code',
  'For a registration whose code was lost or has expired (Cognito\'s codes expire after 24 hours): Cognito emails a new one, and earlier codes stop working. The answer is the same 204 for an unknown or already confirmed email, so it does not tell who is registered; in local mode users are confirmed at registration and nothing is sent. At most 5 emailed codes per email and 20 per client address per hour, confirmation and password reset codes together (429 `too_many_attempts`).',
  'Accepted: a user of this email awaiting confirmation is sent a new code.');

export const requestPasswordResetRoute = emailedCodeRoute('requestPasswordReset', '/v1/users/password/forgot', 'Email a password reset code',
  'Cognito emails a code for `POST /v1/users/password/reset` to a registered user with a confirmed email. The answer is the same 204 for an unknown email, so it does not tell who is registered. In local mode no mail is sent: the code is appended to `$DATA_DIR/cognito/mailbox.jsonl`. At most 5 emailed codes per email and 20 per client address per hour, confirmation and password reset codes together (429 `too_many_attempts`).',
  'Accepted: a registered user of this email is sent a code.');

export const resetPasswordRoute = defineRoute({
  id: 'resetPassword', method: 'POST', path: '/v1/users/password/reset', group: 'v1-identity', auth: 'none', minTier: 'free',
  tags: ['Users'], summary: 'Set a new password with the emailed code',
  description: 'The new password must meet the policy (400 `weak_password`, checked before the code). A wrong, expired or unknown code is 400 `invalid_request` naming `code`, the same answer for an unknown email, and counts as a failed sign-in of the email and the client address: each attempt takes a sign-in slot (10 per email, 50 per address within 15 minutes) before the code is checked, so a burst checks no more than that, and further attempts are refused with 429 `too_many_attempts`. A success frees the email\'s slots. On success every session of the user ends at Cognito (refresh tokens stop working; access tokens already issued expire within the hour; the local emulator has no global sign-out) and the reset is recorded in the user\'s activity.',
  request: { body: ResetPasswordRequestSchema, maxBodyBytes: 4 * 1024 },
  responses: {
    204: { description: 'The password is changed; sign in with it.' },
    ...PUBLIC_V1_ERRORS,
    400: problem('Invalid request or a wrong, expired or unknown code (`invalid_request`), or the password does not meet the policy (`weak_password`).'),
    429: { ...problem('Too many attempts for this email or from this address, or the identity provider is throttling or refusing more for now (`too_many_attempts`).'), headers: RETRY_AFTER },
  },
});

export const loginRoute = defineRoute({
  id: 'login', method: 'POST', path: '/v1/users/login', group: 'v1-identity', auth: 'none', minTier: 'free',
  tags: ['Users'], summary: 'Sign in, or refresh the tokens',
  description: 'First-party sign-in of this API (Cognito USER_PASSWORD_AUTH); third-party applications use the authorization-code flow with PKCE against the Cognito hosted UI. An unknown email and a wrong password get the same 401 `invalid_credentials`, after the same pause. Repeated failures are slowed first: from the 4th attempt for one email (or the 21st from one client address) within 15 minutes, every attempt, right password or not, waits 1 s before it is tried, doubling with each further failure up to 4 s. Each attempt takes one of the email\'s 10 slots and one of the client address\'s 50 before the password is checked, atomically, so however many arrive at once no more than 10 per email (50 per address) are checked within 15 minutes; a wrong password keeps its slots for 15 minutes, a successful sign-in gives its own back. With every slot held, sign-in is refused with 429 `too_many_attempts` and `Retry-After` until the oldest is 15 minutes old, the right password included. `{grant_type: "refresh_token", refresh_token}` returns new access and ID tokens.',
  request: { body: LoginRequestSchema, maxBodyBytes: 16 * 1024 },
  responses: {
    200: { ...ok('Tokens (access and ID tokens valid 1 hour, refresh token 30 days).', TokenResponseSchema), headers: NO_STORE },
    ...PUBLIC_V1_ERRORS,
    401: problem('Wrong email or password, or an invalid, expired or revoked refresh token (`invalid_credentials`).'),
    429: { ...problem('Too many sign-in attempts for this email or from this address, or the identity provider is throttling (`too_many_attempts`).'), headers: RETRY_AFTER },
  },
});

export const logoutRoute = defineRoute({
  id: 'logout', method: 'POST', path: '/v1/users/logout', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  tags: ['Users'], summary: 'Sign out: end the session',
  description: 'The refresh token stops working, and the access token the request came with is refused (401 `invalid_token`) within 5 seconds at most (the authorizer reuses a session\'s revocation check that long; locally, from the next request), with every access token of its session: in AWS the session is the token\'s `origin_jti`, shared by the access tokens refreshed from one sign-in; the local emulator issues no `origin_jti`, so there only the presented access token is refused (one refreshed before the logout stays valid until it expires, at most 1 hour). Other sign-ins of the user are not affected.',
  request: { body: LogoutRequestSchema, maxBodyBytes: 16 * 1024 },
  responses: {
    204: { description: 'Signed out.' },
    ...BEARER_ERRORS,
    429: { ...problem('The account\'s hourly request limit is reached (`rate_limit_exceeded`), or the identity provider is throttling (`too_many_attempts`); see `Retry-After`.'), headers: RETRY_AFTER },
  },
});

export const getProfileRoute = defineRoute({
  id: 'getProfile', method: 'GET', path: '/v1/users/profile', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  tags: ['Users'], summary: 'The signed-in user\'s profile',
  description: 'With the user\'s account and its tier (the tier of the keys issued by `POST /v1/keys`). The `ETag` is the profile\'s version, for `If-Match` on `PUT /v1/users/update`.',
  responses: { 200: { ...ok('The profile.', ProfileSchema), headers: ETAG }, ...BEARER_ERRORS },
});

export const updateProfileRoute = defineRoute({
  id: 'updateProfile', method: 'PUT', path: '/v1/users/update', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  requiresIfMatch: true,
  tags: ['Users'], summary: 'Update the signed-in user\'s profile',
  description: 'Send `If-Match` with the ETag of your last read (required: 428 `precondition_required` without it): if the profile changed since, the answer is 409 `conflict` and nothing is written. Email, role and password are not changed here.',
  request: { headers: IfMatchHeaders, body: UpdateProfileRequestSchema, maxBodyBytes: 16 * 1024 },
  responses: { 200: { ...ok('The updated profile.', ProfileSchema), headers: ETAG }, ...STALE_VERSION_CONFLICT, ...PRECONDITION_REQUIRED, ...BEARER_ERRORS },
});

export const listActivityRoute = defineRoute({
  id: 'listActivity', method: 'GET', path: '/v1/users/activity', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  tags: ['Users'], summary: 'Security events of the signed-in user',
  description: 'Sign-ins and failed sign-ins, sign-outs, API keys created and revoked, profile changes, password resets: newest first, with time, client address and user agent; kept one year.',
  request: { query: ActivityQuery },
  responses: { 200: ok('One page of events.', ActivityListSchema), ...BEARER_ERRORS },
});

export const listKeysRoute = defineRoute({
  id: 'listAccountKeys', method: 'GET', path: '/v1/keys', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  tags: ['API keys'], summary: 'API keys of the user\'s account',
  description: 'Active keys of the account for the current API (`X-API-Key`), oldest first; the key values themselves are never shown again.',
  responses: { 200: ok('The keys.', KeyListSchema), ...BEARER_ERRORS },
});

export const createKeyRoute = defineRoute({
  id: 'createAccountKey', method: 'POST', path: '/v1/keys', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  tags: ['API keys'], summary: 'Issue an API key for the current API',
  description: 'The key works at the account\'s tier (Free until an operator moves the account). Its value is in this response only and is stored as a hash. Send `Idempotency-Key` to retry safely: the same key and body create no second key and answer the first response again (`Idempotent-Replayed: true`) with the same `key_id` and `prefix` but `key: null`, since the value is never shown twice — if the first answer was lost, revoke that `key_id` and create another. Another body with the same key is 422 `idempotency_key_reused`. Keys are the user\'s own. At most 20 active keys per account (409 `conflict`).',
  request: { body: CreateKeyRequestSchema, headers: IdempotencyHeaders, maxBodyBytes: 4 * 1024 },
  responses: { 201: ok('The key, shown once (`null` on a replay).', CreatedKeySchema), ...CONFLICT, ...IDEMPOTENCY_REUSED, ...BEARER_ERRORS },
});

export const revokeKeyRoute = defineRoute({
  id: 'revokeAccountKey', method: 'DELETE', path: '/v1/keys/{key_id}', group: 'v1-identity', auth: 'bearer', minTier: 'free',
  tags: ['API keys'], summary: 'Revoke an API key',
  description: 'The key is refused (403 `invalid_api_key`) from the next request on.',
  request: { params: KeyParams },
  responses: { 204: { description: 'Revoked.' }, ...NOT_FOUND, ...BEARER_ERRORS },
});

export const v1IdentityRoutes = [
  registerUserRoute,
  confirmUserRoute,
  resendConfirmationCodeRoute,
  requestPasswordResetRoute,
  resetPasswordRoute,
  loginRoute,
  logoutRoute,
  getProfileRoute,
  updateProfileRoute,
  listActivityRoute,
  listKeysRoute,
  createKeyRoute,
  revokeKeyRoute,
];
