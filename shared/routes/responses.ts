import { ProblemSchema } from '../schemas/common';
import type { ResponseDef, ResponseSchema } from './types';

/** Response fragments shared by route declarations, so each route lists only what is its own. */
/** A problem+json response (RFC 9457) with its description. */
export const problem = (description: string): ResponseDef => ({ description, schema: ProblemSchema, contentType: 'application/problem+json' });

export const ok = (description: string, schema: ResponseSchema): ResponseDef => ({ description, schema });

/** An AWS service the route calls is throttling or briefly failing: retry (see `Retry-After`). */
export const DEPENDENCY_UNAVAILABLE: Record<number, ResponseDef> = {
  503: {
    ...problem('A service the API depends on is busy or briefly unavailable (`service_unavailable`); retry after `Retry-After` seconds.'),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' as const } } },
  },
};

/** Errors any keyed route can answer. */
export const KEYED_ERRORS: Record<number, ResponseDef> = {
  400: problem('Invalid request (`invalid_request`, `malformed_body`); `errors` lists each bad field.'),
  401: problem('No `X-API-Key` header (`missing_api_key`).'),
  403: problem('Unknown or revoked key (`invalid_api_key`), or the route needs a higher tier (`subscription_required`).'),
  413: problem('Body or upload too large (`payload_too_large`).'),
  415: problem('Wrong content type (`unsupported_media_type`).'),
  429: problem('Hourly request limit reached (`rate_limit_exceeded`); see `Retry-After`.'),
  500: problem('Unexpected error (`internal_error`); no internals are returned.'),
  ...DEPENDENCY_UNAVAILABLE,
};

export const PUBLIC_ERRORS: Record<number, ResponseDef> = {
  500: problem('Unexpected error (`internal_error`).'),
};

export const NOT_FOUND = { 404: problem('No such record, or it belongs to another account (`not_found`).') };
export const CONFLICT = { 409: problem('Invalid state transition, or a version conflict: `If-Match` (or `version`) no longer matches the record (`conflict`).') };
/**
 * The 409 of a conditional update: a stale `If-Match` (or `version`), with the record's current
 * `ETag` to re-read from (docs/decisions/0005-stale-if-match-409.md), or a move the state forbids.
 */
export const STALE_VERSION_CONFLICT = {
  409: {
    ...problem('The record changed since the `ETag` sent in `If-Match` (or `version`): nothing was written, and `ETag` carries the current version to re-read and retry from; or a move its state does not allow (`conflict`).'),
    headers: { ETag: { description: 'The record\'s current version, on a version conflict.', schema: { type: 'string' as const } } },
  },
};
export const PRECONDITION_REQUIRED = { 428: problem('No `If-Match` header: send the `ETag` of your last read (`precondition_required`).') };
export const IDEMPOTENCY_REUSED = { 422: problem('`Idempotency-Key` reused with another body (`idempotency_key_reused`).') };

// The /v1 routes' errors, here rather than with the identity routes: the risk and training
// functions use them without building the identity routes' schemas.
const WWW_AUTHENTICATE = { 'WWW-Authenticate': { description: '`Bearer error="invalid_token"` (RFC 6750).', schema: { type: 'string' as const } } };
/** A bearer route limited to some roles (`roles` in the route): 403 `insufficient_scope` for the others. */
export const ROLE_ERRORS: Record<number, ResponseDef> = {
  403: { ...problem('The signed-in user\'s role may not use this route (`insufficient_scope`).'), headers: { 'WWW-Authenticate': { description: '`Bearer error="insufficient_scope"` (RFC 6750).', schema: { type: 'string' as const } } } },
};
export const RETRY_AFTER = { 'Retry-After': { description: 'Seconds until another attempt is accepted.', schema: { type: 'integer' as const } } };

/** Errors of the public sign-up and sign-in routes. */
export const PUBLIC_V1_ERRORS: Record<number, ResponseDef> = {
  400: problem('Invalid request (`invalid_request`, `malformed_body`); `errors` lists each bad field.'),
  413: problem('Body too large (`payload_too_large`).'),
  415: problem('Wrong content type (`unsupported_media_type`).'),
  500: problem('Unexpected error (`internal_error`); no internals are returned.'),
  ...DEPENDENCY_UNAVAILABLE,
};

/** Errors of every route that needs a bearer token. */
export const BEARER_ERRORS: Record<number, ResponseDef> = {
  ...PUBLIC_V1_ERRORS,
  401: { ...problem('Missing, expired, tampered or foreign access token, or an ID token instead of an access token (`invalid_token`).'), headers: WWW_AUTHENTICATE },
  429: problem('The account\'s hourly request limit is reached (`rate_limit_exceeded`); see `Retry-After`.'),
};
