import { DomainError, VersionConflictError, type DomainErrorKind } from '../domain/errors';
import { HttpError, type ProblemCode } from './problem';

/** The one table from the domain's refusals to problem types. */
const PROBLEM_OF: Record<DomainErrorKind, ProblemCode> = {
  not_found: 'not_found',
  conflict: 'conflict',
  invalid_input: 'invalid_request',
  no_evidence: 'no_evidence',
};

/** The names AWS services give throttling, as the SDK reports them once its own retries are spent. */
const THROTTLING = new Set([
  'ThrottlingException', 'Throttling', 'ThrottledException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded',
  'TooManyRequestsException', 'SlowDown', 'RequestThrottled', 'RequestThrottledException', 'LimitExceededException',
  'TransactionInProgressException',
]);
const BRIEF_FAILURE_STATUS = new Set([429, 500, 502, 503, 504]);
const TIMEOUT = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/**
 * An AWS service call (DynamoDB, S3, SQS, KMS, Cognito…) that failed by throttling, a timeout or
 * the service's own 5xx after the SDK's retries: nothing is wrong with the request, so the client
 * is told to retry (503 with Retry-After) rather than shown a bug (500). SDK errors carry `$metadata`.
 */
function dependencyUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || !('$metadata' in error)) return false;
  const { $metadata, $retryable, code } = error as Error & { $metadata?: { httpStatusCode?: number }; $retryable?: { throttling?: boolean }; code?: string };
  return THROTTLING.has(error.name) || TIMEOUT.has(error.name) || $retryable?.throttling === true
    || BRIEF_FAILURE_STATUS.has($metadata?.httpStatusCode ?? 0) || NETWORK.has(code ?? '');
}

/** The problem an error answers with, or undefined for an unexpected error (a 500). */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (dependencyUnavailable(error)) {
    return new HttpError('service_unavailable', 'A service this API depends on is busy or briefly unavailable; nothing was wrong with the request. Retry after a short wait.', { headers: { 'Retry-After': '1' } }, error);
  }
  if (!(error instanceof DomainError)) return undefined;
  // A stale version is answered with the record's current ETag, so the client can re-read from it.
  const headers = error instanceof VersionConflictError ? { headers: { ETag: currentETag(error.currentVersion) } } : {};
  return new HttpError(PROBLEM_OF[error.kind], error.message, { ...error.details, ...(error.issues.length > 0 ? { errors: error.issues } : {}), ...headers });
}

/** The ETag of a record's version, as every conditional route sends it (`"3"`). */
export function currentETag(version: number): string {
  return `"${version}"`;
}
