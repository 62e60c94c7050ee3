/** Why a background job ended `failed`: a stable code its job view carries, and what to do, in words. */
export interface JobFailure {
  code: string;
  detail: string;
}

/**
 * A refusal that ends a job `failed` with a code of its own (a file that cannot be used, a budget
 * spent), never an internal error: the code is the class's, not read from the message.
 */
export abstract class JobFailureError extends Error {
  abstract readonly code: string;
}

/** The failure a job records for `error` when it is a typed refusal; undefined for anything else (an internal error). */
export function jobFailureOf(error: unknown): JobFailure | undefined {
  return error instanceof JobFailureError ? { code: error.code, detail: error.message } : undefined;
}
