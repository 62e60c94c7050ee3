import { DomainError, type DomainErrorKind } from '../domain/errors';
import { HttpError, type ProblemCode } from './problem';

/** The one table from the domain's refusals to problem types. */
const PROBLEM_OF: Record<DomainErrorKind, ProblemCode> = {
  not_found: 'not_found',
  conflict: 'conflict',
  invalid_input: 'invalid_request',
};

/** The problem an error answers with, or undefined for an unexpected error (a 500). */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (!(error instanceof DomainError)) return undefined;
  return new HttpError(PROBLEM_OF[error.kind], error.message, { ...error.details, ...(error.issues.length > 0 ? { errors: error.issues } : {}) });
}
