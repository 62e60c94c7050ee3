import type { ProblemCode } from './problem';

/**
 * Responses produced before a function runs: by API Gateway in AWS (its gateway responses,
 * reshaped to problem+json by the stack) and by the local gateway on loopback. One table, so both
 * answer with the same status, code and wording.
 */
export const GATEWAY_RESPONSES = {
  UNAUTHORIZED: { code: 'missing_api_key', detail: 'Send your API key in the X-API-Key header.' },
  ACCESS_DENIED: { code: 'invalid_api_key', detail: 'The API key is not recognised or has been revoked.' },
  MISSING_AUTHENTICATION_TOKEN: { code: 'not_found', detail: 'No such route. See /api/docs for the routes of this API.' },
  RESOURCE_NOT_FOUND: { code: 'not_found', detail: 'No such route. See /api/docs for the routes of this API.' },
  REQUEST_TOO_LARGE: { code: 'payload_too_large', detail: 'The request is larger than the 10 MB the gateway accepts; upload large files through POST /assets/imports.' },
  THROTTLED: { code: 'rate_limit_exceeded', detail: 'Too many requests at once for this tier; slow down and retry.' },
  QUOTA_EXCEEDED: { code: 'rate_limit_exceeded', detail: 'The usage plan quota is exhausted.' },
  UNSUPPORTED_MEDIA_TYPE: { code: 'unsupported_media_type', detail: 'The content type is not accepted by this route.' },
  BAD_REQUEST_BODY: { code: 'malformed_body', detail: 'The request body could not be read.' },
  DEFAULT_4XX: { code: 'invalid_request', detail: 'The request was rejected by the gateway.' },
  DEFAULT_5XX: { code: 'internal_error', detail: 'An unexpected error occurred. Quote the instance id when reporting it.' },
} as const satisfies Record<string, { code: ProblemCode; detail: string }>;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/** The gateway's own body limit (API Gateway REST: 10 MB). */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Content types API Gateway passes to Lambda base64-encoded. */
export const BINARY_MEDIA_TYPES = [
  'multipart/form-data',
  'application/octet-stream',
  'application/zip',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
