import { asHttpError } from '../../shared/http/domain-problems';
import { errorResponse } from '../../shared/http/pipeline';
import { HttpError } from '../../shared/http/problem';
import { logger } from '../../shared/observability/logger';
import { NotFoundError } from '../../shared/domain/errors';

/**
 * Which failures of an AWS call tell the client to retry (503 `service_unavailable`). The SDK's
 * errors carry `$metadata`; test/integration/dependency-unavailable.test.ts raises real ones.
 */
function sdkError(fields: { name?: string; status?: number; throttling?: boolean; code?: string }): Error {
  const error = new Error('from the service');
  if (fields.name) error.name = fields.name;
  return Object.assign(error, {
    $metadata: fields.status === undefined ? {} : { httpStatusCode: fields.status },
    ...(fields.throttling === undefined ? {} : { $retryable: { throttling: fields.throttling } }),
    ...(fields.code ? { code: fields.code } : {}),
  });
}

const unavailable = (error: unknown) => asHttpError(error)?.code === 'service_unavailable';

describe('AWS dependency failures → 503 service_unavailable', () => {
  it.each([
    'ThrottlingException', 'Throttling', 'ThrottledException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded',
    'TooManyRequestsException', 'SlowDown', 'RequestThrottled', 'RequestThrottledException', 'LimitExceededException',
    'TransactionInProgressException',
  ])('throttling named %s', (name) => {
    expect(unavailable(sdkError({ name, status: 400 }))).toBe(true);
  });

  it.each(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException'])('a timeout named %s', (name) => {
    expect(unavailable(sdkError({ name }))).toBe(true);
  });

  it.each([429, 500, 502, 503, 504])('the service answering %i', (status) => {
    expect(unavailable(sdkError({ name: 'SomethingElse', status }))).toBe(true);
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'])('the connection failing with %s', (code) => {
    expect(unavailable(sdkError({ name: 'Error', code }))).toBe(true);
  });

  it('an error the SDK marks as throttling', () => {
    expect(unavailable(sdkError({ name: 'Unmodelled', status: 400, throttling: true }))).toBe(true);
    expect(unavailable(sdkError({ name: 'Unmodelled', status: 400, throttling: false }))).toBe(false);
  });

  it('answers with Retry-After and a detail that names no service and no internals', () => {
    const original = sdkError({ name: 'ThrottlingException', status: 400 });
    const answer = asHttpError(original)!;
    expect(answer).toBeInstanceOf(HttpError);
    expect(answer.status).toBe(503);
    expect(answer.extra.headers).toEqual({ 'Retry-After': '1' });
    expect(answer.message).not.toContain('from the service');
    expect(answer.cause).toBe(original);
  });
});

describe('everything else is not a dependency failure', () => {
  it.each([400, 403, 404, 409, 413, 501])('the service answering %i under another name', (status) => {
    expect(unavailable(sdkError({ name: 'ValidationException', status }))).toBe(false);
  });

  it('a throttling name on an error that did not come from the SDK', () => {
    expect(asHttpError(Object.assign(new Error('ours'), { name: 'ThrottlingException' }))).toBeUndefined();
    expect(asHttpError(Object.assign(new Error('ours'), { code: 'ECONNRESET' }))).toBeUndefined();
  });

  it('a thrown non-Error carrying $metadata', () => {
    expect(asHttpError({ name: 'ThrottlingException', $metadata: {} })).toBeUndefined();
  });

  it('an SDK error with other codes', () => {
    expect(unavailable(sdkError({ name: 'ConditionalCheckFailedException', status: 400, code: 'ENOENT' }))).toBe(false);
    expect(unavailable(sdkError({ name: 'Error' }))).toBe(false);
  });

  it('problems and domain refusals keep their own answers', () => {
    const problem = new HttpError('conflict', 'no');
    expect(asHttpError(problem)).toBe(problem);
    expect(asHttpError(new NotFoundError('gone'))?.code).toBe('not_found');
  });
});

describe('what the logs say', () => {
  afterEach(() => jest.restoreAllMocks());

  it('a dependency failure is a warning naming the request and the service error', () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const original = sdkError({ name: 'ThrottlingException', status: 400 });
    expect(errorResponse(original, 'req-9').statusCode).toBe(503);
    expect(warn).toHaveBeenCalledWith('Dependency unavailable', { requestId: 'req-9', error: original });
    expect(error).not.toHaveBeenCalled();
  });

  it('an unexpected error is logged as one, with its request and the error itself', () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const bug = new TypeError('boom');
    expect(errorResponse(bug, 'req-11').statusCode).toBe(500);
    expect(error).toHaveBeenCalledWith('Unhandled error', { requestId: 'req-11', error: bug });
  });

  it('a refusal of the request logs nothing', () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    expect(errorResponse(new HttpError('not_found', 'No such thing.'), 'req-10').statusCode).toBe(404);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });
});
