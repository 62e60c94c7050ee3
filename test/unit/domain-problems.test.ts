import { ConflictError, InvalidCursorError, invalidField, NotFoundError, VersionConflictError } from '../../shared/domain/errors';
import { asHttpError } from '../../shared/http/domain-problems';
import { HttpError } from '../../shared/http/problem';
import { errorResponse } from '../../shared/http/pipeline';

describe('domain refusals at the HTTP edge', () => {
  it.each([
    [new NotFoundError('No assessment a1 in this account.'), 'not_found', 404],
    [new ConflictError('The assessment changed.', { current_version: 4 }), 'conflict', 409],
    [invalidField('jurisdiction', 'body', '"Gotham" is not a Florida county or municipality.'), 'invalid_request', 400],
    [new InvalidCursorError(), 'invalid_request', 400],
  ])('%s answers %s (%i)', (error, code, status) => {
    const problem = asHttpError(error)!;
    expect(problem).toBeInstanceOf(HttpError);
    expect({ code: problem.code, status: problem.status, detail: problem.message }).toEqual({ code, status, detail: error.message });
  });

  it('carries the details and the rejected fields into the problem body', () => {
    const conflict = JSON.parse(errorResponse(new ConflictError('Stale.', { current_version: 4 }), 'req-1').body);
    expect(conflict).toMatchObject({ code: 'conflict', status: 409, detail: 'Stale.', current_version: 4, instance: 'req-1' });
    expect(conflict.errors).toBeUndefined();
    const cursor = JSON.parse(errorResponse(new InvalidCursorError(), 'req-2').body);
    expect(cursor.errors).toEqual([{ field: 'cursor', in: 'query', message: 'Use the next_cursor of the previous page of this list.' }]);
  });

  it('answers a stale version with the current version in the body and its ETag in the headers; other conflicts without one', () => {
    const stale = errorResponse(new VersionConflictError('The assessment is at version 7, not 5.', 7), 'req-4');
    expect([stale.statusCode, stale.headers?.ETag, JSON.parse(stale.body).current_version]).toEqual([409, '"7"', 7]);
    expect(errorResponse(new ConflictError('Frozen.', { status_now: 'submitted' }), 'req-5').headers?.ETag).toBeUndefined();
  });

  it('leaves unexpected errors to the 500 answer', () => {
    expect(asHttpError(new Error('disk on fire'))).toBeUndefined();
    expect(errorResponse(new Error('disk on fire'), 'req-3').statusCode).toBe(500);
  });
});
