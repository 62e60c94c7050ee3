import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, LimitParam } from './common';
import { SELF_SERVICE_ROLES, USER_ROLES, USER_STATUSES } from '../domain/identity/roles';
import { SECURITY_EVENT_TYPES } from '../domain/identity/security-events';
import { PASSWORD_POLICY } from '../domain/identity/pool-settings';
import { TIER_ORDER } from '../domain/tiers';
import { isFloridaCountyFips } from '../domain/identity/profile';

// The email is the Cognito user name, which may be at most 128 characters (longer addresses exist: up to 254).
const Email = onFirstUse(() => z.string().trim().toLowerCase().max(128, 'At most 128 characters: the email is the user name, which the user pool limits to 128')
  .email('Not an email address').describe('The user name: an email address (case-insensitive), at most 128 characters.'));
// Length and character classes are checked by the route (400 `weak_password`), not here, so the
// answer names the policy instead of a schema message; the cap only bounds the request.
const Password = onFirstUse(() => z.string().min(1).max(256).describe(`At least ${PASSWORD_POLICY.minLength} characters with lower- and upper-case letters, a digit and a symbol. Never stored or logged by this API.`));
const CountyFips = onFirstUse(() => z.string().max(5).regex(/^12\d{3}$/, 'A Florida county FIPS code (12001–12133)').refine(isFloridaCountyFips, 'Not a Florida county FIPS code').describe('Florida county FIPS code, e.g. `12103` (Pinellas).'));
const Name = onFirstUse(() => z.string().trim().min(1).max(120));
const Organization = onFirstUse(() => z.string().trim().min(1).max(200));
const Preferences = onFirstUse(() => z.record(z.string().min(1).max(64), z.union([z.string().max(500), z.number(), z.boolean()]))
  .refine((value) => Object.keys(value).length <= 50, 'At most 50 preferences')
  .describe('Free-form settings of the user (at most 50 keys; string, number or boolean values).'));

export const RegisterRequestSchema = onFirstUse(() => z.object({
  email: Email(),
  password: Password(),
  name: Name(),
  role: z.enum(SELF_SERVICE_ROLES).describe('`admin` is granted by an operator, not chosen.'),
  organization: Organization().optional(),
  county_fips: CountyFips().optional(),
}).strict().openapi('RegisterRequest'));

export const RegisteredUserSchema = onFirstUse(() => z.object({
  user_id: z.string().max(64),
  email: z.string().max(254),
  name: z.string().max(120),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES).describe('`active` at once in local mode; in AWS `pending_confirmation` until the emailed code is sent to `POST /v1/users/confirm`.'),
  created_at: z.string().max(40),
}).openapi('RegisteredUser'));

const Code = onFirstUse(() => z.string().trim().max(10).regex(/^\d{4,10}$/, 'The numeric code from the email').describe('The code Cognito emailed.'));

export const ConfirmRequestSchema = onFirstUse(() => z.object({
  email: Email(),
  code: Code(),
}).strict().openapi('ConfirmRequest'));

export const CodeRequestSchema = onFirstUse(() => z.object({
  email: Email(),
}).strict().openapi('CodeRequest', { description: 'The email a code is to be sent to.' }));

export const ResetPasswordRequestSchema = onFirstUse(() => z.object({
  email: Email(),
  code: Code(),
  password: Password(),
}).strict().openapi('ResetPasswordRequest'));

export const LoginRequestSchema = onFirstUse(() => z.union([
  z.object({ email: Email(), password: Password() }).strict(),
  z.object({ grant_type: z.literal('refresh_token'), refresh_token: z.string().min(20).max(8192) }).strict(),
]).openapi('LoginRequest', { description: 'Password sign-in `{email, password}`, or `{grant_type: "refresh_token", refresh_token}` for new access and ID tokens.' }));

export const TokenResponseSchema = onFirstUse(() => z.object({
  access_token: z.string().max(8192).describe('Send as `Authorization: Bearer <access_token>` to the /v1 routes.'),
  id_token: z.string().max(8192),
  refresh_token: z.string().max(8192).optional().describe('Password sign-in only. Valid 30 days unless revoked by `POST /v1/users/logout`.'),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().min(1).max(86400).describe('Seconds the access token is valid (3600).'),
}).openapi('TokenResponse'));

export const LogoutRequestSchema = onFirstUse(() => z.object({ refresh_token: z.string().min(20).max(8192) }).strict().openapi('LogoutRequest'));

export const ProfileSchema = onFirstUse(() => z.object({
  user_id: z.string().max(64),
  email: z.string().max(254),
  name: z.string().max(120),
  role: z.enum(USER_ROLES),
  organization: z.string().max(200).nullable(),
  county_fips: z.string().max(5).nullable(),
  county_name: z.string().max(60).nullable(),
  account_id: z.string().max(64),
  subscription_tier: z.enum(TIER_ORDER),
  preferences: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean()])),
  created_at: z.string().max(40),
  updated_at: z.string().max(40),
}).openapi('Profile'));

export const UpdateProfileRequestSchema = onFirstUse(() => z.object({
  name: Name().optional(),
  organization: Organization().nullable().optional(),
  county_fips: CountyFips().nullable().optional(),
  preferences: Preferences().optional(),
}).strict().openapi('UpdateProfileRequest', { description: 'Only these fields; email, role and password are not changed here.' }));

export const ActivityQuery = onFirstUse(() => z.object({ limit: LimitParam(), cursor: CursorParam() }));

export const SecurityEventSchema = onFirstUse(() => z.object({
  event_id: z.string().max(64),
  type: z.enum(SECURITY_EVENT_TYPES),
  occurred_at: z.string().max(40),
  client_ip: z.string().max(64),
  user_agent: z.string().max(512).nullable(),
  details: z.record(z.string().max(64), z.union([z.string().max(200), z.array(z.string().max(64)).max(10)])),
}).openapi('SecurityEvent'));

export const ActivityListSchema = onFirstUse(() => z.object({
  data: z.array(SecurityEventSchema()).max(100),
  next_cursor: z.string().max(2000).nullable(),
}).openapi('SecurityEventList'));

export const CreateKeyRequestSchema = onFirstUse(() => z.object({ name: z.string().trim().min(1).max(100).describe('A label to recognise the key by.') }).strict().openapi('CreateKeyRequest'));

export const AccountKeySchema = onFirstUse(() => z.object({
  key_id: z.string().max(64),
  name: z.string().max(100),
  prefix: z.string().max(16).describe('The first characters of the key, to recognise it.'),
  created_at: z.string().max(40),
  last_used_at: z.string().max(40).nullable().describe('Last authorization with the key (to the minute); null if never used.'),
}).openapi('AccountKey'));

export const CreatedKeySchema = onFirstUse(() => z.object({
  key_id: z.string().max(64),
  name: z.string().max(100),
  key: z.string().max(64).nullable().describe('The API key for `X-API-Key`. Shown only in the first response; only its hash is stored, so a replay of the request (same `Idempotency-Key`) answers `null` here.'),
  prefix: z.string().max(16),
  subscription_tier: z.enum(TIER_ORDER),
  created_at: z.string().max(40),
}).openapi('CreatedKey'));

export const KeyListSchema = onFirstUse(() => z.object({
  data: z.array(AccountKeySchema()).max(100),
  next_cursor: z.string().max(2000).nullable(),
}).openapi('AccountKeyList'));

export const KeyParams = onFirstUse(() => z.object({
  key_id: z.string().regex(/^key_[a-z0-9]{21}$/, 'Not a key id').describe('The `key_id` from the list.'),
}));
