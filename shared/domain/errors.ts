/**
 * The refusals of the domain, in its own words. Use cases throw these; the HTTP edge turns each
 * kind into one problem type (shared/http/domain-problems.ts), so no domain module knows HTTP.
 */

/** Where a rejected input came from. */
export type InputLocation = 'path' | 'query' | 'header' | 'body';

export interface FieldIssue {
  field: string;
  in?: InputLocation;
  message: string;
}

export type DomainErrorKind = 'not_found' | 'conflict' | 'invalid_input' | 'no_evidence';

/** `details` are facts the caller may act on (the current version, the missing items…). */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The thing asked for does not exist for this caller (another account's items included). */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not_found', message);
    this.name = 'NotFoundError';
  }
}

/** The request is well formed but the current state does not allow it. */
export class ConflictError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('conflict', message, details);
    this.name = 'ConflictError';
  }
}

/**
 * A conditional write named a version that is no longer current (a stale `If-Match`): nothing was
 * written, and the caller re-reads from `currentVersion`, whose ETag the answer carries.
 */
export class VersionConflictError extends ConflictError {
  constructor(message: string, readonly currentVersion: number) {
    super(message, { current_version: currentVersion });
    this.name = 'VersionConflictError';
  }
}

/** The API holds no evidence for what was asked (nothing to fill from); `details` say what to link first. */
export class NoEvidenceError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('no_evidence', message, details);
    this.name = 'NoEvidenceError';
  }
}

/** An input value the domain rejects, naming the field. */
export class InvalidInputError extends DomainError {
  constructor(message: string, issues: FieldIssue[]) {
    super('invalid_input', message, {}, issues);
    this.name = 'InvalidInputError';
  }
}

/** One input field rejected: the message is both the detail and the field's reason. */
export function invalidField(field: string, location: InputLocation, message: string): InvalidInputError {
  return new InvalidInputError(message, [{ field, in: location, message }]);
}

/** A list cursor that was not issued for this account, list and filters (tampered or foreign). */
export class InvalidCursorError extends InvalidInputError {
  constructor() {
    super('The cursor is not valid for this list; start again without it.', [
      { field: 'cursor', in: 'query', message: 'Use the next_cursor of the previous page of this list.' },
    ]);
    this.name = 'InvalidCursorError';
  }
}
