import type { FieldIssue } from '../domain/errors';

/**
 * RFC 9457 problem details. Every error the API returns — from a handler, the pipeline, the local
 * gateway or an API Gateway gateway response — is built from this table, so codes stay stable.
 */
export const PROBLEM_TYPES = {
  missing_api_key: { status: 401, title: 'API key required' },
  invalid_api_key: { status: 403, title: 'Invalid API key' },
  subscription_required: { status: 403, title: 'Subscription required' },
  invalid_token: { status: 401, title: 'Invalid access token' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  too_many_attempts: { status: 429, title: 'Too many attempts' },
  email_taken: { status: 409, title: 'Email already registered' },
  email_undeliverable: { status: 422, title: 'Email undeliverable' },
  weak_password: { status: 400, title: 'Password too weak' },
  rate_limit_exceeded: { status: 429, title: 'Rate limit exceeded' },
  malformed_body: { status: 400, title: 'Malformed request body' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  invalid_request: { status: 400, title: 'Invalid request' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  not_found: { status: 404, title: 'Not found' },
  conflict: { status: 409, title: 'Conflict' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  already_enrolled: { status: 409, title: 'Already enrolled' },
  prerequisites_not_met: { status: 409, title: 'Prerequisites not met' },
  location_outside_florida: { status: 422, title: 'Location outside Florida' },
  no_evidence: { status: 422, title: 'No evidence' },
  cog_url_refused: { status: 400, title: 'COG URL refused' },
  cog_unreachable: { status: 502, title: 'COG unreachable' },
  cog_no_ranges: { status: 422, title: 'COG server answers no byte ranges' },
  not_a_cog: { status: 422, title: 'Not a Cloud-Optimized GeoTIFF' },
  unsupported_crs: { status: 422, title: 'Unsupported coordinate system' },
  cog_no_nodata: { status: 422, title: 'COG declares no no-data value' },
  cog_window_too_large: { status: 422, title: 'COG tiles or overviews too large' },
  elevation_out_of_range: { status: 422, title: 'Elevations out of range' },
  precondition_required: { status: 428, title: 'Precondition required' },
  internal_error: { status: 500, title: 'Internal server error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_TYPES;

/** A rejected field in a problem's `errors`: the domain's own word for it. */
export type FieldError = FieldIssue;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** Problem types are documented on the served reference page, one anchor per code. */
export function problemTypeUri(code: ProblemCode): string {
  return `/api/docs#error-${code}`;
}

export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; [k: string]: unknown } = {},
    /** What failed underneath, for the logs only: never in the answer. */
    cause?: unknown,
  ) {
    super(detail, { cause });
    this.name = 'HttpError';
    this.status = PROBLEM_TYPES[code].status;
  }
}

export function problemBody(code: ProblemCode, detail: string, instance: string, extra: Record<string, unknown> = {}): ProblemBody {
  const { headers: _ignored, ...fields } = extra;
  return {
    type: problemTypeUri(code),
    title: PROBLEM_TYPES[code].title,
    status: PROBLEM_TYPES[code].status,
    detail,
    instance,
    code,
    ...fields,
  };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
